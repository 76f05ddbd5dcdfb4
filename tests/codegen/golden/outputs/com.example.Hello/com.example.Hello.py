# Hello.yaml:1  Namespaces:
import mplc.runtime as _r
_ENGINE = _r.engine_for('1.3.0')


# Hello.yaml:12  Contract: $.string().notNull()
@_r.contracts.passes_unchanged('str')
def _contract1(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.string(value, cc)
    value = _r.contracts.not_null(value, cc)
    return _r.contracts.freeze(value)


# Hello.yaml:16  Contract: [$.string().notNull(), 1]
def _contract2(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    return _r.contracts.list_of(value, cc, (_contract1,), 1, None)


# Hello.yaml:19  Contract: [$.string().notNull()]
def _contract3(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    return _r.contracts.list_of(value, cc, (_contract1,), 0, None)


# Hello.yaml:23  Contract: $.string().notNull().check(len($) <= 3)
def _f5(receiver, context, engine):
    return _r.fast.variable(context, '$1')


_L6 = _r.lazy(_f5, False)
_A7 = _L6,


def _f8(receiver, context, engine):
    return _r.fast.less_or_equal(_r.fast.length(_r.fast.variable(context,
        '$1'), context, engine) if receiver is _r.fast.NO_VALUE else _r.
        call('len', receiver, context, engine, _A7), 3, context, engine)


def _contract4(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.string(value, cc)
    value = _r.contracts.not_null(value, cc)
    value = _r.contracts.check(value, cc, _f8, None)
    return _r.contracts.freeze(value)


# Hello.yaml:27  Contract: [$.class(Greeting)]
@_r.contracts.passes_objects(False)
def _contract9_item1(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.class_instance(value, cc, 'Greeting', None, None)
    return _r.contracts.freeze(value)


@_r.contracts.passes_objects(True)
def _contract9(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    return _r.contracts.list_of(value, cc, (_contract9_item1,), 0, None)


# Hello.yaml:31  Contract: [$.string()]
@_r.contracts.passes_unchanged('null', 'str')
def _contract10_item1(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.string(value, cc)
    return _r.contracts.freeze(value)


def _contract10(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    return _r.contracts.list_of(value, cc, (_contract10_item1,), 0, None)


# Hello.yaml:37  - $.greetings: []
_T11 = _r.target(_r.variable('$'), (('attr', 'greetings'),), '$.greetings')
# Hello.yaml:38  - $.steps: []
_T13 = _r.target(_r.variable('$'), (('attr', 'steps'),), '$.steps')
# Hello.yaml:35  .init:
_C15 = _r.fast.MuranoPlException
_C16 = _r.fast.to_murano_exception
_C17 = _r.fast.METHOD_CONTEXT_KEY
_C19 = _r.fast.CallContext
_C20 = _r.fast.running_parallels
_C22 = _r.fast.as_context
_C23 = _r.fast.NO_VALUE


def _body21(context, this=None, caller=None, caller_engine=None):
    if caller is None:
        _variables = context._data
        _v12 = _variables.get('$1')
        _call_context = context
    else:
        if this.destroyed or (_t18 := type(caller)
            ) is not dict and _t18 is not _C19 or _C20:
            return _r.fast.enter_slowly(context, this, caller, caller_engine)
        this = this.real_this
        _variables = {'$this': this, '$1': this, _C17: context}
        context = _variables
        _call_context = None
        _v12 = this
    receiver = _C23
    engine = _ENGINE
    try:
        # Hello.yaml:37  - $.greetings: []
        if _call_context is None:
            _call_context = _C22(context)
        _r.assign(_call_context, _T11, _r.freeze_list([]))
        _v12 = _variables.get('$1')
        # Hello.yaml:38  - $.steps: []
        _r.assign(_call_context, _T13, _r.freeze_list([]))
        _v12 = _variables.get('$1')
    except _C15:
        # Hello.yaml:35  .init:
        raise
    except Exception as _error14:
        raise _C16(_error14, _error14.__traceback__) from None


# Hello.yaml:43  - $template: new(sys:Resources).string('greeting.txt').trim()
_A24 = ()


def _f25(receiver, context, engine):
    return _r.call('trim', receiver, context, engine, _A24)


_L26 = _r.lazy(_f25, True)
_M27 = _r.fast.MethodCall('trim', _L26, _A24, True, ())
_K28 = _r.constant('greeting.txt')
_A29 = _K28,


def _f30(receiver, context, engine):
    return _r.call('string', receiver, context, engine, _A29)


_L31 = _r.lazy(_f30, True)
_M32 = _r.fast.MethodCall('string', _L31, _A29, True, ())
_C35 = _r.fast.MuranoObject
_C39 = _r.fast.SCALARS
# Hello.yaml:44  - $.record(format('template "{0}" loaded', $template))
_K42 = _r.constant('template "{0}" loaded')


def _f43(receiver, context, engine):
    return _r.fast.variable(context, '$template')


_L44 = _r.lazy(_f43, False)
_A45 = _K42, _L44


def _f46(receiver, context, engine):
    return (f'template "{_t41}" loaded' if type((_t41 := _r.fast.variable(
        context, '$template'))) is int and -1000000000000000000 < _t41 < 
        1000000000000000000 or type(_t41) is str and len(_t41) < 64 else _r
        .fast.format_string(context, engine, 'template "{0}" loaded', _t41)
        ) if receiver is _r.fast.NO_VALUE else _r.call('format', receiver,
        context, engine, _A45)


def _i48(item, context, engine):
    _t47 = _r.fast.variable(context, '$template')
    return f'template "{_t47}" loaded' if type(_t47
        ) is int and -1000000000000000000 < _t47 < 1000000000000000000 or type(
        _t47) is str and len(_t47) < 64 else _r.fast.format_string(context,
        engine, 'template "{0}" loaded', _t47)


_L49 = _r.lazy(_f46, True, _i48)
_A50 = _L49,


def _f51(receiver, context, engine):
    return _r.call('record', receiver, context, engine, _A50)


_L52 = _r.lazy(_f51, True)
_M53 = _r.fast.MethodCall('record', _L52, _A50, True, ())
# Hello.yaml:46  In: $.people
_P56 = _r.fast.PropertyRead('people', False)
_C59 = _r.fast.INLINE_LOWER_BOUND
_C60 = _r.fast.INLINE_BOUND
_C61 = _r.fast.SHORT_SIZED
_C62 = _r.fast.SHORT
_C63 = _r.fast.ALWAYS_SMALL
# Hello.yaml:45  - For: person
_C65 = _r.fast.EMPTY_TUPLE
# Hello.yaml:49  - If: $person in $.skip
_P67 = _r.fast.PropertyRead('skip', False)
# Hello.yaml:53  - $text: format($template, greeting => $.greeting, name => $person,
_K72 = _r.keyword('greeting')
_P73 = _r.fast.PropertyRead('greeting', False)


def _f74(receiver, context, engine):
    return _P73(_r.fast.variable(context, '$1'), context, engine)


_L75 = _r.lazy(_f74, False)
_R76 = _r.rule(_K72, _L75)
_K77 = _r.keyword('name')


def _f78(receiver, context, engine):
    return _r.fast.variable(context, '$person')


_L79 = _r.lazy(_f78, False)
_R80 = _r.rule(_K77, _L79)
_K81 = _r.keyword('punctuation')
_P82 = _r.fast.PropertyRead('punctuation', False)


def _f83(receiver, context, engine):
    return _P82(_r.fast.variable(context, '$1'), context, engine)


_L84 = _r.lazy(_f83, False)
_R85 = _r.rule(_K81, _L84)
_A86 = _L44, _R76, _R80, _R85
# Hello.yaml:55  - $.greetings: $.greetings + list(new(Greeting, $this, person => $person, text => $text))
_P89 = _r.fast.PropertyRead('greetings', False)
_K92 = _r.keyword('Greeting')


def _f93(receiver, context, engine):
    return _r.fast.variable(context, '$this')


_L94 = _r.lazy(_f93, False)
_K95 = _r.keyword('person')
_R98 = _r.rule(_K95, _L79)
_K99 = _r.keyword('text')


def _f100(receiver, context, engine):
    return _r.fast.variable(context, '$text')


_L101 = _r.lazy(_f100, False)
_R102 = _r.rule(_K99, _L101)
_A103 = _K92, _L94, _R98, _R102


def _f104(receiver, context, engine):
    return _r.call('new', receiver, context, engine, _A103)


_L105 = _r.lazy(_f104, True)
_A106 = _L105,
# Hello.yaml:56  - $.record(format('greeted {0}', $person))
_K112 = _r.constant('greeted {0}')
_A115 = _K112, _L79


def _f116(receiver, context, engine):
    return (f'greeted {_t111}' if type((_t111 := _r.fast.variable(context,
        '$person'))) is int and -1000000000000000000 < _t111 < 
        1000000000000000000 or type(_t111) is str and len(_t111) < 64 else
        _r.fast.format_string(context, engine, 'greeted {0}', _t111)
        ) if receiver is _r.fast.NO_VALUE else _r.call('format', receiver,
        context, engine, _A115)


def _i118(item, context, engine):
    _t117 = _r.fast.variable(context, '$person')
    return f'greeted {_t117}' if type(_t117
        ) is int and -1000000000000000000 < _t117 < 1000000000000000000 or type(
        _t117) is str and len(_t117) < 64 else _r.fast.format_string(context,
        engine, 'greeted {0}', _t117)


_L119 = _r.lazy(_f116, True, _i118)
_A120 = _L119,


def _f121(receiver, context, engine):
    return _r.call('record', receiver, context, engine, _A120)


_L122 = _r.lazy(_f121, True)
_M123 = _r.fast.MethodCall('record', _L122, _A120, True, ())
# Hello.yaml:61  - $.record($skipped.message)
_P126 = _r.fast.PropertyRead('message', False)


def _f127(receiver, context, engine):
    return _P126(_r.fast.variable(context, '$skipped'), context, engine)


_P128 = _r.fast.PropertyRead('message', False)
_C131 = _r.fast.FrozenDict


def _i133(item, context, engine):
    _t129 = _r.fast.variable(context, '$skipped')
    return _t130 if type(_t129) is _C131 and ((_t132 := type((_t130 :=
        _t129._d['message']))) is int and _C59 < _t130 < _C60 or _t132 in
        _C61 and len(_t130) < _C62 or _t132 in _C63) else _P128(_t129,
        context, engine)


_L134 = _r.lazy(_f127, False, _i133)
_A135 = _L134,


def _f136(receiver, context, engine):
    return _r.call('record', receiver, context, engine, _A135)


_L137 = _r.lazy(_f136, True)
_M138 = _r.fast.MethodCall('record', _L137, _A135, True, ())
_P140 = _r.fast.PropertyRead('message', False)
# Hello.yaml:62  - $.record(format('{0} of {1} greeted', len($.greetings), len($.people)))
_P143 = _r.fast.PropertyRead('greetings', False)
_P144 = _r.fast.PropertyRead('greetings', False)


def _f145(receiver, context, engine):
    return _P144(_r.fast.variable(context, '$1'), context, engine)


_L146 = _r.lazy(_f145, False)
_A147 = _L146,
_P148 = _r.fast.PropertyRead('people', False)
_P149 = _r.fast.PropertyRead('people', False)


def _f150(receiver, context, engine):
    return _P149(_r.fast.variable(context, '$1'), context, engine)


_L151 = _r.lazy(_f150, False)
_A152 = _L151,
_K155 = _r.constant('{0} of {1} greeted')
_P156 = _r.fast.PropertyRead('greetings', False)
_P157 = _r.fast.PropertyRead('greetings', False)


def _f158(receiver, context, engine):
    return _P157(_r.fast.variable(context, '$1'), context, engine)


_L159 = _r.lazy(_f158, False)
_A160 = _L159,


def _f161(receiver, context, engine):
    return _r.fast.length(_P156(_r.fast.variable(context, '$1'), context,
        engine), context, engine) if receiver is _r.fast.NO_VALUE else _r.call(
        'len', receiver, context, engine, _A160)


_L162 = _r.lazy(_f161, True)
_P163 = _r.fast.PropertyRead('people', False)
_P164 = _r.fast.PropertyRead('people', False)


def _f165(receiver, context, engine):
    return _P164(_r.fast.variable(context, '$1'), context, engine)


_L166 = _r.lazy(_f165, False)
_A167 = _L166,


def _f168(receiver, context, engine):
    return _r.fast.length(_P163(_r.fast.variable(context, '$1'), context,
        engine), context, engine) if receiver is _r.fast.NO_VALUE else _r.call(
        'len', receiver, context, engine, _A167)


_L169 = _r.lazy(_f168, True)
_A170 = _K155, _L162, _L169


def _f171(receiver, context, engine):
    return (f'{_t153} of {_t154} greeted' if (type((_t153 := _r.fast.length
        (_P143(_r.fast.variable(context, '$1'), context, engine), context,
        engine) if receiver is _r.fast.NO_VALUE else _r.call('len',
        receiver, context, engine, _A147))) is int and -1000000000000000000 <
        _t153 < 1000000000000000000 or type(_t153) is str and len(_t153) < 
        64) & (type((_t154 := _r.fast.length(_P148(_r.fast.variable(context,
        '$1'), context, engine), context, engine) if receiver is _r.fast.
        NO_VALUE else _r.call('len', receiver, context, engine, _A152))) is
        int and -1000000000000000000 < _t154 < 1000000000000000000 or type(
        _t154) is str and len(_t154) < 64) else _r.fast.format_string(
        context, engine, '{0} of {1} greeted', _t153, _t154)
        ) if receiver is _r.fast.NO_VALUE else _r.call('format', receiver,
        context, engine, _A170)


_P172 = _r.fast.PropertyRead('greetings', False)
_P175 = _r.fast.PropertyRead('people', False)


def _i180(item, context, engine):
    _t178 = _r.fast.length(_t173 if type(item) is _C131 and ((_t174 := type
        ((_t173 := item._d['greetings']))) is int and _C59 < _t173 < _C60 or
        _t174 in _C61 and len(_t173) < _C62 or _t174 in _C63) else _P172(
        item, context, engine), context, engine)
    return f'{_t178} of {_t179} greeted' if (type(_t178) is int and 
        -1000000000000000000 < _t178 < 1000000000000000000 or type(_t178) is
        str and len(_t178) < 64) & (type((_t179 := _r.fast.length(_t176 if 
        type(item) is _C131 and ((_t177 := type((_t176 := item._d['people']
        ))) is int and _C59 < _t176 < _C60 or _t177 in _C61 and len(_t176) <
        _C62 or _t177 in _C63) else _P175(item, context, engine), context,
        engine))) is int and -1000000000000000000 < _t179 < 
        1000000000000000000 or type(_t179) is str and len(_t179) < 64
        ) else _r.fast.format_string(context, engine, '{0} of {1} greeted',
        _t178, _t179)


_L181 = _r.lazy(_f171, True, _i180)
_A182 = _L181,


def _f183(receiver, context, engine):
    return _r.call('record', receiver, context, engine, _A182)


_L184 = _r.lazy(_f183, True)
_M185 = _r.fast.MethodCall('record', _L184, _A182, True, ())
_P187 = _r.fast.PropertyRead('greetings', False)
_P190 = _r.fast.PropertyRead('people', False)
# Hello.yaml:63  - Return: $.greetings.select($.text)
_P195 = _r.fast.PropertyRead('text', False)


def _f196(receiver, context, engine):
    return _P195(_r.fast.variable(context, '$1'), context, engine)


_P197 = _r.fast.PropertyRead('text', False)


def _i200(item, context, engine):
    return _t198 if type(item) is _C131 and ((_t199 := type((_t198 := item.
        _d['text']))) is int and _C59 < _t198 < _C60 or _t199 in _C61 and 
        len(_t198) < _C62 or _t199 in _C63) else _P197(item, context, engine)


_L201 = _r.lazy(_f196, False, _i200)
_A202 = _L201,


def _f203(receiver, context, engine):
    return _r.call('select', receiver, context, engine, _A202)


_L204 = _r.lazy(_f203, True)
_M205 = _r.fast.MethodCall('select', _L204, _A202, True, ())
_P207 = _r.fast.PropertyRead('text', False)
_C211 = _r.fast.KEPT
_C212 = _r.fast.finalize


def _s213(items, context, engine):
    _call_context = None
    _t206 = []
    for item in items:
        _t210 = _t208 if type(item) is _C131 and ((_t209 := type((_t208 :=
            item._d['text']))) is int and _C59 < _t208 < _C60 or _t209 in
            _C61 and len(_t208) < _C62 or _t209 in _C63) else _P207(item, 
            _call_context if _call_context is not None else (_call_context :=
            _C22(context)), engine)
        _t206.append(_t210 if type(_t210) in _C211 or type(_t210) is _C131 and
            getattr(_t210, '_mplc_final', False) else _C212(_t210))
    return tuple(_t206)


_P214 = _r.fast.PropertyRead('greetings', False)
_C219 = _r.fast.QUOTA_FREE
_C220 = _r.fast.quota


# Hello.yaml:40  deploy:
def _body223(context, this=None, caller=None, caller_engine=None):
    if caller is None:
        _variables = context._data
        _v40 = _variables.get('$template')
        _v54 = _variables.get('$1')
        _v66 = _variables.get('$person')
        _v88 = _variables.get('$text')
        _v141 = _variables.get('$skipped')
        _call_context = context
    else:
        if this.destroyed or (_t222 := type(caller)
            ) is not dict and _t222 is not _C19 or _C20:
            return _r.fast.enter_slowly(context, this, caller, caller_engine)
        this = this.real_this
        _variables = {'$this': this, '$1': this, _C17: context}
        context = _variables
        _call_context = None
        _v40 = None
        _v54 = this
        _v66 = None
        _v88 = None
        _v141 = None
    receiver = _C23
    engine = _ENGINE
    try:
        # Hello.yaml:43  - $template: new(sys:Resources).string('greeting.txt').trim()
        if _call_context is None:
            _call_context = _C22(context)
        _t33 = _r.fast.new_object(_call_context, engine, _r.type_reference(
            _call_context, 'io.murano.system.Resources'))
        _t36 = _d34(_t33, context, engine, 'greeting.txt') if type(_t33
            ) is _C35 and (_d34 := _t33.type.call_sites.get(_M32)
            ) is not None else _M32(_t33, _call_context if _call_context is not
            None else (_call_context := _C22(context)), engine)
        _t38 = _d37(_t36, context, engine) if type(_t36) is _C35 and (_d37 :=
            _t36.type.call_sites.get(_M27)) is not None else _M27(_t36, 
            _call_context if _call_context is not None else (_call_context :=
            _C22(context)), engine)
        _v40 = _variables['$template'] = _t38 if type(_t38
            ) in _C39 else _r.result(_t38)
        # Hello.yaml:44  - $.record(format('template "{0}" loaded', $template))
        _d55 = _v54.type.call_sites.get(_M53)
        _r.result(_d55(_v54, context, engine, f'template "{_v40}" loaded' if
            type(_v40) is int and -1000000000000000000 < _v40 < 
            1000000000000000000 or type(_v40) is str and len(_v40) < 64 else
            _r.fast.format_string(context, engine, 'template "{0}" loaded',
            _v40)) if _d55 is not None else _M53(_v54, _call_context, engine))
        # Hello.yaml:45  - For: person
        _t64 = _t57 if _P56 in _v54.type.self_reads and _v54.this is None and (
            (_t58 := type((_t57 := _v54.properties.get('people', _C23)))) is
            int and _C59 < _t57 < _C60 or _t58 in _C61 and len(_t57) < _C62 or
            _t58 in _C63) else _P56(_v54, _call_context, engine)
        for _item142 in (_t64 if _t64 is _C65 else _r.fast.collection(_t64)):
            _v66 = _variables['$person'] = _item142
            # Hello.yaml:48  - Try:
            try:
                # Hello.yaml:49  - If: $person in $.skip
                if _r.fast.contains(_v66, _t68 if _P67 in _v54.type.
                    self_reads and _v54.this is None and ((_t69 := type((
                    _t68 := _v54.properties.get('skip', _C23)))) is int and
                    _C59 < _t68 < _C60 or _t69 in _C61 and len(_t68) < _C62 or
                    _t69 in _C63) else _P67(_v54, _call_context, engine),
                    context, engine):
                    # Hello.yaml:51  - Throw: SkippedPerson
                    raise _r.throw(_call_context, cause=None, names=(
                        'SkippedPerson',), message=_r.result(
                        f'{_v66} asked not to be greeted' if type(_v66) is
                        int and -1000000000000000000 < _v66 < 
                        1000000000000000000 or type(_v66) is str and len(
                        _v66) < 64 else _r.fast.format_string(context,
                        engine, '{0} asked not to be greeted', _v66)),
                        extra=None)
                # Hello.yaml:53  - $text: format($template, greeting => $.greeting, name => $person,
                _t87 = _r.call('format', receiver, _call_context, engine, _A86)
                _v88 = _variables['$text'] = _t87 if type(_t87
                    ) in _C39 else _r.result(_t87)
                # Hello.yaml:55  - $.greetings: $.greetings + list(new(Greeting, $this, person => $person, text => $text))
                _t107 = (_t90 if _P89 in _v54.type.self_reads and _v54.this is
                    None and ((_t91 := type((_t90 := _v54.properties.get(
                    'greetings', _C23)))) is int and _C59 < _t90 < _C60 or 
                    _t91 in _C61 and len(_t90) < _C62 or _t91 in _C63) else
                    _P89(_v54, _call_context, engine))
                _r.assign(_call_context, _T11, _t109 if (type(_t107) is int
                    ) & (type((_t108 := _r.call('list', receiver,
                    _call_context, engine, _A106))) is int) and _C59 < (
                    _t109 := _t107 + _t108) < _C60 else _r.result(_r.fast.
                    add(_t107, _t108, context, engine)))
                _v54 = _variables.get('$1')
                # Hello.yaml:56  - $.record(format('greeted {0}', $person))
                _d124 = _v54.type.call_sites.get(_M123)
                _r.result(_d124(_v54, context, engine, f'greeted {_v66}' if
                    type(_v66) is int and -1000000000000000000 < _v66 < 
                    1000000000000000000 or type(_v66) is str and len(_v66) <
                    64 else _r.fast.format_string(context, engine,
                    'greeted {0}', _v66)) if _d124 is not None else _M123(
                    _v54, _call_context, engine))
            except Exception as _exception125:
                # Hello.yaml:58  - With: SkippedPerson
                if _r.catch_matches(_exception125, ('SkippedPerson',),
                    _call_context):
                    _v141 = _variables['$skipped'] = _r.exception_value(
                        _exception125)
                    # Hello.yaml:61  - $.record($skipped.message)
                    _d139 = _v54.type.call_sites.get(_M138)
                    _r.result(_d139(_v54, context, engine, _P140(_v141,
                        _call_context, engine)) if _d139 is not None else
                        _M138(_v54, _call_context, engine))
                else:
                    # Hello.yaml:48  - Try:
                    raise
        # Hello.yaml:62  - $.record(format('{0} of {1} greeted', len($.greetings), len($.people)))
        _d186 = _v54.type.call_sites.get(_M185)
        _r.result(_d186(_v54, context, engine, 
            f'{_t193} of {_t194} greeted' if (type((_t193 := _r.fast.length
            (_t188 if _P187 in _v54.type.self_reads and _v54.this is None and
            ((_t189 := type((_t188 := _v54.properties.get('greetings', _C23
            )))) is int and _C59 < _t188 < _C60 or _t189 in _C61 and len(
            _t188) < _C62 or _t189 in _C63) else _P187(_v54, _call_context,
            engine), context, engine))) is int and -1000000000000000000 <
            _t193 < 1000000000000000000 or type(_t193) is str and len(_t193
            ) < 64) & (type((_t194 := _r.fast.length(_t191 if _P190 in _v54
            .type.self_reads and _v54.this is None and ((_t192 := type((
            _t191 := _v54.properties.get('people', _C23)))) is int and _C59 <
            _t191 < _C60 or _t192 in _C61 and len(_t191) < _C62 or _t192 in
            _C63) else _P190(_v54, _call_context, engine), context, engine)
            )) is int and -1000000000000000000 < _t194 < 
            1000000000000000000 or type(_t194) is str and len(_t194) < 64) else
            _r.fast.format_string(context, engine, '{0} of {1} greeted',
            _t193, _t194)) if _d186 is not None else _M185(_v54,
            _call_context, engine))
        # Hello.yaml:63  - Return: $.greetings.select($.text)
        _t217 = _r.fast.selected_result(_t215 if _P214 in _v54.type.
            self_reads and _v54.this is None and ((_t216 := type((_t215 :=
            _v54.properties.get('greetings', _C23)))) is int and _C59 <
            _t215 < _C60 or _t216 in _C61 and len(_t215) < _C62 or _t216 in
            _C63) else _P214(_v54, _call_context, engine), _M205, _s213,
            context, engine)
        return _t217 if caller is None or ((_t218 := type(_t217)) is int and
            _C59 < _t217 < _C60 or _t218 in _C219) else _C220(caller_engine,
            _t217)
    except _C15:
        # Hello.yaml:40  deploy:
        raise
    except Exception as _error221:
        raise _C16(_error221, _error221.__traceback__) from None


# Hello.yaml:70  - $.steps: $.steps + list($step)
_P225 = _r.fast.PropertyRead('steps', False)


def _f229(receiver, context, engine):
    return _r.fast.variable(context, '$step')


_L230 = _r.lazy(_f229, False)
_A231 = _L230,


# Hello.yaml:65  record:
def _body239(context, this=None, caller=None, caller_engine=None, _v237=None):
    if caller is None:
        _variables = context._data
        _v226 = _variables.get('$1')
        _v237 = _variables.get('$step')
        _call_context = context
    else:
        if type(_v237) is not str or this.destroyed or (_t238 := type(caller)
            ) is not dict and _t238 is not _C19 or _C20:
            return _r.fast.enter_slowly(context, this, caller,
                caller_engine, _v237)
        this = this.real_this
        _variables = {'$this': this, '$1': this, '$step': _v237, _C17: context}
        context = _variables
        _call_context = None
        _v226 = this
    receiver = _C23
    engine = _ENGINE
    try:
        # Hello.yaml:70  - $.steps: $.steps + list($step)
        if _call_context is None:
            _call_context = _C22(context)
        _t232 = (_t227 if _P225 in _v226.type.self_reads and _v226.this is
            None and ((_t228 := type((_t227 := _v226.properties.get('steps',
            _C23)))) is int and _C59 < _t227 < _C60 or _t228 in _C61 and 
            len(_t227) < _C62 or _t228 in _C63) else _P225(_v226,
            _call_context, engine))
        _r.assign(_call_context, _T13, _t234 if (type(_t232) is int) & (
            type((_t233 := _r.call('list', receiver, _call_context, engine,
            _A231))) is int) and _C59 < (_t234 := _t232 + _t233) < _C60 else
            _r.result(_r.fast.add(_t232, _t233, context, engine)))
        _v226 = _variables.get('$1')
    except _C15:
        # Hello.yaml:65  record:
        raise
    except Exception as _error236:
        raise _C16(_error236, _error236.__traceback__) from None


# Hello.yaml:1  Namespaces:
_INSTRUCTIONS = {(37, 8): (None, None, None, 37, 8), (38, 8):
    (None, None, None, 38, 8), (43, 8):
    ("new(sys:Resources).string('greeting.txt').trim()", 43, 20, 43, 8),
    (43, 19):
    ("new(sys:Resources).string('greeting.txt').trim()", 43, 20, 43, 67),
    (44, 8):
    ('$.record(format(\'template "{0}" loaded\', $template))', 44, 9, 44, 60),
    (45, 8): ('$.people', 46, 13, 45, 8), (46, 12):
    ('$.people', 46, 13, 46, 20), (48, 12):
    ('block construct', 48, 13, 48, 12), (49, 16):
    ('$person in $.skip', 49, 21, 49, 16), (49, 20):
    ('$person in $.skip', 49, 21, 49, 37), (51, 20):
    ('block construct', 51, 21, 51, 20), (52, 29):
    ("format('{0} asked not to be greeted', $person)", 52, 30, 52, 75),
    (53, 16):
    ('format($template, greeting => $.greeting, name => $person, punctuation => $.punctuation)', 53, 24, 53, 16)
    , (53, 23):
    ('format($template, greeting => $.greeting, name => $person, punctuation => $.punctuation)', 53, 24, 54, 59)
    , (55, 16):
    ('$.greetings + list(new(Greeting, $this, person => $person, text => $text))', 55, 30, 55, 16)
    , (55, 29):
    ('$.greetings + list(new(Greeting, $this, person => $person, text => $text))', 55, 30, 55, 103)
    , (56, 16):
    ("$.record(format('greeted {0}', $person))", 56, 17, 56, 56), (58, 16):
    ("$.record(format('greeted {0}', $person))", 56, 17, 58, 16), (61, 20):
    ('$.record($skipped.message)', 61, 21, 61, 46), (62, 8):
    ("$.record(format('{0} of {1} greeted', len($.greetings), len($.people)))", 62, 9, 62, 79)
    , (63, 8): ('$.greetings.select($.text)', 63, 17, 63, 8), (63, 16):
    ('$.greetings.select($.text)', 63, 17, 63, 42), (70, 8):
    ('$.steps + list($step)', 70, 18, 70, 8), (70, 17):
    ('$.steps + list($step)', 70, 18, 70, 38)}
CLASS = _r.ClassSpec(name='com.example.Hello', package=None, extends=(
    'io.murano.Application',), namespaces={'=': 'com.example', 'std':
    'io.murano', 'sys': 'io.murano.system'}, usage='Class', cardinality=
    None, applies=(), inherited=False, meta=(), imports=(), properties={
    'greeting': _r.PropertySpec('greeting', usage='In', contract=_contract1,
    loads_objects=False, value_only=True, default=_r.constant_default(
    'Hello'), has_default=True, meta=(), line=11), 'people': _r.
    PropertySpec('people', usage='In', contract=_contract2, loads_objects=
    False, value_only=True, default=None, has_default=False, meta=(), line=
    15), 'skip': _r.PropertySpec('skip', usage='In', contract=_contract3,
    loads_objects=False, value_only=True, default=_r.constant_default(_r.
    freeze_list([])), has_default=True, meta=(), line=18), 'punctuation':
    _r.PropertySpec('punctuation', usage='In', contract=_contract4,
    loads_objects=False, value_only=False, default=_r.constant_default('!'),
    has_default=True, meta=(), line=22), 'greetings': _r.PropertySpec(
    'greetings', usage='Out', contract=_contract9, loads_objects=True,
    value_only=True, default=None, has_default=False, meta=(), line=26),
    'steps': _r.PropertySpec('steps', usage='Out', contract=_contract10,
    loads_objects=False, value_only=True, default=None, has_default=False,
    meta=(), line=30)}, methods={'.init': _r.MethodSpec('.init', usage=
    'Runtime', scope='Session', arguments=(), body=_body21, meta=(), line=
    35, direct_entry=True, local_variables=('_v12',), variable_names=
    ('$1',)), 'deploy': _r.MethodSpec('deploy', usage='Runtime', scope=
    'Public', arguments=(), body=_body223, meta=(), line=40, direct_entry=
    True, local_variables=('_v40', '_v54', '_v66', '_v88', '_v141'),
    variable_names=('$template', '$1', '$person', '$text', '$skipped')),
    'record': _r.MethodSpec('record', usage='Runtime', scope='Session',
    arguments=(_r.ArgumentSpec('step', usage='Standard', contract=
    _contract1, loads_objects=False, default=None, has_default=False, meta=
    ()),), body=_body239, meta=(), line=65, direct_entry=True,
    local_variables=('_v226',), variable_names=('$1',))}, source_file=
    '<package>/Classes/Hello.yaml', line=1)
