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
_K36 = _r.keyword('deployed')
_K37 = _r.constant(False)
_A38 = _K36, _K37


def _f39(receiver, context, engine):
    return _r.call('getAttr', receiver, context, engine, _A38)


_L40 = _r.lazy(_f39, True)
_M41 = _r.fast.MethodCall('getAttr', _L40, _A38, True, ())


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
_C56 = _r.fast.INLINE_LOWER_BOUND
_C57 = _r.fast.INLINE_BOUND
_C58 = _r.fast.SHORT_SIZED
_C59 = _r.fast.SHORT
_C60 = _r.fast.ALWAYS_SMALL
# WebServer.yaml:36  - ToPort: $.port
_P64 = _r.fast.PropertyRead('port', False)
# WebServer.yaml:37  FromPort: $.port
_P67 = _r.fast.PropertyRead('port', False)


# WebServer.yaml:40  - $._environment.securityGroupManager.addGroupIngress($securityGroupIngress)
def _f71(receiver, context, engine):
    return _r.fast.variable(context, '$securityGroupIngress')


def _i72(item, context, engine):
    return _r.fast.variable(context, '$securityGroupIngress')


_L73 = _r.lazy(_f71, False, _i72)
_A74 = _L73,


def _f75(receiver, context, engine):
    return _r.call('addGroupIngress', receiver, context, engine, _A74)


_L76 = _r.lazy(_f75, True)
_M77 = _r.fast.MethodCall('addGroupIngress', _L76, _A74, True, ())
_P78 = _r.fast.PropertyRead('securityGroupManager', False)
_P79 = _r.fast.PropertyRead('_environment', False)


# WebServer.yaml:41  - $.instance.deploy()
def _f85(receiver, context, engine):
    return _r.call('deploy', receiver, context, engine, _A7)


_L86 = _r.lazy(_f85, True)
_M87 = _r.fast.MethodCall('deploy', _L86, _A7, True, ())
_P88 = _r.fast.PropertyRead('instance', False)
# WebServer.yaml:43  - $template: $resources.yaml('Deploy.template').bind(dict(
_P95 = _r.fast.PropertyRead('port', False)
_P97 = _r.fast.PropertyRead('name', False)
_P99 = _r.fast.PropertyRead('root', False)


def _f100(receiver, context, engine):
    return _P99(_r.fast.variable(context, '$1'), context, engine)


_L101 = _r.lazy(_f100, False)
_P102 = _r.fast.PropertyRead('name', False)


