"""Contracts: contract IR -> validator code and json-schema (one compilation, two outputs)."""

from mplc.contracts.compiler import ContractCompiler

__all__ = ["ContractCompiler"]
