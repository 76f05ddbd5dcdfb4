"""Strict JSON both ways: RFC 8259 text in (no NaN or Infinity, UTF-8), RFC 8259 text out."""

from __future__ import annotations

import json
import math
import sys
from typing import Any


class JsonInputError(ValueError):
    """A request body that is no JSON this service reads; the message says why in JSON's terms."""


def _no_constant(name: str) -> Any:
    raise JsonInputError(f"the body is not JSON: {name} is no JSON value (JSON has no NaN or "
                         f"infinities)")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise JsonInputError(f"the body is not JSON this service reads: the number {text[:40]} "
                             f"is too large for a float")
    return value


def decode(body: bytes) -> Any:
    """A request body as JSON, or a ``JsonInputError``."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise JsonInputError(f"the body is not UTF-8 text (byte {error.start + 1} is no UTF-8)") from None
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except json.JSONDecodeError as error:
        raise JsonInputError(f"the body is not JSON: {error.msg.lower()} at line {error.lineno}, "
                             f"column {error.colno}") from None
    except RecursionError:
        raise JsonInputError("the body is not JSON this service reads: it nests lists and "
                             "objects too deeply") from None
    except JsonInputError:
        raise
    except ValueError:
        raise JsonInputError(f"the body is not JSON this service reads: a number has more than "
                             f"{sys.get_int_max_str_digits()} digits") from None


class JsonOutputError(ValueError):
    """A value that JSON cannot carry (NaN, an infinity)."""


def encode(value: Any) -> bytes:
    """``value`` as UTF-8 JSON text. A lone surrogate (no UTF-8 can carry it) is written as its
    ``\\uXXXX`` escape, which JSON allows; NaN and infinities are refused."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except RecursionError:
        raise JsonOutputError("the answer nests lists and objects too deeply for JSON text") from None
    except ValueError:
        raise JsonOutputError("the answer holds NaN or an infinity, which JSON cannot carry") from None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, allow_nan=False).encode("ascii")
