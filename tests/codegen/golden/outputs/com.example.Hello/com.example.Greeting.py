# Greeting.yaml:1  Namespaces:
import mplc.runtime as _r
_ENGINE = _r.engine_for('1.3.0')


# Greeting.yaml:8  Contract: $.string().notNull()
@_r.contracts.passes_unchanged('str')
def _contract1(value, cc):
    if value is _r.contracts.PASSKEY:
        return value
    value = _r.contracts.string(value, cc)
    value = _r.contracts.not_null(value, cc)
    return _r.contracts.freeze(value)


# Greeting.yaml:1  Namespaces:
CLASS = _r.ClassSpec(name='com.example.Greeting', package=None, extends=(
    'io.murano.Object',), namespaces={'=': 'com.example'}, usage='Class',
    cardinality=None, applies=(), inherited=False, meta=(), imports=(),
    properties={'person': _r.PropertySpec('person', usage='In', contract=
    _contract1, loads_objects=False, value_only=True, default=None,
    has_default=False, meta=(), line=7), 'text': _r.PropertySpec('text',
    usage='In', contract=_contract1, loads_objects=False, value_only=True,
    default=None, has_default=False, meta=(), line=10)}, methods={},
    source_file='<package>/Classes/Greeting.yaml', line=1)
