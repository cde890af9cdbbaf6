"""Indented, key-sorted JSON text, byte-identical to `json.dumps` but several times faster.

`json.dumps(..., indent=N)` cannot use the C encoder (CPython only uses it without an
indent) and falls back to a generator-based pure-Python encoder; rendering the OpenAPI
documents of kubernetes/api spent most of its time there. This encoder writes the same
text with plain recursion into one list, using the C string escaper. It handles exactly
the plain JSON types (dict with str keys, list, tuple, str, int, float, bool, None);
anything else — subclasses, non-str keys — is left to `json.dumps`, so the output never
differs from it.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring  # the C escaper when _json is available
from typing import Any


class _NotPlain(Exception):
    """A value this encoder does not handle; the caller falls back to json.dumps."""


def dumps_indented(value: Any, indent: int, level: int = 0) -> str:
    """`json.dumps(value, sort_keys=True, ensure_ascii=False, indent=indent,
    separators=(",", ": "), allow_nan=False)`, shifted right by `level` indents."""
    out: list[str] = []
    try:
        _encode(value, out, "\n" + " " * (indent * level), " " * indent)
    except (_NotPlain, RecursionError):
        text = json.dumps(
            value, sort_keys=True, ensure_ascii=False, indent=indent, separators=(",", ": "),
            allow_nan=False,
        )
        return text.replace("\n", "\n" + " " * (indent * level)) if level else text
    return "".join(out)


def _encode(value: Any, out: list[str], newline: str, step: str) -> None:
    # Exact type tests on purpose: subclasses (str enums, IntEnum, OrderedDict...) go
    # to json.dumps, which has its own rules for them.
    kind = type(value)
    if kind is str:
        out.append(encode_basestring(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + step
        sep = "{" + inner
        try:
            keys = sorted(value)
        except TypeError:
            raise _NotPlain from None
        for key in keys:
            if type(key) is not str:
                raise _NotPlain
            item = value[key]
            # Strings are most leaves: written here, without a call per value.
            if type(item) is str:
                out.append(f"{sep}{encode_basestring(key)}: {encode_basestring(item)}")
            else:
                out.append(f"{sep}{encode_basestring(key)}: ")
                _encode(item, out, inner, step)
            sep = "," + inner
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + step
        sep = "[" + inner
        for item in value:
            if type(item) is str:
                out.append(sep + encode_basestring(item))
            else:
                out.append(sep)
                _encode(item, out, inner, step)
            sep = "," + inner
        out.append(newline + "]")
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float:
        if not math.isfinite(value):
            raise _NotPlain  # json.dumps raises its own ValueError for these
        out.append(float.__repr__(value))
    else:
        raise _NotPlain