def _f103(receiver, context, engine):
    return _r.fast.add('/var/www/', _P102(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L104 = _r.lazy(_f103, False)
_A105 = _L101, _L104
_K107 = _r.keyword('name')
_P108 = _r.fast.PropertyRead('name', False)


def _f109(receiver, context, engine):
    return _P108(_r.fast.variable(context, '$1'), context, engine)


_L110 = _r.lazy(_f109, False)
_R111 = _r.rule(_K107, _L110)
_K112 = _r.keyword('root')
_P113 = _r.fast.PropertyRead('root', False)


def _f114(receiver, context, engine):
    return _P113(_r.fast.variable(context, '$1'), context, engine)


_L115 = _r.lazy(_f114, False)
_P116 = _r.fast.PropertyRead('name', False)


def _f117(receiver, context, engine):
    return _r.fast.add('/var/www/', _P116(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L118 = _r.lazy(_f117, False)
_A119 = _L115, _L118


def _f120(receiver, context, engine):
    return _r.call('coalesce', receiver, context, engine, _A119)


_L121 = _r.lazy(_f120, True)
_R122 = _r.rule(_K112, _L121)
_A123 = _R111, _R122


def _f124(receiver, context, engine):
    return _r.fast.final_dict({'name': (_t98 := _P97(_r.fast.variable(
        context, '$1'), context, engine)), 'root': (_t106 := _r.call(
        'coalesce', receiver, context, engine, _A105))}, _t98, _t106
        ) if receiver is _r.fast.NO_VALUE else _r.call('dict', receiver,
        context, engine, _A123)


_L125 = _r.lazy(_f124, True)
_A126 = _L125,


def _f127(receiver, context, engine):
    return _r.call('select', receiver, context, engine, _A126)


_L128 = _r.lazy(_f127, True)
_M129 = _r.fast.MethodCall('select', _L128, _A126, True, ())
_P130 = _r.fast.PropertyRead('sites', False)
_K132 = _r.keyword('port')
_P133 = _r.fast.PropertyRead('port', False)


def _f134(receiver, context, engine):
    return _P133(_r.fast.variable(context, '$1'), context, engine)


_L135 = _r.lazy(_f134, False)
_R136 = _r.rule(_K132, _L135)
_K137 = _r.keyword('sites')
_P138 = _r.fast.PropertyRead('name', False)
_P140 = _r.fast.PropertyRead('root', False)


def _f141(receiver, context, engine):
    return _P140(_r.fast.variable(context, '$1'), context, engine)


_L142 = _r.lazy(_f141, False)
_P143 = _r.fast.PropertyRead('name', False)


def _f144(receiver, context, engine):
    return _r.fast.add('/var/www/', _P143(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L145 = _r.lazy(_f144, False)
_A146 = _L142, _L145
_P148 = _r.fast.PropertyRead('name', False)


def _f149(receiver, context, engine):
    return _P148(_r.fast.variable(context, '$1'), context, engine)


_L150 = _r.lazy(_f149, False)
_R151 = _r.rule(_K107, _L150)
_P152 = _r.fast.PropertyRead('root', False)


def _f153(receiver, context, engine):
    return _P152(_r.fast.variable(context, '$1'), context, engine)


_L154 = _r.lazy(_f153, False)
_P155 = _r.fast.PropertyRead('name', False)


def _f156(receiver, context, engine):
    return _r.fast.add('/var/www/', _P155(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L157 = _r.lazy(_f156, False)
_A158 = _L154, _L157


def _f159(receiver, context, engine):
    return _r.call('coalesce', receiver, context, engine, _A158)


_L160 = _r.lazy(_f159, True)
_R161 = _r.rule(_K112, _L160)
_A162 = _R151, _R161


def _f163(receiver, context, engine):
    return _r.fast.final_dict({'name': (_t139 := _P138(_r.fast.variable(
        context, '$1'), context, engine)), 'root': (_t147 := _r.call(
        'coalesce', receiver, context, engine, _A146))}, _t139, _t147
        ) if receiver is _r.fast.NO_VALUE else _r.call('dict', receiver,
        context, engine, _A162)


_L164 = _r.lazy(_f163, True)
_A165 = _L164,


def _f166(receiver, context, engine):
    return _r.call('select', receiver, context, engine, _A165)


_L167 = _r.lazy(_f166, True)
_M168 = _r.fast.MethodCall('select', _L167, _A165, True, ())
_P169 = _r.fast.PropertyRead('sites', False)


def _f170(receiver, context, engine):
    return _M168(_P169(_r.fast.variable(context, '$1'), context, engine),
        context, engine)


_L171 = _r.lazy(_f170, False)
_R172 = _r.rule(_K137, _L171)
_A173 = _R136, _R172


def _f174(receiver, context, engine):
    return _r.fast.final_dict({'port': (_t96 := _P95(_r.fast.variable(
        context, '$1'), context, engine)), 'sites': (_t131 := _M129(_P130(
        _r.fast.variable(context, '$1'), context, engine), context, engine)
        )}, _t96, _t131) if receiver is _r.fast.NO_VALUE else _r.call('dict',
        receiver, context, engine, _A173)


_L175 = _r.lazy(_f174, True)
_A176 = _L175,


def _f177(receiver, context, engine):
    return _r.call('bind', receiver, context, engine, _A176)


_L178 = _r.lazy(_f177, True)
_M179 = _r.fast.MethodCall('bind', _L178, _A176, True, ('select',))
_K180 = _r.constant('Deploy.template')
_A181 = _K180,


def _f182(receiver, context, engine):
    return _r.call('yaml', receiver, context, engine, _A181)


_L183 = _r.lazy(_f182, True)
_M184 = _r.fast.MethodCall('yaml', _L183, _A181, True, ())
_P188 = _r.fast.PropertyRead('port', False)
_P192 = _r.fast.PropertyRead('name', False)
_P194 = _r.fast.PropertyRead('root', False)


def _f195(receiver, context, engine):
    return _P194(_r.fast.variable(context, '$1'), context, engine)


_L196 = _r.lazy(_f195, False)
_P197 = _r.fast.PropertyRead('name', False)


def _f198(receiver, context, engine):
    return _r.fast.add('/var/www/', _P197(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L199 = _r.lazy(_f198, False)
_A200 = _L196, _L199
_P202 = _r.fast.PropertyRead('name', False)


def _f203(receiver, context, engine):
    return _P202(_r.fast.variable(context, '$1'), context, engine)


_L204 = _r.lazy(_f203, False)
_R205 = _r.rule(_K107, _L204)
_P206 = _r.fast.PropertyRead('root', False)


def _f207(receiver, context, engine):
    return _P206(_r.fast.variable(context, '$1'), context, engine)


_L208 = _r.lazy(_f207, False)
_P209 = _r.fast.PropertyRead('name', False)


def _f210(receiver, context, engine):
    return _r.fast.add('/var/www/', _P209(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L211 = _r.lazy(_f210, False)
_A212 = _L208, _L211


def _f213(receiver, context, engine):
    return _r.call('coalesce', receiver, context, engine, _A212)


_L214 = _r.lazy(_f213, True)
_R215 = _r.rule(_K112, _L214)
_A216 = _R205, _R215


def _f217(receiver, context, engine):
    return _r.fast.final_dict({'name': (_t193 := _P192(_r.fast.variable(
        context, '$1'), context, engine)), 'root': (_t201 := _r.call(
        'coalesce', receiver, context, engine, _A200))}, _t193, _t201
        ) if receiver is _r.fast.NO_VALUE else _r.call('dict', receiver,
        context, engine, _A216)


_L218 = _r.lazy(_f217, True)
_A219 = _L218,


def _f220(receiver, context, engine):
    return _r.call('select', receiver, context, engine, _A219)


_L221 = _r.lazy(_f220, True)
_M222 = _r.fast.MethodCall('select', _L221, _A219, True, ())
_P223 = _r.fast.PropertyRead('sites', False)
_P228 = _r.fast.PropertyRead('name', False)
_P232 = _r.fast.PropertyRead('root', False)


def _f233(receiver, context, engine):
    return _P232(_r.fast.variable(context, '$1'), context, engine)


_L234 = _r.lazy(_f233, False)
_P235 = _r.fast.PropertyRead('name', False)


def _f236(receiver, context, engine):
    return _r.fast.add('/var/www/', _P235(_r.fast.variable(context, '$1'),
        context, engine), context, engine)


_L237 = _r.lazy(_f236, False)
_A238 = _L234, _L237


# WebServer.yaml:47  - $.instance.agent.call($template, $resources)
def _f243(receiver, context, engine):
    return _r.fast.variable(context, '$template')


def _i244(item, context, engine):
    return _r.fast.variable(context, '$template')


_L245 = _r.lazy(_f243, False, _i244)


def _f246(receiver, context, engine):
    return _r.fast.variable(context, '$resources')


def _i247(item, context, engine):
    return _r.fast.variable(context, '$resources')


_L248 = _r.lazy(_f246, False, _i247)
_A249 = _L245, _L248


def _f250(receiver, context, engine):
    return _r.call('call', receiver, context, engine, _A249)


_L251 = _r.lazy(_f250, True)
_M252 = _r.fast.MethodCall('call', _L251, _A249, True, ())
_P253 = _r.fast.PropertyRead('agent', False)
_P254 = _r.fast.PropertyRead('instance', False)
# WebServer.yaml:51  - $._environment.reporter.report_error($this, format('Deployment failed, {0}', $error.message))
_P263 = _r.fast.PropertyRead('message', False)
_K265 = _r.constant('Deployment failed, {0}')
_P266 = _r.fast.PropertyRead('message', False)


def _f267(receiver, context, engine):
    return _P266(_r.fast.variable(context, '$error'), context, engine)


_L268 = _r.lazy(_f267, False)
_A269 = _K265, _L268


def _f270(receiver, context, engine):
    return (f'Deployment failed, {_t264}' if type((_t264 := _P263(_r.fast.
        variable(context, '$error'), context, engine))) is int and 
        -1000000000000000000 < _t264 < 1000000000000000000 or type(_t264) is
        str and len(_t264) < 64 else _r.fast.format_string(context, engine,
        'Deployment failed, {0}', _t264)
        ) if receiver is _r.fast.NO_VALUE else _r.call('format', receiver,
        context, engine, _A269)


_P271 = _r.fast.PropertyRead('message', False)
_C274 = _r.fast.FrozenDict


def _i277(item, context, engine):
    _t272 = _r.fast.variable(context, '$error')
    _t276 = _t273 if type(_t272) is _C274 and ((_t275 := type((_t273 :=
        _t272._d['message']))) is int and _C56 < _t273 < _C57 or _t275 in
        _C58 and len(_t273) < _C59 or _t275 in _C60) else _P271(_t272,
        context, engine)
    return f'Deployment failed, {_t276}' if type(_t276
        ) is int and -1000000000000000000 < _t276 < 1000000000000000000 or type(
        _t276) is str and len(_t276) < 64 else _r.fast.format_string(context,
        engine, 'Deployment failed, {0}', _t276)


_L278 = _r.lazy(_f270, True, _i277)
_A279 = _L46, _L278


def _f280(receiver, context, engine):
    return _r.call('report_error', receiver, context, engine, _A279)


_L281 = _r.lazy(_f280, True)
_M282 = _r.fast.MethodCall('report_error', _L281, _A279, True, ())
_P283 = _r.fast.PropertyRead('reporter', False)
_P284 = _r.fast.PropertyRead('_environment', False)
_P289 = _r.fast.PropertyRead('message', False)


# WebServer.yaml:53  - $address: $.instance.ipAddresses.first()
def _f293(receiver, context, engine):
    return _r.call('first', receiver, context, engine, _A7)


_L294 = _r.lazy(_f293, True)
_M295 = _r.fast.MethodCall('first', _L294, _A7, True, ())
_P296 = _r.fast.PropertyRead('ipAddresses', False)
_P297 = _r.fast.PropertyRead('instance', False)
# WebServer.yaml:54  - $._environment.reporter.report($this, format('Web server is available at http://{0}:{1}', $address, $.port))
_P307 = _r.fast.PropertyRead('port', False)
_K310 = _r.constant('Web server is available at http://{0}:{1}')


def _f311(receiver, context, engine):
    return _r.fast.variable(context, '$address')


_L312 = _r.lazy(_f311, False)
_P313 = _r.fast.PropertyRead('port', False)


def _f314(receiver, context, engine):
    return _P313(_r.fast.variable(context, '$1'), context, engine)


_L315 = _r.lazy(_f314, False)
_A316 = _K310, _L312, _L315


def _f317(receiver, context, engine):
    return (f'Web server is available at http://{_t308}:{_t309}' if (type((
        _t308 := _r.fast.variable(context, '$address'))) is int and 
        -1000000000000000000 < _t308 < 1000000000000000000 or type(_t308) is
        str and len(_t308) < 64) & (type((_t309 := _P307(_r.fast.variable(
        context, '$1'), context, engine))) is int and -1000000000000000000 <
        _t309 < 1000000000000000000 or type(_t309) is str and len(_t309) < 
        64) else _r.fast.format_string(context, engine,
        'Web server is available at http://{0}:{1}', _t308, _t309)
        ) if receiver is _r.fast.NO_VALUE else _r.call('format', receiver,
        context, engine, _A316)


_P318 = _r.fast.PropertyRead('port', False)


def _i323(item, context, engine):
    _t321 = _r.fast.variable(context, '$address')
    return f'Web server is available at http://{_t321}:{_t322}' if (type(
        _t321) is int and -1000000000000000000 < _t321 < 
        1000000000000000000 or type(_t321) is str and len(_t321) < 64) & (
        type((_t322 := _t319 if type(item) is _C274 and ((_t320 := type((
        _t319 := item._d['port']))) is int and _C56 < _t319 < _C57 or _t320 in
        _C58 and len(_t319) < _C59 or _t320 in _C60) else _P318(item,
        context, engine))) is int and -1000000000000000000 < _t322 < 
        1000000000000000000 or type(_t322) is str and len(_t322) < 64
        ) else _r.fast.format_string(context, engine,
        'Web server is available at http://{0}:{1}', _t321, _t322)


_L324 = _r.lazy(_f317, True, _i323)
_A325 = _L46, _L324


def _f326(receiver, context, engine):
    return _r.call('report', receiver, context, engine, _A325)


_L327 = _r.lazy(_f326, True)
_M328 = _r.fast.MethodCall('report', _L327, _A325, True, ())
_P329 = _r.fast.PropertyRead('reporter', False)
_P330 = _r.fast.PropertyRead('_environment', False)
_P335 = _r.fast.PropertyRead('port', False)
# WebServer.yaml:55  - $.setAttr(deployed, true)
_K339 = _r.constant(True)
_A340 = _K36, _K339


def _f341(receiver, context, engine):
    return _r.call('setAttr', receiver, context, engine, _A340)


_L342 = _r.lazy(_f341, True)
_M343 = _r.fast.MethodCall('setAttr', _L342, _A340, True, ())
# WebServer.yaml:56  - $.deployed: true
_T345 = _r.target(_r.variable('$'), (('attr', 'deployed'),), '$.deployed')


# WebServer.yaml:30  deploy:
def _body348(context, this=None, caller=None, caller_engine=None):
    if caller is None:
        _variables = context._data
        _v42 = _variables.get('$1')
        _v63 = _variables.get('$this')
        _v70 = _variables.get('$securityGroupIngress')
        _v94 = _variables.get('$resources')
        _v242 = _variables.get('$template')
        _v290 = _variables.get('$error')
        _v303 = _variables.get('$address')
        _call_context = context
    else:
        if this.destroyed or (_t347 := type(caller)
            ) is not dict and _t347 is not _C31 or _C32:
            return _r.fast.enter_slowly(context, this, caller, caller_engine)
        this = this.real_this
        _variables = {'$this': this, '$1': this, _C29: context}
        context = _variables
        _call_context = None
        _v42 = this
        _v63 = this
        _v70 = None
        _v94 = None
        _v242 = None
        _v290 = None
        _v303 = None
    receiver = _C35
    engine = _ENGINE
    try:
        # WebServer.yaml:32  - If: not $.getAttr(deployed, false)
        _d43 = _v42.type.call_sites.get(_M41)
        if not (_d43(_v42, context, engine, 'deployed', False) if _d43 is not
            None else _M41(_v42, _call_context if _call_context is not None
             else (_call_context := _C34(context)), engine)):
            # WebServer.yaml:34  - $._environment.reporter.report($this, 'Creating the instance')
            _t61 = _P52(_t54 if _P53 in _v42.type.self_reads and _v42.this is
                None and ((_t55 := type((_t54 := _v42.properties.get(
                '_environment', _C35)))) is int and _C56 < _t54 < _C57 or 
                _t55 in _C58 and len(_t54) < _C59 or _t55 in _C60) else
                _P53(_v42, _call_context if _call_context is not None else
                (_call_context := _C34(context)), engine), _call_context if
                _call_context is not None else (_call_context := _C34(
                context)), engine)
            _r.result(_d62(_t61, context, engine, _v63,
                'Creating the instance') if type(_t61) is _C20 and (_d62 :=
                _t61.type.call_sites.get(_M51)) is not None else _M51(_t61,
                _call_context if _call_context is not None else (
                _call_context := _C34(context)), engine))
            # WebServer.yaml:35  - $securityGroupIngress:
            _v70 = _variables['$securityGroupIngress'] = _r.built_data(lambda :
                _r.freeze_list([_r.freeze_dict([('ToPort', _r.result(_t65 if
                _P64 in _v42.type.self_reads and _v42.this is None and ((
                _t66 := type((_t65 := _v42.properties.get('port', _C35)))) is
                int and _C56 < _t65 < _C57 or _t66 in _C58 and len(_t65) <
                _C59 or _t66 in _C60) else _P64(_v42, _call_context if 
                _call_context is not None else _C34(context), engine))), (
                'FromPort', _r.result(_t68 if _P67 in _v42.type.self_reads and
                _v42.this is None and ((_t69 := type((_t68 := _v42.
                properties.get('port', _C35)))) is int and _C56 < _t68 <
                _C57 or _t69 in _C58 and len(_t68) < _C59 or _t69 in _C60) else
                _P67(_v42, _call_context if _call_context is not None else
                _C34(context), engine))), ('IpProtocol', 'tcp'), (
                'External', True)])]))
            # WebServer.yaml:40  - $._environment.securityGroupManager.addGroupIngress($securityGroupIngress)
            _t82 = _P78(_t80 if _P79 in _v42.type.self_reads and _v42.this is
                None and ((_t81 := type((_t80 := _v42.properties.get(
                '_environment', _C35)))) is int and _C56 < _t80 < _C57 or 
                _t81 in _C58 and len(_t80) < _C59 or _t81 in _C60) else
                _P79(_v42, _call_context if _call_context is not None else
                (_call_context := _C34(context)), engine), _call_context if
                _call_context is not None else (_call_context := _C34(
                context)), engine)
            _r.result(_d83(_t82, context, engine, _v70) if type(_t82) is
                _C20 and (_d83 := _t82.type.call_sites.get(_M77)) is not
                None else _M77(_t82, _call_context if _call_context is not
                None else (_call_context := _C34(context)), engine))
            # WebServer.yaml:41  - $.instance.deploy()
            _t91 = (_t89 if _P88 in _v42.type.self_reads and _v42.this is
                None and ((_t90 := type((_t89 := _v42.properties.get(
                'instance', _C35)))) is int and _C56 < _t89 < _C57 or _t90 in
                _C58 and len(_t89) < _C59 or _t90 in _C60) else _P88(_v42, 
                _call_context if _call_context is not None else (
                _call_context := _C34(context)), engine))
            _r.result(_d92(_t91, context, engine) if type(_t91) is _C20 and
                (_d92 := _t91.type.call_sites.get(_M87)) is not None else
                _M87(_t91, _call_context if _call_context is not None else
                (_call_context := _C34(context)), engine))
            # WebServer.yaml:42  - $resources: new(sys:Resources)
            if _call_context is None:
                _call_context = _C34(context)
            _t93 = _r.fast.new_object(_call_context, engine, _r.
                type_reference(_call_context, 'io.murano.system.Resources'))
            _v94 = _variables['$resources'] = _t93 if type(_t93
                ) in _C24 else _r.result(_t93)
            # WebServer.yaml:43  - $template: $resources.yaml('Deploy.template').bind(dict(
            _t186 = _d185(_v94, context, engine, 'Deploy.template') if type(
                _v94) is _C20 and (_d185 := _v94.type.call_sites.get(_M184)
                ) is not None else _M184(_v94, _call_context, engine)
            _t241 = _d187(_t186, context, engine, _r.fast.final_dict({
                'port': (_t191 := _t189 if _P188 in _v42.type.self_reads and
                _v42.this is None and ((_t190 := type((_t189 := _v42.
                properties.get('port', _C35)))) is int and _C56 < _t189 <
                _C57 or _t190 in _C58 and len(_t189) < _C59 or _t190 in
                _C60) else _P188(_v42, _call_context, engine)), 'sites': (
                _t240 := _d227(_t226, context, engine, _r.fast.final_dict({
                'name': (_t231 := _t229 if _P228 in _v42.type.self_reads and
                _v42.this is None and ((_t230 := type((_t229 := _v42.
                properties.get('name', _C35)))) is int and _C56 < _t229 <
                _C57 or _t230 in _C58 and len(_t229) < _C59 or _t230 in
                _C60) else _P228(_v42, _call_context, engine)), 'root': (
                _t239 := _r.call('coalesce', receiver, _call_context,
                engine, _A238))}, _t231, _t239)) if type((_t226 := _t224 if
                _P223 in _v42.type.self_reads and _v42.this is None and ((
                _t225 := type((_t224 := _v42.properties.get('sites', _C35))
                )) is int and _C56 < _t224 < _C57 or _t225 in _C58 and len(
                _t224) < _C59 or _t225 in _C60) else _P223(_v42,
                _call_context, engine))) is _C20 and (_d227 := _t226.type.
                call_sites.get(_M222)) is not None else _M222(_t226,
                _call_context, engine))}, _t191, _t240)) if type(_t186
                ) is _C20 and (_d187 := _t186.type.call_sites.get(_M179)
                ) is not None else _M179(_t186, _call_context, engine)
            _v242 = _variables['$template'] = _t241 if type(_t241
                ) in _C24 else _r.result(_t241)
            # WebServer.yaml:46  - Try:
            try:
                # WebServer.yaml:47  - $.instance.agent.call($template, $resources)
                _t257 = _P253(_t255 if _P254 in _v42.type.self_reads and 
                    _v42.this is None and ((_t256 := type((_t255 := _v42.
                    properties.get('instance', _C35)))) is int and _C56 <
                    _t255 < _C57 or _t256 in _C58 and len(_t255) < _C59 or 
                    _t256 in _C60) else _P254(_v42, _call_context, engine),
                    _call_context, engine)
                _r.result(_d258(_t257, context, engine, _v242, _v94) if 
                    type(_t257) is _C20 and (_d258 := _t257.type.call_sites
                    .get(_M252)) is not None else _M252(_t257,
                    _call_context, engine))
            except Exception as _exception259:
                # WebServer.yaml:49  - As: error
                if _r.catch_matches(_exception259, None, _call_context):
                    _v290 = _variables['$error'] = _r.exception_value(
                        _exception259)
                    # WebServer.yaml:51  - $._environment.reporter.report_error($this, format('Deployment failed, {0}', $error.message))
                    _t287 = _P283(_t285 if _P284 in _v42.type.self_reads and
                        _v42.this is None and ((_t286 := type((_t285 :=
                        _v42.properties.get('_environment', _C35)))) is int and
                        _C56 < _t285 < _C57 or _t286 in _C58 and len(_t285) <
                        _C59 or _t286 in _C60) else _P284(_v42,
                        _call_context, engine), _call_context, engine)
                    _r.result(_d288(_t287, context, engine, _v63, 
                        f'Deployment failed, {_t291}' if type((_t291 :=
                        _P289(_v290, _call_context, engine))) is int and 
                        -1000000000000000000 < _t291 < 1000000000000000000 or
                        type(_t291) is str and len(_t291) < 64 else _r.fast
                        .format_string(context, engine,
                        'Deployment failed, {0}', _t291)) if type(_t287) is
                        _C20 and (_d288 := _t287.type.call_sites.get(_M282)
                        ) is not None else _M282(_t287, _call_context, engine))
                    # WebServer.yaml:52  - Rethrow:
                    raise
                else:
                    # WebServer.yaml:46  - Try:
                    raise
            # WebServer.yaml:53  - $address: $.instance.ipAddresses.first()
            _t300 = _P296(_t298 if _P297 in _v42.type.self_reads and _v42.
                this is None and ((_t299 := type((_t298 := _v42.properties.
                get('instance', _C35)))) is int and _C56 < _t298 < _C57 or 
                _t299 in _C58 and len(_t298) < _C59 or _t299 in _C60) else
                _P297(_v42, _call_context, engine), _call_context, engine)
            _t302 = _d301(_t300, context, engine) if type(_t300) is _C20 and (
                _d301 := _t300.type.call_sites.get(_M295)
                ) is not None else _M295(_t300, _call_context, engine)
            _v303 = _variables['$address'] = _t302 if type(_t302
                ) in _C24 else _r.result(_t302)
            # WebServer.yaml:54  - $._environment.reporter.report($this, format('Web server is available at http://{0}:{1}', $address, $.port))
            _t333 = _P329(_t331 if _P330 in _v42.type.self_reads and _v42.
                this is None and ((_t332 := type((_t331 := _v42.properties.
                get('_environment', _C35)))) is int and _C56 < _t331 < _C57 or
                _t332 in _C58 and len(_t331) < _C59 or _t332 in _C60) else
                _P330(_v42, _call_context, engine), _call_context, engine)
            _r.result(_d334(_t333, context, engine, _v63, 
                f'Web server is available at http://{_v303}:{_t338}' if (
                type(_v303) is int and -1000000000000000000 < _v303 < 
                1000000000000000000 or type(_v303) is str and len(_v303) < 
                64) & (type((_t338 := _t336 if _P335 in _v42.type.
                self_reads and _v42.this is None and ((_t337 := type((_t336 :=
                _v42.properties.get('port', _C35)))) is int and _C56 <
                _t336 < _C57 or _t337 in _C58 and len(_t336) < _C59 or 
                _t337 in _C60) else _P335(_v42, _call_context, engine))) is
                int and -1000000000000000000 < _t338 < 1000000000000000000 or
                type(_t338) is str and len(_t338) < 64) else _r.fast.
                format_string(context, engine,
                'Web server is available at http://{0}:{1}', _v303, _t338)) if
                type(_t333) is _C20 and (_d334 := _t333.type.call_sites.get
                (_M328)) is not None else _M328(_t333, _call_context, engine))
            # WebServer.yaml:55  - $.setAttr(deployed, true)
            _d344 = _v42.type.call_sites.get(_M343)
            _r.result(_d344(_v42, context, engine, 'deployed', True) if 
                _d344 is not None else _M343(_v42, _call_context, engine))
            # WebServer.yaml:56  - $.deployed: true
            _r.assign(_call_context, _T345, True)
            _v42 = _variables.get('$1')
    except _C27:
        # WebServer.yaml:30  deploy:
        raise
    except Exception as _error346:
        raise _C28(_error346, _error346.__traceback__) from None


# WebServer.yaml:61  - Return: $.sites.where($.root != null).select($.name).orderBy($)
def _f349(receiver, context, engine):
    return _r.fast.variable(context, '$1')


def _i350(item, context, engine):
    return item


_L351 = _r.lazy(_f349, False, _i350)
_A352 = _L351,


def _f353(receiver, context, engine):
    return _r.call('orderBy', receiver, context, engine, _A352)


_L354 = _r.lazy(_f353, True)
_M355 = _r.fast.MethodCall('orderBy', _L354, _A352, True, ())
_P356 = _r.fast.PropertyRead('name', False)


def _f357(receiver, context, engine):
    return _P356(_r.fast.variable(context, '$1'), context, engine)


_P358 = _r.fast.PropertyRead('name', False)


def _i361(item, context, engine):
    return _t359 if type(item) is _C274 and ((_t360 := type((_t359 := item.
        _d['name']))) is int and _C56 < _t359 < _C57 or _t360 in _C58 and 
        len(_t359) < _C59 or _t360 in _C60) else _P358(item, context, engine)


_L362 = _r.lazy(_f357, False, _i361)
_A363 = _L362,


def _f364(receiver, context, engine):
    return _r.call('select', receiver, context, engine, _A363)


_L365 = _r.lazy(_f364, True)
_M366 = _r.fast.MethodCall('select', _L365, _A363, True, ())
_P367 = _r.fast.PropertyRead('root', False)


def _f368(receiver, context, engine):
    return _P367(_r.fast.variable(context, '$1'), context, engine) != None


_P369 = _r.fast.PropertyRead('root', False)


def _i372(item, context, engine):
    return (_t370 if type(item) is _C274 and ((_t371 := type((_t370 := item
        ._d['root']))) is int and _C56 < _t370 < _C57 or _t371 in _C58 and 
        len(_t370) < _C59 or _t371 in _C60) else _P369(item, context, engine)
        ) != None


_L373 = _r.lazy(_f368, False, _i372)
_A374 = _L373,


def _f375(receiver, context, engine):
    return _r.call('where', receiver, context, engine, _A374)


_L376 = _r.lazy(_f375, True)
_M377 = _r.fast.MethodCall('where', _L376, _A374, True, ())
_P378 = _r.fast.PropertyRead('sites', False)
_P384 = _r.fast.PropertyRead('root', False)
_P389 = _r.fast.PropertyRead('name', False)
_C396 = _r.fast.QUOTA_FREE
_C397 = _r.fast.quota


# WebServer.yaml:58  siteNames:
def _body400(context, this=None, caller=None, caller_engine=None):
    if caller is None:
        _variables = context._data
        _v379 = _variables.get('$1')
        _call_context = context
    else:
        if this.destroyed or (_t399 := type(caller)
            ) is not dict and _t399 is not _C31 or _C32:
            return _r.fast.enter_slowly(context, this, caller, caller_engine)
        this = this.real_this
        _variables = {'$this': this, '$1': this, _C29: context}
        context = _variables
        _call_context = None
        _v379 = this
    receiver = _C35
    engine = _ENGINE
    try:
        # WebServer.yaml:61  - Return: $.sites.where($.root != null).select($.name).orderBy($)
        _t382 = (_t380 if _P378 in _v379.type.self_reads and _v379.this is
            None and ((_t381 := type((_t380 := _v379.properties.get('sites',
            _C35)))) is int and _C56 < _t380 < _C57 or _t381 in _C58 and 
            len(_t380) < _C59 or _t381 in _C60) else _P378(_v379, 
            _call_context if _call_context is not None else (_call_context :=
            _C34(context)), engine))
        _t387 = _d383(_t382, context, engine, (_t385 if _P384 in _v379.type
            .self_reads and _v379.this is None and ((_t386 := type((_t385 :=
            _v379.properties.get('root', _C35)))) is int and _C56 < _t385 <
            _C57 or _t386 in _C58 and len(_t385) < _C59 or _t386 in _C60) else
            _P384(_v379, _call_context if _call_context is not None else (
            _call_context := _C34(context)), engine)) != None) if type(_t382
            ) is _C20 and (_d383 := _t382.type.call_sites.get(_M377)
            ) is not None else _M377(_t382, _call_context if _call_context
             is not None else (_call_context := _C34(context)), engine)
        _t392 = _d388(_t387, context, engine, _t390 if _P389 in _v379.type.
            self_reads and _v379.this is None and ((_t391 := type((_t390 :=
            _v379.properties.get('name', _C35)))) is int and _C56 < _t390 <
            _C57 or _t391 in _C58 and len(_t390) < _C59 or _t391 in _C60) else
            _P389(_v379, _call_context if _call_context is not None else (
            _call_context := _C34(context)), engine)) if type(_t387
            ) is _C20 and (_d388 := _t387.type.call_sites.get(_M366)
            ) is not None else _M366(_t387, _call_context if _call_context
             is not None else (_call_context := _C34(context)), engine)
        _t394 = _r.result(_d393(_t392, context, engine, _v379) if type(
            _t392) is _C20 and (_d393 := _t392.type.call_sites.get(_M355))
             is not None else _M355(_t392, _call_context if _call_context
             is not None else (_call_context := _C34(context)), engine))
        return _t394 if caller is None or ((_t395 := type(_t394)) is int and
            _C56 < _t394 < _C57 or _t395 in _C396) else _C397(caller_engine,
            _t394)
    except _C27:
        # WebServer.yaml:58  siteNames:
        raise
    except Exception as _error398:
        raise _C28(_error398, _error398.__traceback__) from None


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
    body=_body348, meta=(), line=30, direct_entry=True, local_variables=
    ('_v42', '_v63', '_v70', '_v94', '_v242', '_v290', '_v303'),
    variable_names=
    ('$1', '$this', '$securityGroupIngress', '$resources', '$template', '$error', '$address')
    ), 'siteNames': _r.MethodSpec('siteNames', usage='Runtime', scope=
    'Public', arguments=(), body=_body400, meta=(), line=58, direct_entry=
    True, local_variables=('_v379',), variable_names=('$1',))}, source_file
    ='<package>/Classes/WebServer.yaml', line=1)
