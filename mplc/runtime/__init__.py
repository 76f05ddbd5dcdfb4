"""Runtime: objects, object store, class loading, natives, yaql bridge.

Never imports mplc.frontend, mplc.codegen or mplc.contracts. The names generated modules use
are listed in docs/compiled-modules.md.
"""
