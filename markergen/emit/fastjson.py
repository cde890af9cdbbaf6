"""Indented, key-sorted JSON text, byte-identical to `json.dumps` and written by orjson.

`json.dumps(..., indent=N)` cannot use the C encoder (CPython only uses it without an
indent) and falls back to a generator-based pure-Python encoder; rendering the OpenAPI
documents of kubernetes/api spent most of its time there. With two-space indents,
orjson (Rust) writes the same text (`OPT_INDENT_2 | OPT_SORT_KEYS`: same separators,
same escapes — `ensure_ascii=False` escapes only `"`, `\\` and control characters, with
the same short forms — keys sorted by code point, floats the same shortest round-trip
digits). It differs from json.dumps only where these checks send the value to
json.dumps instead, which then writes the text (or refuses the value) as it always did:
- anything but plain dict, list, tuple, str, int, float, bool, None (subclasses,
  dataclasses, dates: passed through to `default`, which refuses them), non-str keys,
  integers beyond 64 bits, nesting deeper than orjson's limit, lone surrogates: orjson
  raises;
- floats below 1e-4 in magnitude, which Python writes `1e-05` and orjson `0.00001` or
  `1.5e-7`: the text has a digit before `e-`, or `0.0000`;
- NaN and infinities, which orjson writes as `null` where json.dumps refuses them: a
  text with a `null` (a `fieldMembers` value that selects no member, a table's entry)
  is kept only once reading it back gives the value again (a NaN never equals the None
  read in its place), or else json.dumps without indent, which is C code, has refused
  no float of the value; otherwise json.dumps raises its ValueError.
A false alarm (such text inside a description) only costs the slower encoder for that
value. Another indent than two (a project's template) is json.dumps' too.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import orjson


def dumps_indented(value: Any, indent: int, level: int = 0) -> str:
    """`json.dumps(value, sort_keys=True, ensure_ascii=False, indent=indent,
    separators=(",", ": "), allow_nan=False)`, shifted right by `level` indents."""
    text = _orjson_indented(value) if indent == 2 else None
    if text is None:
        text = json.dumps(
            value, sort_keys=True, ensure_ascii=False, indent=indent, separators=(",", ": "),
            allow_nan=False,
        )  # fmt: skip
    return text.replace("\n", "\n" + " " * (indent * level)) if level else text


def _refuse(value: Any) -> Any:
    raise TypeError


def _orjson_indented(value: Any) -> str | None:
    """orjson's text of `value`, or None where it might differ from json.dumps'."""
    data = _orjson_checked(value)
    return None if data is None else data.decode("utf-8")


def _orjson_checked(value: Any) -> bytes | None:
    """orjson's UTF-8 text of `value`, or None where it might differ from json.dumps'."""
    try:
        data = orjson.dumps(value, default=_refuse, option=_OPTIONS)
    except (orjson.JSONEncodeError, TypeError):
        return None
    if b"0.0000" in data:
        return None
    if b"null" in data and not _finite(value, data):
        return None
    # A digit before `e-`: looked for only where `e-` occurs (words like "re-create"
    # have it too; a search for the ten digit-led patterns read the text ten times).
    at = data.find(b"e-")
    while at > 0:
        if 48 <= data[at - 1] <= 57:
            return None
        at = data.find(b"e-", at + 2)
    return data


def _finite(value: Any, data: bytes) -> bool:
    """Whether `value`, written as `data` by orjson, holds no NaN or infinity (which
    orjson writes as `null`, like None). Reading the text back gives an equal value
    only when every `null` was a None (a NaN never equals what replaced it); otherwise
    json.dumps' C encoder (no indent) tells them apart, which is slower."""
    try:
        if orjson.loads(data) == value:
            return True
    except (orjson.JSONDecodeError, ValueError, TypeError):  # pragma: no cover - defensive
        pass
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        return False
    return True


def member_text(key: str, value: Any, depth: int) -> str | None:
    """The text `"key": value` as a member of an object at nesting `depth` (1: of the
    top-level object), indented as `dumps_indented` writes it inside that object, with
    its leading indent; None where only `dumps_indented` gives the right text.

    orjson writes the member wrapped in `depth` objects, and the text is cut out of
    that: its indents are then already right, where shifting a value's text written on
    its own means a replace over all of it."""
    wrapped: Any = {key: value}
    for _ in range(depth - 1):
        wrapped = {"": wrapped}
    data = _orjson_checked(wrapped)
    if data is None:
        return None
    head, tail = _cuts(depth)
    return data[head : len(data) - tail].decode("utf-8")


@functools.cache
def _cuts(depth: int) -> tuple[int, int]:
    """How many bytes a member wrapped `depth` times has before and after it."""
    wrapped: Any = {"k": 0}
    for _ in range(depth - 1):
        wrapped = {"": wrapped}
    data = orjson.dumps(wrapped, option=_OPTIONS)
    start = data.index(b'"k": 0')
    return start - 2 * depth, len(data) - start - len(b'"k": 0')


_OPTIONS = (
    orjson.OPT_INDENT_2
    | orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)
