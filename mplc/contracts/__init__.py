"""Contracts: contract IR -> validator code and json-schema (one compilation, two outputs)."""

from mplc.contracts.compiler import ContractCompiler, loads_objects

__all__ = ["ContractCompiler", "loads_objects"]
