# Counter.yaml:1  Namespaces:
import mplc.runtime as _r
_ENGINE = _r.engine_for('1.0.0')


# Counter.yaml:8  Contract: $.int().notNull()
@_r.contracts.passes_unchanged('int')
def _contract1(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.integer(value, cc)
    value = _r.contracts.not_null(value, cc)
    return _r.contracts.freeze(value)


# Counter.yaml:12  Contract: $.int()
@_r.contracts.passes_unchanged('int', 'null')
def _contract2(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.integer(value, cc)
    return _r.contracts.freeze(value)


# Counter.yaml:21  - $.count: $.count + $by
_P4 = _r.fast.PropertyRead('count', True)
_C7 = _r.fast.NO_VALUE
_C9 = _r.fast.INLINE_LOWER_BOUND
_C10 = _r.fast.INLINE_BOUND
_C11 = _r.fast.SHORT_SIZED
_C12 = _r.fast.SHORT
_C13 = _r.fast.ALWAYS_SMALL
_T17 = _r.target(_r.variable('$'), (('attr', 'count'),), '$.count')
# Counter.yaml:22  - If: $.limit != null and $.count > $.limit
_P18 = _r.fast.PropertyRead('limit', True)
_P21 = _r.fast.PropertyRead('count', True)
_P24 = _r.fast.PropertyRead('limit', True)
# Counter.yaml:25  Message: format('count {0} is past the limit {1}', $.count, $.limit)
_P29 = _r.fast.PropertyRead('count', True)
_P32 = _r.fast.PropertyRead('limit', True)
# Counter.yaml:26  - Return: $.count
_P37 = _r.fast.PropertyRead('count', True)
_C42 = _r.fast.QUOTA_FREE
_C43 = _r.fast.quota
# Counter.yaml:15  increment:
_C45 = _r.fast.MuranoPlException
_C46 = _r.fast.to_murano_exception
_C47 = _r.fast.METHOD_CONTEXT_KEY
_C49 = _r.fast.CallContext
_C50 = _r.fast.running_parallels
_C52 = _r.fast.as_context


def _body51(context, this=None, caller=None, caller_engine=None, _v14=None):
    if caller is None:
        _variables = context._data
        _v5 = _variables.get('$1')
        _v14 = _variables.get('$by')
        _call_context = context
    else:
        if type(_v14) is not int or this.destroyed or (_t48 := type(caller)
            ) is not dict and _t48 is not _C49 or _C50:
            return _r.fast.enter_slowly(context, this, caller,
                caller_engine, _v14)
        this = this.real_this
        _variables = {'$this': this, '$1': this, '$by': _v14, _C47: context}
        context = _variables
        _call_context = None
        _v5 = this
    receiver = _C7
    engine = _ENGINE
    try:
        # Counter.yaml:21  - $.count: $.count + $by
        if _call_context is None:
            _call_context = _C52(context)
        _t15 = _t6 if _P4 in _v5.type.self_reads and _v5.this is None and (
            (_t8 := type((_t6 := _v5.properties.get('count', _C7)))) is int and
            _C9 < _t6 < _C10 or _t8 in _C11 and len(_t6) < _C12 or _t8 in _C13
            ) else _P4(_v5, _call_context, engine)
        _r.assign(_call_context, _T17, _t16 if type(_t15) is int and type(
            _v14) is int and _C9 < (_t16 := _t15 + _v14) < _C10 else _r.
            result(_r.fast.add(_t15, _v14, context, engine)))
        _v5 = _variables.get('$1')
        # Counter.yaml:22  - If: $.limit != null and $.count > $.limit
        if _r.result((_t19 if _P18 in _v5.type.self_reads and _v5.this is
            None and ((_t20 := type((_t19 := _v5.properties.get('limit',
            _C7)))) is int and _C9 < _t19 < _C10 or _t20 in _C11 and len(
            _t19) < _C12 or _t20 in _C13) else _P18(_v5, _call_context,
            engine)) != None and (_t27 > _t28 if (type((_t27 := _t22 if 
            _P21 in _v5.type.self_reads and _v5.this is None and ((_t23 :=
            type((_t22 := _v5.properties.get('count', _C7)))) is int and 
            _C9 < _t22 < _C10 or _t23 in _C11 and len(_t22) < _C12 or _t23 in
            _C13) else _P21(_v5, _call_context, engine))) is int) & (type((
            _t28 := _t25 if _P24 in _v5.type.self_reads and _v5.this is
            None and ((_t26 := type((_t25 := _v5.properties.get('limit',
            _C7)))) is int and _C9 < _t25 < _C10 or _t26 in _C11 and len(
            _t25) < _C12 or _t26 in _C13) else _P24(_v5, _call_context,
            engine))) is int) else _r.fast.greater(_t27, _t28, context,
            engine))):
            # Counter.yaml:25  Message: format('count {0} is past the limit {1}', $.count, $.limit)
            _t35 = (_t30 if _P29 in _v5.type.self_reads and _v5.this is
                None and ((_t31 := type((_t30 := _v5.properties.get('count',
                _C7)))) is int and _C9 < _t30 < _C10 or _t31 in _C11 and 
                len(_t30) < _C12 or _t31 in _C13) else _P29(_v5,
                _call_context, engine))
            # Counter.yaml:24  - Throw: LimitReached
            raise _r.throw(_call_context, cause=None, names=('LimitReached'
                ,), message=_r.result(
                f'count {_t35} is past the limit {_t36}' if (type(_t35) is
                int and -1000000000000000000 < _t35 < 1000000000000000000 or
                type(_t35) is str and len(_t35) < 64) & (type((_t36 := _t33 if
                _P32 in _v5.type.self_reads and _v5.this is None and ((_t34 :=
                type((_t33 := _v5.properties.get('limit', _C7)))) is int and
                _C9 < _t33 < _C10 or _t34 in _C11 and len(_t33) < _C12 or 
                _t34 in _C13) else _P32(_v5, _call_context, engine))) is
                int and -1000000000000000000 < _t36 < 1000000000000000000 or
                type(_t36) is str and len(_t36) < 64) else _r.fast.
                format_string(context, engine,
                'count {0} is past the limit {1}', _t35, _t36)), extra=None)
        # Counter.yaml:26  - Return: $.count
        _t40 = _r.result(_t38 if _P37 in _v5.type.self_reads and _v5.this is
            None and ((_t39 := type((_t38 := _v5.properties.get('count',
            _C7)))) is int and _C9 < _t38 < _C10 or _t39 in _C11 and len(
            _t38) < _C12 or _t39 in _C13) else _P37(_v5, _call_context, engine)
            )
        return _t40 if caller is None or ((_t41 := type(_t40)) is int and 
            _C9 < _t40 < _C10 or _t41 in _C42) else _C43(caller_engine, _t40)
    except _C45:
        # Counter.yaml:15  increment:
        raise
    except Exception as _error44:
        raise _C46(_error44, _error44.__traceback__) from None


# Counter.yaml:35  - $.increment()
_A54 = ()


def _f55(receiver, context, engine):
    return _r.call('increment', receiver, context, engine, _A54)


_L56 = _r.lazy(_f55, True)
_M57 = _r.fast.MethodCall('increment', _L56, _A54, True, ())
_C60 = _r.fast.MuranoObject
# Counter.yaml:33  - While: $.count < $target
_P61 = _r.fast.PropertyRead('count', True)
# Counter.yaml:36  - Return: $.count
_P66 = _r.fast.PropertyRead('count', True)


# Counter.yaml:28  countTo:
def _body73(context, this=None, caller=None, caller_engine=None, _v64=None):
    if caller is None:
        _variables = context._data
        _v58 = _variables.get('$1')
        _v64 = _variables.get('$target')
        _call_context = context
    else:
        if type(_v64) is not int or this.destroyed or (_t72 := type(caller)
            ) is not dict and _t72 is not _C49 or _C50:
            return _r.fast.enter_slowly(context, this, caller,
                caller_engine, _v64)
        this = this.real_this
        _variables = {'$this': this, '$1': this, '$target': _v64, _C47: context
            }
        context = _variables
        _call_context = None
        _v58 = this
    receiver = _C7
    engine = _ENGINE
    try:
        # Counter.yaml:33  - While: $.count < $target
        while _t65 < _v64 if type((_t65 := _t62 if _P61 in _v58.type.
            self_reads and _v58.this is None and ((_t63 := type((_t62 :=
            _v58.properties.get('count', _C7)))) is int and _C9 < _t62 <
            _C10 or _t63 in _C11 and len(_t62) < _C12 or _t63 in _C13) else
            _P61(_v58, _call_context if _call_context is not None else (
            _call_context := _C52(context)), engine))) is int and type(_v64
            ) is int else _r.fast.less(_t65, _v64, context, engine):
            # Counter.yaml:35  - $.increment()
            _d59 = _v58.type.call_sites.get(_M57)
            _r.result(_d59(_v58, context, engine) if _d59 is not None else
                _M57(_v58, _call_context if _call_context is not None else
                (_call_context := _C52(context)), engine))
        # Counter.yaml:36  - Return: $.count
        _t69 = _r.result(_t67 if _P66 in _v58.type.self_reads and _v58.this is
            None and ((_t68 := type((_t67 := _v58.properties.get('count',
            _C7)))) is int and _C9 < _t67 < _C10 or _t68 in _C11 and len(
            _t67) < _C12 or _t68 in _C13) else _P66(_v58, _call_context if 
            _call_context is not None else (_call_context := _C52(context)),
            engine))
        return _t69 if caller is None or ((_t70 := type(_t69)) is int and 
            _C9 < _t69 < _C10 or _t70 in _C42) else _C43(caller_engine, _t69)
    except _C45:
        # Counter.yaml:28  countTo:
        raise
    except Exception as _error71:
        raise _C46(_error71, _error71.__traceback__) from None


# Counter.yaml:1  Namespaces:
_INSTRUCTIONS = {(21, 8): ('$.count + $by', 21, 18, 21, 8), (21, 17):
    ('$.count + $by', 21, 18, 21, 30), (22, 8):
    ('$.limit != null and $.count > $.limit', 22, 13, 22, 8), (22, 12):
    ('$.limit != null and $.count > $.limit', 22, 13, 22, 49), (24, 12):
    ('block construct', 24, 13, 24, 12), (25, 21):
    ("format('count {0} is past the limit {1}', $.count, $.limit)", 25, 22, 25, 80)
    , (26, 8): ('$.count', 26, 17, 26, 8), (26, 16):
    ('$.count', 26, 17, 26, 23), (33, 8):
    ('$.count < $target', 33, 16, 33, 8), (33, 15):
    ('$.count < $target', 33, 16, 33, 32), (35, 12):
    ('$.increment()', 35, 13, 35, 25), (36, 8): ('$.count', 36, 17, 36, 8),
    (36, 16): ('$.count', 36, 17, 36, 23)}
CLASS = _r.ClassSpec(name='com.example.legacy.Counter', package=None,
    extends=('io.murano.Object',), namespaces={'=': 'com.example.legacy'},
    usage='Class', cardinality=None, applies=(), inherited=False, meta=(),
    imports=(), properties={'count': _r.PropertySpec('count', usage='InOut',
    contract=_contract1, loads_objects=False, value_only=True, default=_r.
    constant_default(0), has_default=True, meta=(), line=7), 'limit': _r.
    PropertySpec('limit', usage='In', contract=_contract2, loads_objects=
    False, value_only=True, default=None, has_default=False, meta=(), line=
    11)}, methods={'increment': _r.MethodSpec('increment', usage='Runtime',
    scope='Session', arguments=(_r.ArgumentSpec('by', usage='Standard',
    contract=_contract1, loads_objects=False, default=_r.constant_default(1
    ), has_default=True, meta=()),), body=_body51, meta=(), line=15,
    direct_entry=True, local_variables=('_v5', '_v14'), variable_names=
    ('$1', '$by')), 'countTo': _r.MethodSpec('countTo', usage='Runtime',
    scope='Session', arguments=(_r.ArgumentSpec('target', usage='Standard',
    contract=_contract1, loads_objects=False, default=None, has_default=
    False, meta=()),), body=_body73, meta=(), line=28, direct_entry=True,
    local_variables=('_v58', '_v64'), variable_names=('$1', '$target'))},
    source_file='<package>/Classes/Counter.yaml', line=1)
