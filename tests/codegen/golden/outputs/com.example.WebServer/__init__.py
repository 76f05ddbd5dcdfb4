# manifest.yaml:1  Format: MuranoPL/1.4
import mplc.runtime as _r
PACKAGE = _r.PackageSpec(full_name='com.example.WebServer', version='0.0.0',
    format='MuranoPL/1.4.0', type='Application', requirements={}, classes={
    'com.example.WebServer': 'c0000'}, manifest={'Name': 'Web server',
    'Description':
    'A web server on one Linux instance, as application packages are usually written.'
    , 'Author': 'mplc tests', 'Supplier': None, 'Tags': ('Web', 'Server'),
    'Logo': None, 'UI': None})
