# manifest.yaml:1  Format: 1.3
import mplc.runtime as _r
PACKAGE = _r.PackageSpec(full_name='com.example.Hello', version='0.0.0',
    format='MuranoPL/1.3.0', type='Application', requirements={}, classes={
    'com.example.Greeting': 'c0000', 'com.example.Hello': 'c0001'},
    manifest={'Name': 'Hello', 'Description':
    """Greets a list of people with a greeting template taken from the package's
Resources, skipping the people who asked not to be greeted.
"""
    , 'Author': 'mplc', 'Supplier': None, 'Tags': ('example', 'hello'),
    'Logo': None, 'UI': None})
