"""Contracts: contract IR -> validator code and json-schema (one compilation, two outputs)."""

from mplc.contracts.compiler import ContractCompiler, loads_objects, reads_value_only

__all__ = ["ContractCompiler", "loads_objects", "reads_value_only"]
