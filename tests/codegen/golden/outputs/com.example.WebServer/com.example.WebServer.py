# WebServer.yaml:1  Namespaces:
import mplc.runtime as _r
_ENGINE = _r.engine_for('1.4.0')


# WebServer.yaml:13  Contract: $.class(res:LinuxMuranoInstance).notNull()
@_r.contracts.passes_objects(False)
def _contract1(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.class_instance(value, cc,
        'res:LinuxMuranoInstance', None, None)
    value = _r.contracts.not_null(value, cc)
    return _r.contracts.freeze(value)


# WebServer.yaml:15  Contract: $.int().notNull().check($ > 0 and $ < 65536)
def _f3(receiver, context, engine):
    return _r.fast.greater(_r.fast.variable(context, '$1'), 0, context, engine
        ) and _r.fast.less(_r.fast.variable(context, '$1'), 65536, context,
        engine)


def _n4(value, context, engine):
    return (value > 0 if type(value) is int else _r.fast.greater(value, 0,
        context, engine)) and (value < 65536 if type(value) is int else _r.
        fast.less(value, 65536, context, engine))


@_r.contracts.passes_unchanged('int', when=_n4)
def _contract2(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.integer(value, cc)
    value = _r.contracts.not_null(value, cc)
    value = _r.contracts.check(value, cc, _f3, None, _n4)
    return _r.contracts.freeze(value)


# WebServer.yaml:19  - name: $.string().notNull()
@_r.contracts.passes_unchanged('str')
def _contract5_item2(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.string(value, cc)
    value = _r.contracts.not_null(value, cc)
    return _r.contracts.freeze(value)


# WebServer.yaml:20  root: $.string()
@_r.contracts.passes_unchanged('null', 'str')
def _contract5_item3(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.string(value, cc)
    return _r.contracts.freeze(value)


# WebServer.yaml:19  - name: $.string().notNull()
def _contract5_item1(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    return _r.contracts.dict_of(value, cc, (('name', _contract5_item2), (
        'root', _contract5_item3)), None, None, False)


def _contract5(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    return _r.contracts.list_of(value, cc, (_contract5_item1,), 0, None)


# WebServer.yaml:22  Contract: $.bool()
@_r.contracts.passes_unchanged('bool', 'null')
def _contract6(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.boolean(value, cc)
    return _r.contracts.freeze(value)


# WebServer.yaml:28  - $._environment: $.find(std:Environment).require()
_A7 = ()


def _f8(receiver, context, engine):
    return _r.call('require', receiver, context, engine, _A7)


_L9 = _r.lazy(_f8, True)
_M10 = _r.fast.MethodCall('require', _L9, _A7, True, ())


def _f11(receiver, context, engine):
    return _r.type_reference(context, 'io.murano.Environment')


def _i12(item, context, engine):
    return _r.type_reference(context, 'io.murano.Environment')


_L13 = _r.lazy(_f11, False, _i12)
_A14 = _L13,


def _f15(receiver, context, engine):
    return _r.call('find', receiver, context, engine, _A14)


_L16 = _r.lazy(_f15, True)
_M17 = _r.fast.MethodCall('find', _L16, _A14, True, ())
_C20 = _r.fast.MuranoObject
_C24 = _r.fast.SCALARS
_T25 = _r.target(_r.variable('$'), (('attr', '_environment'),),
    '$._environment')
# WebServer.yaml:26  .init:
_C27 = _r.fast.MuranoPlException
_C28 = _r.fast.to_murano_exception
_C29 = _r.fast.METHOD_CONTEXT_KEY
_C31 = _r.fast.CallContext
_C32 = _r.fast.running_parallels
_C34 = _r.fast.as_context
_C35 = _r.fast.NO_VALUE


def _body33(context, this=None, caller=None, caller_engine=None):
    if caller is None:
        _variables = context._data
        _v18 = _variables.get('$1')
        _call_context = context
    else:
        if this.destroyed or (_t30 := type(caller)
            ) is not dict and _t30 is not _C31 or _C32:
            return _r.fast.enter_slowly(context, this, caller, caller_engine)
        this = this.real_this
        _variables = {'$this': this, '$1': this, _C29: context}
        context = _variables
        _call_context = None
        _v18 = this
    receiver = _C35
    engine = _ENGINE
    try:
        # WebServer.yaml:28  - $._environment: $.find(std:Environment).require()
        if _call_context is None:
            _call_context = _C34(context)
        _d19 = _v18.type.call_sites.get(_M17)
        _t21 = _d19(_v18, context, engine, _r.type_reference(_call_context,
            'io.murano.Environment')) if _d19 is not None else _M17(_v18,
            _call_context, engine)
        _t23 = _d22(_t21, context, engine) if type(_t21) is _C20 and (_d22 :=
            _t21.type.call_sites.get(_M10)) is not None else _M10(_t21,
            _call_context, engine)
        _r.assign(_call_context, _T25, _t23 if type(_t23) in _C24 else _r.
            result(_t23))
        _v18 = _variables.get('$1')
    except _C27:
        # WebServer.yaml:26  .init:
        raise
    except Exception as _error26:
        raise _C28(_error26, _error26.__traceback__) from None


# WebServer.yaml:32  - If: not $.getAttr(deployed, false)
def _f36(receiver, context, engine):
    return _r.fast.variable(context, '$1')


_L37 = _r.lazy(_f36, False)
_K38 = _r.keyword('deployed')
_K39 = _r.constant(False)
_A40 = _K38, _K39


def _f41(receiver, context, engine):
    return _r.call('getAttr', receiver, context, engine, _A40)


_L42 = _r.lazy(_f41, True)
_A43 = _L37, _L42


# WebServer.yaml:34  - $._environment.reporter.report($this, 'Creating the instance')
def _f44(receiver, context, engine):
    return _r.fast.variable(context, '$this')


def _i45(item, context, engine):
    return _r.fast.variable(context, '$this')


_L46 = _r.lazy(_f44, False, _i45)
_K47 = _r.constant('Creating the instance')
_A48 = _L46, _K47


def _f49(receiver, context, engine):
    return _r.call('report', receiver, context, engine, _A48)


_L50 = _r.lazy(_f49, True)
_M51 = _r.fast.MethodCall('report', _L50, _A48, True, ())
_P52 = _r.fast.PropertyRead('reporter', False)
_P53 = _r.fast.PropertyRead('_environment', False)
_C57 = _r.fast.INLINE_LOWER_BOUND
_C58 = _r.fast.INLINE_BOUND
_C59 = _r.fast.SHORT_SIZED
_C60 = _r.fast.SHORT
_C61 = _r.fast.ALWAYS_SMALL
# WebServer.yaml:36  - ToPort: $.port
_P65 = _r.fast.PropertyRead('port', False)
# WebServer.yaml:37  FromPort: $.port
_P68 = _r.fast.PropertyRead('port', False)


# WebServer.yaml:40  - $._environment.securityGroupManager.addGroupIngress($securityGroupIngress)
def _f72(receiver, context, engine):
    return _r.fast.variable(context, '$securityGroupIngress')


def _i73(item, context, engine):
    return _r.fast.variable(context, '$securityGroupIngress')


_L74 = _r.lazy(_f72, False, _i73)
_A75 = _L74,


def _f76(receiver, context, engine):
    return _r.call('addGroupIngress', receiver, context, engine, _A75)


_L77 = _r.lazy(_f76, True)
_M78 = _r.fast.MethodCall('addGroupIngress', _L77, _A75, True, ())
_P79 = _r.fast.PropertyRead('securityGroupManager', False)
_P80 = _r.fast.PropertyRead('_environment', False)


# WebServer.yaml:41  - $.instance.deploy()
def _f86(receiver, context, engine):
    return _r.call('deploy', receiver, context, engine, _A7)


_L87 = _r.lazy(_f86, True)
_M88 = _r.fast.MethodCall('deploy', _L87, _A7, True, ())
_P89 = _r.fast.PropertyRead('instance', False)
# WebServer.yaml:43  - $template: $resources.yaml('Deploy.template').bind(dict(
_P96 = _r.fast.PropertyRead('port', False)
_P98 = _r.fast.PropertyRead('name', False)
_P100 = _r.fast.PropertyRead('root', False)


def _f101(receiver, context, engine):
    return _P100(_r.fast.variable(context, '$1'), context, engine)


_L102 = _r.lazy(_f101, False)
_P103 = _r.fast.PropertyRead('name', False)


def _f104(receiver, context, engine):
    return _r.fast.add('/var/www/', _P103(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L105 = _r.lazy(_f104, False)
_A106 = _L102, _L105
_K108 = _r.keyword('name')
_P109 = _r.fast.PropertyRead('name', False)


def _f110(receiver, context, engine):
    return _P109(_r.fast.variable(context, '$1'), context, engine)


_L111 = _r.lazy(_f110, False)
_R112 = _r.rule(_K108, _L111)
_K113 = _r.keyword('root')
_P114 = _r.fast.PropertyRead('root', False)


def _f115(receiver, context, engine):
    return _P114(_r.fast.variable(context, '$1'), context, engine)


_L116 = _r.lazy(_f115, False)
_P117 = _r.fast.PropertyRead('name', False)


def _f118(receiver, context, engine):
    return _r.fast.add('/var/www/', _P117(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L119 = _r.lazy(_f118, False)
_A120 = _L116, _L119


def _f121(receiver, context, engine):
    return _r.call('coalesce', receiver, context, engine, _A120)


_L122 = _r.lazy(_f121, True)
_R123 = _r.rule(_K113, _L122)
_A124 = _R112, _R123


def _f125(receiver, context, engine):
    return _r.fast.final_dict({'name': (_t99 := _P98(_r.fast.variable(
        context, '$1'), context, engine)), 'root': (_t107 := _r.call(
        'coalesce', receiver, context, engine, _A106))}, _t99, _t107
        ) if receiver is _r.fast.NO_VALUE else _r.call('dict', receiver,
        context, engine, _A124)


_L126 = _r.lazy(_f125, True)
_A127 = _L126,


def _f128(receiver, context, engine):
    return _r.call('select', receiver, context, engine, _A127)


_L129 = _r.lazy(_f128, True)
_M130 = _r.fast.MethodCall('select', _L129, _A127, True, ())
_P131 = _r.fast.PropertyRead('sites', False)
_K133 = _r.keyword('port')
_P134 = _r.fast.PropertyRead('port', False)


def _f135(receiver, context, engine):
    return _P134(_r.fast.variable(context, '$1'), context, engine)


_L136 = _r.lazy(_f135, False)
_R137 = _r.rule(_K133, _L136)
_K138 = _r.keyword('sites')
_P139 = _r.fast.PropertyRead('name', False)
_P141 = _r.fast.PropertyRead('root', False)


def _f142(receiver, context, engine):
    return _P141(_r.fast.variable(context, '$1'), context, engine)


_L143 = _r.lazy(_f142, False)
_P144 = _r.fast.PropertyRead('name', False)


def _f145(receiver, context, engine):
    return _r.fast.add('/var/www/', _P144(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L146 = _r.lazy(_f145, False)
_A147 = _L143, _L146
_P149 = _r.fast.PropertyRead('name', False)


def _f150(receiver, context, engine):
    return _P149(_r.fast.variable(context, '$1'), context, engine)


_L151 = _r.lazy(_f150, False)
_R152 = _r.rule(_K108, _L151)
_P153 = _r.fast.PropertyRead('root', False)


def _f154(receiver, context, engine):
    return _P153(_r.fast.variable(context, '$1'), context, engine)


_L155 = _r.lazy(_f154, False)
_P156 = _r.fast.PropertyRead('name', False)


def _f157(receiver, context, engine):
    return _r.fast.add('/var/www/', _P156(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L158 = _r.lazy(_f157, False)
_A159 = _L155, _L158


def _f160(receiver, context, engine):
    return _r.call('coalesce', receiver, context, engine, _A159)


_L161 = _r.lazy(_f160, True)
_R162 = _r.rule(_K113, _L161)
_A163 = _R152, _R162


def _f164(receiver, context, engine):
    return _r.fast.final_dict({'name': (_t140 := _P139(_r.fast.variable(
        context, '$1'), context, engine)), 'root': (_t148 := _r.call(
        'coalesce', receiver, context, engine, _A147))}, _t140, _t148
        ) if receiver is _r.fast.NO_VALUE else _r.call('dict', receiver,
        context, engine, _A163)


_L165 = _r.lazy(_f164, True)
_A166 = _L165,


def _f167(receiver, context, engine):
    return _r.call('select', receiver, context, engine, _A166)


_L168 = _r.lazy(_f167, True)
_M169 = _r.fast.MethodCall('select', _L168, _A166, True, ())
_P170 = _r.fast.PropertyRead('sites', False)


def _f171(receiver, context, engine):
    return _M169(_P170(_r.fast.variable(context, '$1'), context, engine),
        context, engine)


_L172 = _r.lazy(_f171, False)
_R173 = _r.rule(_K138, _L172)
_A174 = _R137, _R173


def _f175(receiver, context, engine):
    return _r.fast.final_dict({'port': (_t97 := _P96(_r.fast.variable(
        context, '$1'), context, engine)), 'sites': (_t132 := _M130(_P131(
        _r.fast.variable(context, '$1'), context, engine), context, engine)
        )}, _t97, _t132) if receiver is _r.fast.NO_VALUE else _r.call('dict',
        receiver, context, engine, _A174)


_L176 = _r.lazy(_f175, True)
_A177 = _L176,


def _f178(receiver, context, engine):
    return _r.call('bind', receiver, context, engine, _A177)


_L179 = _r.lazy(_f178, True)
_M180 = _r.fast.MethodCall('bind', _L179, _A177, True, ('select',))
_K181 = _r.constant('Deploy.template')
_A182 = _K181,


def _f183(receiver, context, engine):
    return _r.call('yaml', receiver, context, engine, _A182)


_L184 = _r.lazy(_f183, True)
_M185 = _r.fast.MethodCall('yaml', _L184, _A182, True, ())
_P189 = _r.fast.PropertyRead('port', False)
_P193 = _r.fast.PropertyRead('name', False)
_P195 = _r.fast.PropertyRead('root', False)


def _f196(receiver, context, engine):
    return _P195(_r.fast.variable(context, '$1'), context, engine)


_L197 = _r.lazy(_f196, False)
_P198 = _r.fast.PropertyRead('name', False)


def _f199(receiver, context, engine):
    return _r.fast.add('/var/www/', _P198(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L200 = _r.lazy(_f199, False)
_A201 = _L197, _L200
_P203 = _r.fast.PropertyRead('name', False)


def _f204(receiver, context, engine):
    return _P203(_r.fast.variable(context, '$1'), context, engine)


_L205 = _r.lazy(_f204, False)
_R206 = _r.rule(_K108, _L205)
_P207 = _r.fast.PropertyRead('root', False)


def _f208(receiver, context, engine):
    return _P207(_r.fast.variable(context, '$1'), context, engine)


_L209 = _r.lazy(_f208, False)
_P210 = _r.fast.PropertyRead('name', False)


def _f211(receiver, context, engine):
    return _r.fast.add('/var/www/', _P210(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L212 = _r.lazy(_f211, False)
_A213 = _L209, _L212


def _f214(receiver, context, engine):
    return _r.call('coalesce', receiver, context, engine, _A213)


_L215 = _r.lazy(_f214, True)
_R216 = _r.rule(_K113, _L215)
_A217 = _R206, _R216


def _f218(receiver, context, engine):
    return _r.fast.final_dict({'name': (_t194 := _P193(_r.fast.variable(
        context, '$1'), context, engine)), 'root': (_t202 := _r.call(
        'coalesce', receiver, context, engine, _A201))}, _t194, _t202
        ) if receiver is _r.fast.NO_VALUE else _r.call('dict', receiver,
        context, engine, _A217)


_L219 = _r.lazy(_f218, True)
_A220 = _L219,


def _f221(receiver, context, engine):
    return _r.call('select', receiver, context, engine, _A220)


_L222 = _r.lazy(_f221, True)
_M223 = _r.fast.MethodCall('select', _L222, _A220, True, ())
_P224 = _r.fast.PropertyRead('sites', False)
_P229 = _r.fast.PropertyRead('name', False)
_P233 = _r.fast.PropertyRead('root', False)


def _f234(receiver, context, engine):
    return _P233(_r.fast.variable(context, '$1'), context, engine)


_L235 = _r.lazy(_f234, False)
_P236 = _r.fast.PropertyRead('name', False)


def _f237(receiver, context, engine):
    return _r.fast.add('/var/www/', _P236(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L238 = _r.lazy(_f237, False)
_A239 = _L235, _L238


# WebServer.yaml:47  - $.instance.agent.call($template, $resources)
def _f244(receiver, context, engine):
    return _r.fast.variable(context, '$template')


def _i245(item, context, engine):
    return _r.fast.variable(context, '$template')


_L246 = _r.lazy(_f244, False, _i245)


def _f247(receiver, context, engine):
    return _r.fast.variable(context, '$resources')


def _i248(item, context, engine):
    return _r.fast.variable(context, '$resources')


_L249 = _r.lazy(_f247, False, _i248)
_A250 = _L246, _L249


def _f251(receiver, context, engine):
    return _r.call('call', receiver, context, engine, _A250)


_L252 = _r.lazy(_f251, True)
_M253 = _r.fast.MethodCall('call', _L252, _A250, True, ())
_P254 = _r.fast.PropertyRead('agent', False)
_P255 = _r.fast.PropertyRead('instance', False)
# WebServer.yaml:51  - $._environment.reporter.report_error($this, format('Deployment failed, {0}', $error.message))
_P264 = _r.fast.PropertyRead('message', False)
_K266 = _r.constant('Deployment failed, {0}')
_P267 = _r.fast.PropertyRead('message', False)


def _f268(receiver, context, engine):
    return _P267(_r.fast.variable(context, '$error'), context, engine)


_L269 = _r.lazy(_f268, False)
_A270 = _K266, _L269


def _f271(receiver, context, engine):
    return (f'Deployment failed, {_t265}' if type((_t265 := _P264(_r.fast.
        variable(context, '$error'), context, engine))) is int and 
        -1000000000000000000 < _t265 < 1000000000000000000 or type(_t265) is
        str and len(_t265) < 64 else _r.fast.format_string(context, engine,
        'Deployment failed, {0}', _t265)
        ) if receiver is _r.fast.NO_VALUE else _r.call('format', receiver,
        context, engine, _A270)


_P272 = _r.fast.PropertyRead('message', False)
_C275 = _r.fast.FrozenDict


def _i278(item, context, engine):
    _t273 = _r.fast.variable(context, '$error')
    _t277 = _t274 if type(_t273) is _C275 and ((_t276 := type((_t274 :=
        _t273._d['message']))) is int and _C57 < _t274 < _C58 or _t276 in
        _C59 and len(_t274) < _C60 or _t276 in _C61) else _P272(_t273,
        context, engine)
    return f'Deployment failed, {_t277}' if type(_t277
        ) is int and -1000000000000000000 < _t277 < 1000000000000000000 or type(
        _t277) is str and len(_t277) < 64 else _r.fast.format_string(context,
        engine, 'Deployment failed, {0}', _t277)


_L279 = _r.lazy(_f271, True, _i278)
_A280 = _L46, _L279


def _f281(receiver, context, engine):
    return _r.call('report_error', receiver, context, engine, _A280)


_L282 = _r.lazy(_f281, True)
_M283 = _r.fast.MethodCall('report_error', _L282, _A280, True, ())
_P284 = _r.fast.PropertyRead('reporter', False)
_P285 = _r.fast.PropertyRead('_environment', False)
_P290 = _r.fast.PropertyRead('message', False)


# WebServer.yaml:53  - $address: $.instance.ipAddresses.first()
def _f294(receiver, context, engine):
    return _r.call('first', receiver, context, engine, _A7)


_L295 = _r.lazy(_f294, True)
_M296 = _r.fast.MethodCall('first', _L295, _A7, True, ())
_P297 = _r.fast.PropertyRead('ipAddresses', False)
_P298 = _r.fast.PropertyRead('instance', False)
# WebServer.yaml:54  - $._environment.reporter.report($this, format('Web server is available at http://{0}:{1}', $address, $.port))
_P308 = _r.fast.PropertyRead('port', False)
_K311 = _r.constant('Web server is available at http://{0}:{1}')


def _f312(receiver, context, engine):
    return _r.fast.variable(context, '$address')


_L313 = _r.lazy(_f312, False)
_P314 = _r.fast.PropertyRead('port', False)


def _f315(receiver, context, engine):
    return _P314(_r.fast.variable(context, '$1'), context, engine)


_L316 = _r.lazy(_f315, False)
_A317 = _K311, _L313, _L316


def _f318(receiver, context, engine):
    return (f'Web server is available at http://{_t309}:{_t310}' if (type((
        _t309 := _r.fast.variable(context, '$address'))) is int and 
        -1000000000000000000 < _t309 < 1000000000000000000 or type(_t309) is
        str and len(_t309) < 64) & (type((_t310 := _P308(_r.fast.variable(
        context, '$1'), context, engine))) is int and -1000000000000000000 <
        _t310 < 1000000000000000000 or type(_t310) is str and len(_t310) < 
        64) else _r.fast.format_string(context, engine,
        'Web server is available at http://{0}:{1}', _t309, _t310)
        ) if receiver is _r.fast.NO_VALUE else _r.call('format', receiver,
        context, engine, _A317)


_P319 = _r.fast.PropertyRead('port', False)


def _i324(item, context, engine):
    _t322 = _r.fast.variable(context, '$address')
    return f'Web server is available at http://{_t322}:{_t323}' if (type(
        _t322) is int and -1000000000000000000 < _t322 < 
        1000000000000000000 or type(_t322) is str and len(_t322) < 64) & (
        type((_t323 := _t320 if type(item) is _C275 and ((_t321 := type((
        _t320 := item._d['port']))) is int and _C57 < _t320 < _C58 or _t321 in
        _C59 and len(_t320) < _C60 or _t321 in _C61) else _P319(item,
        context, engine))) is int and -1000000000000000000 < _t323 < 
        1000000000000000000 or type(_t323) is str and len(_t323) < 64
        ) else _r.fast.format_string(context, engine,
        'Web server is available at http://{0}:{1}', _t322, _t323)


_L325 = _r.lazy(_f318, True, _i324)
_A326 = _L46, _L325


def _f327(receiver, context, engine):
    return _r.call('report', receiver, context, engine, _A326)


_L328 = _r.lazy(_f327, True)
_M329 = _r.fast.MethodCall('report', _L328, _A326, True, ())
_P330 = _r.fast.PropertyRead('reporter', False)
_P331 = _r.fast.PropertyRead('_environment', False)
_P336 = _r.fast.PropertyRead('port', False)
# WebServer.yaml:55  - $.setAttr(deployed, true)
_K342 = _r.constant(True)
_A343 = _K38, _K342


def _f344(receiver, context, engine):
    return _r.call('setAttr', receiver, context, engine, _A343)


_L345 = _r.lazy(_f344, True)
_A346 = _L37, _L345
# WebServer.yaml:56  - $.deployed: true
_T347 = _r.target(_r.variable('$'), (('attr', 'deployed'),), '$.deployed')


# WebServer.yaml:30  deploy:
def _body350(context, this=None, caller=None, caller_engine=None):
    if caller is None:
        _variables = context._data
        _v54 = _variables.get('$1')
        _v64 = _variables.get('$this')
        _v71 = _variables.get('$securityGroupIngress')
        _v95 = _variables.get('$resources')
        _v243 = _variables.get('$template')
        _v291 = _variables.get('$error')
        _v304 = _variables.get('$address')
        _call_context = context
    else:
        if this.destroyed or (_t349 := type(caller)
            ) is not dict and _t349 is not _C31 or _C32:
            return _r.fast.enter_slowly(context, this, caller, caller_engine)
        this = this.real_this
        _variables = {'$this': this, '$1': this, _C29: context}
        context = _variables
        _call_context = None
        _v54 = this
        _v64 = this
        _v71 = None
        _v95 = None
        _v243 = None
        _v291 = None
        _v304 = None
    receiver = _C35
    engine = _ENGINE
    try:
        # WebServer.yaml:32  - If: not $.getAttr(deployed, false)
        if _call_context is None:
            _call_context = _C34(context)
        if not _r.call('#operator_.', receiver, _call_context, engine, _A43):
            # WebServer.yaml:34  - $._environment.reporter.report($this, 'Creating the instance')
            _t62 = _P52(_t55 if _P53 in _v54.type.self_reads and _v54.this is
                None and ((_t56 := type((_t55 := _v54.properties.get(
                '_environment', _C35)))) is int and _C57 < _t55 < _C58 or 
                _t56 in _C59 and len(_t55) < _C60 or _t56 in _C61) else
                _P53(_v54, _call_context, engine), _call_context, engine)
            _r.result(_d63(_t62, context, engine, _v64,
                'Creating the instance') if type(_t62) is _C20 and (_d63 :=
                _t62.type.call_sites.get(_M51)) is not None else _M51(_t62,
                _call_context, engine))
            # WebServer.yaml:35  - $securityGroupIngress:
            _v71 = _variables['$securityGroupIngress'] = _r.built_data(lambda :
                _r.freeze_list([_r.freeze_dict([('ToPort', _r.result(_t66 if
                _P65 in _v54.type.self_reads and _v54.this is None and ((
                _t67 := type((_t66 := _v54.properties.get('port', _C35)))) is
                int and _C57 < _t66 < _C58 or _t67 in _C59 and len(_t66) <
                _C60 or _t67 in _C61) else _P65(_v54, _call_context if 
                _call_context is not None else _C34(context), engine))), (
                'FromPort', _r.result(_t69 if _P68 in _v54.type.self_reads and
                _v54.this is None and ((_t70 := type((_t69 := _v54.
                properties.get('port', _C35)))) is int and _C57 < _t69 <
                _C58 or _t70 in _C59 and len(_t69) < _C60 or _t70 in _C61) else
                _P68(_v54, _call_context if _call_context is not None else
                _C34(context), engine))), ('IpProtocol', 'tcp'), (
                'External', True)])]))
            # WebServer.yaml:40  - $._environment.securityGroupManager.addGroupIngress($securityGroupIngress)
            _t83 = _P79(_t81 if _P80 in _v54.type.self_reads and _v54.this is
                None and ((_t82 := type((_t81 := _v54.properties.get(
                '_environment', _C35)))) is int and _C57 < _t81 < _C58 or 
                _t82 in _C59 and len(_t81) < _C60 or _t82 in _C61) else
                _P80(_v54, _call_context, engine), _call_context, engine)
            _r.result(_d84(_t83, context, engine, _v71) if type(_t83) is
                _C20 and (_d84 := _t83.type.call_sites.get(_M78)) is not
                None else _M78(_t83, _call_context, engine))
            # WebServer.yaml:41  - $.instance.deploy()
            _t92 = (_t90 if _P89 in _v54.type.self_reads and _v54.this is
                None and ((_t91 := type((_t90 := _v54.properties.get(
                'instance', _C35)))) is int and _C57 < _t90 < _C58 or _t91 in
                _C59 and len(_t90) < _C60 or _t91 in _C61) else _P89(_v54,
                _call_context, engine))
            _r.result(_d93(_t92, context, engine) if type(_t92) is _C20 and
                (_d93 := _t92.type.call_sites.get(_M88)) is not None else
                _M88(_t92, _call_context, engine))
            # WebServer.yaml:42  - $resources: new(sys:Resources)
            _t94 = _r.fast.new_object(_call_context, engine, _r.
                type_reference(_call_context, 'io.murano.system.Resources'))
            _v95 = _variables['$resources'] = _t94 if type(_t94
                ) in _C24 else _r.result(_t94)
            # WebServer.yaml:43  - $template: $resources.yaml('Deploy.template').bind(dict(
            _t187 = _d186(_v95, context, engine, 'Deploy.template') if type(
                _v95) is _C20 and (_d186 := _v95.type.call_sites.get(_M185)
                ) is not None else _M185(_v95, _call_context, engine)
            _t242 = _d188(_t187, context, engine, _r.fast.final_dict({
                'port': (_t192 := _t190 if _P189 in _v54.type.self_reads and
                _v54.this is None and ((_t191 := type((_t190 := _v54.
                properties.get('port', _C35)))) is int and _C57 < _t190 <
                _C58 or _t191 in _C59 and len(_t190) < _C60 or _t191 in
                _C61) else _P189(_v54, _call_context, engine)), 'sites': (
                _t241 := _d228(_t227, context, engine, _r.fast.final_dict({
                'name': (_t232 := _t230 if _P229 in _v54.type.self_reads and
                _v54.this is None and ((_t231 := type((_t230 := _v54.
                properties.get('name', _C35)))) is int and _C57 < _t230 <
                _C58 or _t231 in _C59 and len(_t230) < _C60 or _t231 in
                _C61) else _P229(_v54, _call_context, engine)), 'root': (
                _t240 := _r.call('coalesce', receiver, _call_context,
                engine, _A239))}, _t232, _t240)) if type((_t227 := _t225 if
                _P224 in _v54.type.self_reads and _v54.this is None and ((
                _t226 := type((_t225 := _v54.properties.get('sites', _C35))
                )) is int and _C57 < _t225 < _C58 or _t226 in _C59 and len(
                _t225) < _C60 or _t226 in _C61) else _P224(_v54,
                _call_context, engine))) is _C20 and (_d228 := _t227.type.
                call_sites.get(_M223)) is not None else _M223(_t227,
                _call_context, engine))}, _t192, _t241)) if type(_t187
                ) is _C20 and (_d188 := _t187.type.call_sites.get(_M180)
                ) is not None else _M180(_t187, _call_context, engine)
            _v243 = _variables['$template'] = _t242 if type(_t242
                ) in _C24 else _r.result(_t242)
            # WebServer.yaml:46  - Try:
            try:
                # WebServer.yaml:47  - $.instance.agent.call($template, $resources)
                _t258 = _P254(_t256 if _P255 in _v54.type.self_reads and 
                    _v54.this is None and ((_t257 := type((_t256 := _v54.
                    properties.get('instance', _C35)))) is int and _C57 <
                    _t256 < _C58 or _t257 in _C59 and len(_t256) < _C60 or 
                    _t257 in _C61) else _P255(_v54, _call_context, engine),
                    _call_context, engine)
                _r.result(_d259(_t258, context, engine, _v243, _v95) if 
                    type(_t258) is _C20 and (_d259 := _t258.type.call_sites
                    .get(_M253)) is not None else _M253(_t258,
                    _call_context, engine))
            except Exception as _exception260:
                # WebServer.yaml:49  - As: error
                if _r.catch_matches(_exception260, None, _call_context):
                    _v291 = _variables['$error'] = _r.exception_value(
                        _exception260)
                    # WebServer.yaml:51  - $._environment.reporter.report_error($this, format('Deployment failed, {0}', $error.message))
                    _t288 = _P284(_t286 if _P285 in _v54.type.self_reads and
                        _v54.this is None and ((_t287 := type((_t286 :=
                        _v54.properties.get('_environment', _C35)))) is int and
                        _C57 < _t286 < _C58 or _t287 in _C59 and len(_t286) <
                        _C60 or _t287 in _C61) else _P285(_v54,
                        _call_context, engine), _call_context, engine)
                    _r.result(_d289(_t288, context, engine, _v64, 
                        f'Deployment failed, {_t292}' if type((_t292 :=
                        _P290(_v291, _call_context, engine))) is int and 
                        -1000000000000000000 < _t292 < 1000000000000000000 or
                        type(_t292) is str and len(_t292) < 64 else _r.fast
                        .format_string(context, engine,
                        'Deployment failed, {0}', _t292)) if type(_t288) is
                        _C20 and (_d289 := _t288.type.call_sites.get(_M283)
                        ) is not None else _M283(_t288, _call_context, engine))
                    # WebServer.yaml:52  - Rethrow:
                    raise
                else:
                    # WebServer.yaml:46  - Try:
                    raise
            # WebServer.yaml:53  - $address: $.instance.ipAddresses.first()
            _t301 = _P297(_t299 if _P298 in _v54.type.self_reads and _v54.
                this is None and ((_t300 := type((_t299 := _v54.properties.
                get('instance', _C35)))) is int and _C57 < _t299 < _C58 or 
                _t300 in _C59 and len(_t299) < _C60 or _t300 in _C61) else
                _P298(_v54, _call_context, engine), _call_context, engine)
            _t303 = _d302(_t301, context, engine) if type(_t301) is _C20 and (
                _d302 := _t301.type.call_sites.get(_M296)
                ) is not None else _M296(_t301, _call_context, engine)
            _v304 = _variables['$address'] = _t303 if type(_t303
                ) in _C24 else _r.result(_t303)
            # WebServer.yaml:54  - $._environment.reporter.report($this, format('Web server is available at http://{0}:{1}', $address, $.port))
            _t334 = _P330(_t332 if _P331 in _v54.type.self_reads and _v54.
                this is None and ((_t333 := type((_t332 := _v54.properties.
                get('_environment', _C35)))) is int and _C57 < _t332 < _C58 or
                _t333 in _C59 and len(_t332) < _C60 or _t333 in _C61) else
                _P331(_v54, _call_context, engine), _call_context, engine)
            _r.result(_d335(_t334, context, engine, _v64, 
                f'Web server is available at http://{_v304}:{_t339}' if (
                type(_v304) is int and -1000000000000000000 < _v304 < 
                1000000000000000000 or type(_v304) is str and len(_v304) < 
                64) & (type((_t339 := _t337 if _P336 in _v54.type.
                self_reads and _v54.this is None and ((_t338 := type((_t337 :=
                _v54.properties.get('port', _C35)))) is int and _C57 <
                _t337 < _C58 or _t338 in _C59 and len(_t337) < _C60 or 
                _t338 in _C61) else _P336(_v54, _call_context, engine))) is
                int and -1000000000000000000 < _t339 < 1000000000000000000 or
                type(_t339) is str and len(_t339) < 64) else _r.fast.
                format_string(context, engine,
                'Web server is available at http://{0}:{1}', _v304, _t339)) if
                type(_t334) is _C20 and (_d335 := _t334.type.call_sites.get
                (_M329)) is not None else _M329(_t334, _call_context, engine))
            # WebServer.yaml:55  - $.setAttr(deployed, true)
            _r.result(_r.call('#operator_.', receiver, _call_context,
                engine, _A346))
            # WebServer.yaml:56  - $.deployed: true
            _r.assign(_call_context, _T347, True)
            _v54 = _variables.get('$1')
    except _C27:
        # WebServer.yaml:30  deploy:
        raise
    except Exception as _error348:
        raise _C28(_error348, _error348.__traceback__) from None


# WebServer.yaml:61  - Return: $.sites.where($.root != null).select($.name).orderBy($)
def _i352(item, context, engine):
    return item


_L353 = _r.lazy(_f36, False, _i352)
_A354 = _L353,


def _f355(receiver, context, engine):
    return _r.call('orderBy', receiver, context, engine, _A354)


_L356 = _r.lazy(_f355, True)
_M357 = _r.fast.MethodCall('orderBy', _L356, _A354, True, ())
_P358 = _r.fast.PropertyRead('name', False)


def _f359(receiver, context, engine):
    return _P358(_r.fast.variable(context, '$1'), context, engine)


_P360 = _r.fast.PropertyRead('name', False)


def _i363(item, context, engine):
    return _t361 if type(item) is _C275 and ((_t362 := type((_t361 := item.
        _d['name']))) is int and _C57 < _t361 < _C58 or _t362 in _C59 and 
        len(_t361) < _C60 or _t362 in _C61) else _P360(item, context, engine)


_L364 = _r.lazy(_f359, False, _i363)
_A365 = _L364,


def _f366(receiver, context, engine):
    return _r.call('select', receiver, context, engine, _A365)


_L367 = _r.lazy(_f366, True)
_M368 = _r.fast.MethodCall('select', _L367, _A365, True, ())
_P369 = _r.fast.PropertyRead('root', False)


def _f370(receiver, context, engine):
    return _P369(_r.fast.variable(context, '$1'), context, engine) != None


_P371 = _r.fast.PropertyRead('root', False)


def _i374(item, context, engine):
    return (_t372 if type(item) is _C275 and ((_t373 := type((_t372 := item
        ._d['root']))) is int and _C57 < _t372 < _C58 or _t373 in _C59 and 
        len(_t372) < _C60 or _t373 in _C61) else _P371(item, context, engine)
        ) != None


_L375 = _r.lazy(_f370, False, _i374)
_A376 = _L375,


def _f377(receiver, context, engine):
    return _r.call('where', receiver, context, engine, _A376)


_L378 = _r.lazy(_f377, True)
_M379 = _r.fast.MethodCall('where', _L378, _A376, True, ())
_P380 = _r.fast.PropertyRead('sites', False)
_P386 = _r.fast.PropertyRead('root', False)
_P391 = _r.fast.PropertyRead('name', False)
_C398 = _r.fast.QUOTA_FREE
_C399 = _r.fast.quota


# WebServer.yaml:58  siteNames:
def _body402(context, this=None, caller=None, caller_engine=None):
    if caller is None:
        _variables = context._data
        _v381 = _variables.get('$1')
        _call_context = context
    else:
        if this.destroyed or (_t401 := type(caller)
            ) is not dict and _t401 is not _C31 or _C32:
            return _r.fast.enter_slowly(context, this, caller, caller_engine)
        this = this.real_this
        _variables = {'$this': this, '$1': this, _C29: context}
        context = _variables
        _call_context = None
        _v381 = this
    receiver = _C35
    engine = _ENGINE
    try:
        # WebServer.yaml:61  - Return: $.sites.where($.root != null).select($.name).orderBy($)
        _t384 = (_t382 if _P380 in _v381.type.self_reads and _v381.this is
            None and ((_t383 := type((_t382 := _v381.properties.get('sites',
            _C35)))) is int and _C57 < _t382 < _C58 or _t383 in _C59 and 
            len(_t382) < _C60 or _t383 in _C61) else _P380(_v381, 
            _call_context if _call_context is not None else (_call_context :=
            _C34(context)), engine))
        _t389 = _d385(_t384, context, engine, (_t387 if _P386 in _v381.type
            .self_reads and _v381.this is None and ((_t388 := type((_t387 :=
            _v381.properties.get('root', _C35)))) is int and _C57 < _t387 <
            _C58 or _t388 in _C59 and len(_t387) < _C60 or _t388 in _C61) else
            _P386(_v381, _call_context if _call_context is not None else (
            _call_context := _C34(context)), engine)) != None) if type(_t384
            ) is _C20 and (_d385 := _t384.type.call_sites.get(_M379)
            ) is not None else _M379(_t384, _call_context if _call_context
             is not None else (_call_context := _C34(context)), engine)
        _t394 = _d390(_t389, context, engine, _t392 if _P391 in _v381.type.
            self_reads and _v381.this is None and ((_t393 := type((_t392 :=
            _v381.properties.get('name', _C35)))) is int and _C57 < _t392 <
            _C58 or _t393 in _C59 and len(_t392) < _C60 or _t393 in _C61) else
            _P391(_v381, _call_context if _call_context is not None else (
            _call_context := _C34(context)), engine)) if type(_t389
            ) is _C20 and (_d390 := _t389.type.call_sites.get(_M368)
            ) is not None else _M368(_t389, _call_context if _call_context
             is not None else (_call_context := _C34(context)), engine)
        _t396 = _r.result(_d395(_t394, context, engine, _v381) if type(
            _t394) is _C20 and (_d395 := _t394.type.call_sites.get(_M357))
             is not None else _M357(_t394, _call_context if _call_context
             is not None else (_call_context := _C34(context)), engine))
        return _t396 if caller is None or ((_t397 := type(_t396)) is int and
            _C57 < _t396 < _C58 or _t397 in _C398) else _C399(caller_engine,
            _t396)
    except _C27:
        # WebServer.yaml:58  siteNames:
        raise
    except Exception as _error400:
        raise _C28(_error400, _error400.__traceback__) from None


# WebServer.yaml:1  Namespaces:
_INSTRUCTIONS = {(28, 8):
    ('$.find(std:Environment).require()', 28, 25, 28, 8), (28, 24):
    ('$.find(std:Environment).require()', 28, 25, 28, 57), (32, 8):
    ('not $.getAttr(deployed, false)', 32, 13, 32, 8), (32, 12):
    ('not $.getAttr(deployed, false)', 32, 13, 32, 42), (34, 12):
    ("$._environment.reporter.report($this, 'Creating the instance')", 34, 13, 34, 74)
    , (35, 12): ('$.port', 37, 27, 35, 12), (36, 24):
    ('$.port', 36, 25, 36, 30), (37, 26): ('$.port', 37, 27, 37, 32),
    (40, 12):
    ('$._environment.securityGroupManager.addGroupIngress($securityGroupIngress)', 40, 13, 40, 86)
    , (41, 12): ('$.instance.deploy()', 41, 13, 41, 31), (42, 12):
    ('new(sys:Resources)', 42, 25, 42, 12), (42, 24):
    ('new(sys:Resources)', 42, 25, 42, 42), (43, 12):
    ("$resources.yaml('Deploy.template').bind(dict( port => $.port, sites => $.sites.select(dict(name => $.name, root => coalesce($.root, '/var/www/' + $.name)))))", 43, 24, 43, 12)
    , (43, 23):
    ("$resources.yaml('Deploy.template').bind(dict( port => $.port, sites => $.sites.select(dict(name => $.name, root => coalesce($.root, '/var/www/' + $.name)))))", 43, 24, 45, 111)
    , (46, 12): ('block construct', 46, 13, 46, 12), (47, 16):
    ('$.instance.agent.call($template, $resources)', 47, 17, 47, 60),
    (49, 16):
    ('$.instance.agent.call($template, $resources)', 47, 17, 49, 16),
    (51, 20):
    ("$._environment.reporter.report_error($this, format('Deployment failed, {0}', $error.message))", 51, 21, 51, 113)
    , (52, 20): ('Rethrow', 52, 21, 52, 20), (53, 12):
    ('$.instance.ipAddresses.first()', 53, 23, 53, 12), (53, 22):
    ('$.instance.ipAddresses.first()', 53, 23, 53, 52), (54, 12):
    ("$._environment.reporter.report($this, format('Web server is available at http://{0}:{1}', $address, $.port))", 54, 13, 54, 120)
    , (55, 12): ('$.setAttr(deployed, true)', 55, 13, 55, 37), (56, 12):
    ('$.setAttr(deployed, true)', 55, 13, 56, 12), (61, 8):
    ('$.sites.where($.root != null).select($.name).orderBy($)', 61, 17, 61, 8),
    (61, 16):
    ('$.sites.where($.root != null).select($.name).orderBy($)', 61, 17, 61, 71)
    }
CLASS = _r.ClassSpec(name='com.example.WebServer', package=None, extends=(
    'io.murano.Application',), namespaces={'=': 'com.example', 'std':
    'io.murano', 'res': 'io.murano.resources', 'sys': 'io.murano.system'},
    usage='Class', cardinality=None, applies=(), inherited=False, meta=(),
    imports=(), properties={'instance': _r.PropertySpec('instance', usage=
    'In', contract=_contract1, loads_objects=True, value_only=True, default
    =None, has_default=False, meta=(), line=12), 'port': _r.PropertySpec(
    'port', usage='In', contract=_contract2, loads_objects=False,
    value_only=True, default=_r.constant_default(80), has_default=True,
    meta=(), line=14), 'sites': _r.PropertySpec('sites', usage='In',
    contract=_contract5, loads_objects=False, value_only=True, default=None,
    has_default=False, meta=(), line=17), 'deployed': _r.PropertySpec(
    'deployed', usage='Out', contract=_contract6, loads_objects=False,
    value_only=True, default=None, has_default=False, meta=(), line=21)},
    methods={'.init': _r.MethodSpec('.init', usage='Runtime', scope=
    'Session', arguments=(), body=_body33, meta=(), line=26, direct_entry=
    True, local_variables=('_v18',), variable_names=('$1',)), 'deploy': _r.
    MethodSpec('deploy', usage='Runtime', scope='Session', arguments=(),
    body=_body350, meta=(), line=30, direct_entry=True, local_variables=
    ('_v54', '_v64', '_v71', '_v95', '_v243', '_v291', '_v304'),
    variable_names=
    ('$1', '$this', '$securityGroupIngress', '$resources', '$template', '$error', '$address')
    ), 'siteNames': _r.MethodSpec('siteNames', usage='Runtime', scope=
    'Public', arguments=(), body=_body402, meta=(), line=58, direct_entry=
    True, local_variables=('_v381',), variable_names=('$1',))}, source_file
    ='<package>/Classes/WebServer.yaml', line=1)
