# manifest.yaml:1  Format: 1.0
import mplc.runtime as _r
PACKAGE = _r.PackageSpec(full_name='com.example.legacy.Tools', version=
    '0.0.0', format='MuranoPL/1.0.0', type='Library', requirements={},
    classes={'com.example.legacy.Counter': 'c0000',
    'com.example.legacy.Tools': 'c0001'}, manifest={'Name': 'Legacy tools',
    'Description':
    "A Format 1.0 library (yaql's legacy library), as older packages are.",
    'Author': 'mplc tests', 'Supplier': None, 'Tags': (), 'Logo': None,
    'UI': None})
