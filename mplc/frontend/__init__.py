"""Front end: package and manifest reading, class YAML -> IR, YAQL parsing, diagnostics.

Never imports mplc.runtime, mplc.codegen or mplc.contracts.
"""
