import os
import sys

# compiled_yaql (yaql text -> mplc compiled function) lives with the conformance tests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "yaql_conformance"))
