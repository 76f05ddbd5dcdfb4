"""Contracts: contract IR -> validator code and json-schema (one compilation, two outputs)."""
