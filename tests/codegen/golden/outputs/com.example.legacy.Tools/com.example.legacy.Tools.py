# Tools.yaml:1  Namespaces:
import mplc.runtime as _r
_ENGINE = _r.engine_for('1.0.0')


# Tools.yaml:11  Contract: [$.string().notNull()]
@_r.contracts.passes_unchanged('str')
def _contract1_item1(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.string(value, cc)
    value = _r.contracts.not_null(value, cc)
    return _r.contracts.freeze(value)


def _contract1(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    return _r.contracts.list_of(value, cc, (_contract1_item1,), 0, None)


# Tools.yaml:13  Contract: $.string()
@_r.contracts.passes_unchanged('null', 'str')
def _contract2(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.string(value, cc)
    return _r.contracts.freeze(value)


# Tools.yaml:16  - Return: $separator.join($names)
def _f3(receiver, context, engine):
    return _r.fast.variable(context, '$names')


def _i4(item, context, engine):
    return _r.fast.variable(context, '$names')


_L5 = _r.lazy(_f3, False, _i4)
_A6 = _L5,


def _f7(receiver, context, engine):
    return _r.call('join', receiver, context, engine, _A6)


_L8 = _r.lazy(_f7, True)
_M9 = _r.fast.MethodCall('join', _L8, _A6, True, ())
_C12 = _r.fast.MuranoObject
# Tools.yaml:7  joinNames:
_C15 = _r.fast.MuranoPlException
_C16 = _r.fast.to_murano_exception
_C17 = _r.fast.NO_VALUE


def _body18(context):
    _variables = context._data
    _v10 = _variables.get('$separator')
    _v13 = _variables.get('$names')
    receiver = _C17
    engine = _ENGINE
    try:
        # Tools.yaml:16  - Return: $separator.join($names)
        return _r.result(_d11(_v10, context, engine, _v13) if type(_v10) is
            _C12 and (_d11 := _v10.type.call_sites.get(_M9)) is not None else
            _M9(_v10, context, engine))
    except _C15:
        # Tools.yaml:7  joinNames:
        raise
    except Exception as _error14:
        raise _C16(_error14, _error14.__traceback__) from None


# Tools.yaml:26  In: $words
_C22 = _r.fast.SCALARS


# Tools.yaml:28  - $counts[$word]: $counts.get($word, 0) + 1
def _f23(receiver, context, engine):
    return _r.fast.variable(context, '$word')


def _i24(item, context, engine):
    return _r.fast.variable(context, '$word')


_L25 = _r.lazy(_f23, False, _i24)
_K26 = _r.constant(0)
_A27 = _L25, _K26


def _f28(receiver, context, engine):
    return _r.call('get', receiver, context, engine, _A27)


_L29 = _r.lazy(_f28, True)
_M30 = _r.fast.MethodCall('get', _L29, _A27, True, ())
_C35 = _r.fast.INLINE_BOUND
_C36 = _r.fast.INLINE_LOWER_BOUND
_L38 = _r.lazy(_f23, False)
_T39 = _r.target(_r.variable('$counts'), (('index', _L38),), '$counts[$word]')


# Tools.yaml:18  histogram:
def _body42(context):
    _variables = context._data
    _v20 = _variables.get('$counts')
    _v21 = _variables.get('$words')
    _v32 = _variables.get('$word')
    receiver = _C17
    engine = _ENGINE
    try:
        # Tools.yaml:24  - $counts: {}
        _v20 = _variables['$counts'] = _r.freeze_dict([])
        # Tools.yaml:25  - For: word
        for _item40 in _r.iterate(_v21 if type(_v21) in _C22 else _r.result
            (_v21)):
            _v32 = _variables['$word'] = _item40
            # Tools.yaml:28  - $counts[$word]: $counts.get($word, 0) + 1
            _t33 = _d31(_v20, context, engine, _v32, 0) if type(_v20
                ) is _C12 and (_d31 := _v20.type.call_sites.get(_M30)
                ) is not None else _M30(_v20, context, engine)
            _r.assign(context, _T39, _t34 if type(_t33) is int and _C36 < (
                _t34 := _t33 + 1) < _C35 else _r.result(_r.fast.add(_t33, 1,
                context, engine)))
            _v20 = _variables.get('$counts')
        # Tools.yaml:29  - Return: $counts
        return _v20 if type(_v20) in _C22 else _r.result(_v20)
    except _C15:
        # Tools.yaml:18  histogram:
        raise
    except Exception as _error41:
        raise _C16(_error41, _error41.__traceback__) from None


# Tools.yaml:35  Contract: $
@_r.contracts.passes_unchanged('bool', 'float', 'int', 'null', 'str')
def _contract43(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    return _r.contracts.freeze(value)


# Tools.yaml:31  classify:
def _body48(context):
    _variables = context._data
    _v45 = _variables.get('$value')
    receiver = _C17
    engine = _ENGINE
    try:
        # Tools.yaml:37  - Switch:
        _matched44 = False
        # Tools.yaml:38  $value = null:
        if _v45 == None:
            _matched44 = True
            # Tools.yaml:39  - Return: none
            return 'none'
        # Tools.yaml:40  $value < 0:
        if _v45 < 0 if type(_v45) is int else _r.fast.less(_v45, 0, context,
            engine):
            _matched44 = True
            # Tools.yaml:41  - Return: negative
            return 'negative'
        # Tools.yaml:37  - Switch:
        if not _matched44:
            # Tools.yaml:43  - Match:
            _match46 = _v45 if type(_v45) in _C22 else _r.result(_v45)
            # Tools.yaml:44  0: [Return: zero]
            if _r.match_equals(_match46, 0):
                return 'zero'
            elif _r.match_equals(_match46, 1):
                # Tools.yaml:45  1: [Return: one]
                return 'one'
            else:
                # Tools.yaml:48  - Return: many
                return 'many'
    except _C15:
        # Tools.yaml:31  classify:
        raise
    except Exception as _error47:
        raise _C16(_error47, _error47.__traceback__) from None


# Tools.yaml:1  Namespaces:
_INSTRUCTIONS = {(16, 8): ('$separator.join($names)', 16, 17, 16, 8),
    (16, 16): ('$separator.join($names)', 16, 17, 16, 39), (24, 8):
    (None, None, None, 24, 8), (25, 8): ('$words', 26, 13, 25, 8), (26, 12):
    ('$words', 26, 13, 26, 18), (28, 12):
    ('$counts.get($word, 0) + 1', 28, 29, 28, 12), (28, 28):
    ('$counts.get($word, 0) + 1', 28, 29, 28, 53), (29, 8):
    ('$counts', 29, 17, 29, 8), (29, 16): ('$counts', 29, 17, 29, 23),
    (37, 8): ('block construct', 37, 9, 37, 8), (38, 10):
    ('$value = null', 38, 11, 38, 23), (39, 14):
    ('block construct', 39, 15, 39, 14), (40, 10):
    ('$value < 0', 40, 11, 40, 20), (41, 14):
    ('block construct', 41, 15, 41, 14), (43, 12):
    ('$value', 46, 20, 43, 12), (44, 18):
    ('block construct', 44, 19, 44, 18), (45, 18):
    ('block construct', 45, 19, 45, 18), (46, 19):
    ('$value', 46, 20, 46, 25), (48, 16): ('block construct', 48, 17, 48, 16)}
CLASS = _r.ClassSpec(name='com.example.legacy.Tools', package=None, extends
    =('io.murano.Object',), namespaces={'=': 'com.example.legacy'}, usage=
    'Class', cardinality=None, applies=(), inherited=False, meta=(),
    imports=(), properties={}, methods={'joinNames': _r.MethodSpec(
    'joinNames', usage='Static', scope='Session', arguments=(_r.
    ArgumentSpec('names', usage='Standard', contract=_contract1,
    loads_objects=False, default=None, has_default=False, meta=()), _r.
    ArgumentSpec('separator', usage='Standard', contract=_contract2,
    loads_objects=False, default=_r.constant_default(', '), has_default=
    True, meta=())), body=_body18, meta=(), line=7, direct_entry=False,
    local_variables=('_v10', '_v13'), variable_names=
    ('$separator', '$names')), 'histogram': _r.MethodSpec('histogram',
    usage='Static', scope='Session', arguments=(_r.ArgumentSpec('words',
    usage='Standard', contract=_contract1, loads_objects=False, default=
    None, has_default=False, meta=()),), body=_body42, meta=(), line=18,
    direct_entry=False, local_variables=('_v20', '_v21', '_v32'),
    variable_names=('$counts', '$words', '$word')), 'classify': _r.
    MethodSpec('classify', usage='Static', scope='Session', arguments=(_r.
    ArgumentSpec('value', usage='Standard', contract=_contract43,
    loads_objects=False, default=None, has_default=False, meta=()),), body=
    _body48, meta=(), line=31, direct_entry=False, local_variables=
    ('_v45',), variable_names=('$value',))}, source_file=
    '<package>/Classes/Tools.yaml', line=1)
