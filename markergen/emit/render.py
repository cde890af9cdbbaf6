"""Serializers of the outputs: deterministic JSON text and inert Python literals.

Values never reach the text raw: each one goes through `tojson` (JSON text) or
`pyliteral` (a Python literal), so a description holding quotes, braces or newlines
cannot break the document or inject code into the generated module.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from json.encoder import encode_basestring  # the C escaper when _json is available
from typing import Any

from markergen.emit.fastjson import dumps_indented, member_text


def tojson(value: Any, indent: int | None = None, level: int = 0) -> str:
    """Deterministic JSON text.

    With `indent`, nested output is shifted by `level` indents so a value placed inside a
    template's own object keeps a uniform two-space layout. JSON strings never hold a raw
    newline (they are escaped), so re-indenting on newlines cannot alter a value.
    """
    if indent is not None:
        return dumps_indented(value, indent, level)
    return json.dumps(
        value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "), allow_nan=False
    )


def json_object(members: Iterable[tuple[str, Any] | None], level: int = 0) -> Iterator[str]:
    """The text `tojson(dict(members), 2, level)` writes, one piece per member, for a
    template to stream an object too large to hold:
    `{% for text in members | json_object(1) %}{{ text }}{% endfor %}`.

    `members` are (key, value) pairs in the order of sorted keys (as `tojson` writes
    them; a key out of order is an error, so the text cannot differ from `tojson`'s).
    A None in their place writes nothing (an empty piece): an output read from a pass
    shared with others keeps in step with them (markergen.emit.schemapass).
    """
    inner = "\n" + "  " * (level + 1)
    sep = "{" + inner
    head = "{\n"
    last: str | None = None
    for member in members:
        if member is None:
            yield ""
            continue
        key, value = member
        if last is not None and not last < key:
            raise ValueError(f"json_object: key {key!r} after {last!r}: keys must be sorted")
        last = key
        text = member_text(key, value, level + 1) if type(key) is str else None
        if text is not None:
            yield head + text
        else:
            yield f"{sep}{encode_basestring(key)}: {dumps_indented(value, 2, level + 1)}"
        sep = "," + inner
        head = ",\n"
    yield "{}" if last is None else "\n" + "  " * level + "}"


def pyliteral(value: Any, indent: int = 4, level: int = 0) -> str:
    """A Python literal that `ast.literal_eval` reads back to an equal value.

    Dict keys are sorted so the text is deterministic; tuples become lists so the
    literal mirrors the JSON table exactly.
    """
    out: list[str] = []
    _py_plain(value, out, indent, level, {})
    return "".join(out)


def pyliteral_dict(
    members: Iterable[tuple[str, Any]], indent: int = 4, level: int = 0
) -> Iterator[str]:
    """The text `pyliteral(dict(members), indent, level)` writes, one piece per member
    (as `json_object` for JSON): `members` are (key, value) pairs in sorted key order
    (a key out of order is an error)."""
    pad = " " * (indent * (level + 1))
    head = "{\n"
    last: str | None = None
    heads: _Heads = {}  # shared by the members: their keys repeat from one to the next
    for key, value in members:
        if type(key) is not str:
            raise TypeError(f"pyliteral: dict key {key!r} is not a string")
        if last is not None and not last < key:
            raise ValueError(f"pyliteral_dict: key {key!r} after {last!r}: keys must be sorted")
        last = key
        out = [f"{head}{pad}{key!r}: "]
        _py_plain(value, out, indent, level + 1, heads)
        out.append(",\n")
        yield "".join(out)
        head = ""
    yield "{}" if last is None else " " * (indent * level) + "}"


# Per nesting level, the text that opens a dict's member line, `    'key': `, by key.
_Heads = dict[int, dict[str, str]]


def _py_plain(value: Any, out: list[str], indent: int, level: int, heads: _Heads) -> None:
    """`_py`'s text, appended to `out` piece by piece with exact type tests: the runtime
    table of an API tree is tens of thousands of small dicts, lists and strings, and
    building one string per value was most of its rendering time. A scalar member or
    item is written with its line in one piece, and a key's line head is made once per
    level (`heads`). Anything but plain dicts, lists, tuples, strings, ints, bools and
    None (a float, a subclass, a key that is not a string) is written by `_py`, so the
    text never differs."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        out.append(repr(value))
        return
    if kind is dict and value:
        start = len(out)
        at = heads.get(level)
        if at is None:
            at = heads[level] = {}
        pad = ""
        out.append("{\n")
        try:
            for key in sorted(value):
                line = at.get(key) if type(key) is str else None
                if line is None:
                    if type(key) is not str:
                        raise TypeError
                    if not pad:
                        pad = " " * (indent * (level + 1))
                    line = at[key] = f"{pad}{key!r}: "
                item = value[key]
                t = type(item)
                if t is str or t is int or t is bool or item is None:
                    out.append(f"{line}{item!r},\n")
                else:
                    out.append(line)
                    _py_plain(item, out, indent, level + 1, heads)
                    out.append(",\n")
        except (TypeError, ValueError):
            # A key that is not a string (or keys that do not sort), a value without a
            # literal: `_py` writes the whole dict again and raises its error, the one
            # it would have raised first.
            del out[start:]
            out.append(_py(value, indent, level))
            return
        out.append(" " * (indent * level) + "}")
        return
    if (kind is list or kind is tuple) and value:
        pad = " " * (indent * (level + 1))
        out.append("[\n")
        for item in value:
            t = type(item)
            if t is str or t is int or t is bool or item is None:
                out.append(f"{pad}{item!r},\n")
            else:
                out.append(pad)
                _py_plain(item, out, indent, level + 1, heads)
                out.append(",\n")
        out.append(" " * (indent * level) + "]")
        return
    out.append(_py(value, indent, level))


def _py(value: Any, indent: int, level: int) -> str:
    # bool before int: bool is a subclass of int
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"pyliteral: {value!r} has no Python literal")
        return repr(value)
    if isinstance(value, str):
        # repr escapes quotes, backslashes, newlines and non-printable characters
        # (U+2028 included), so the literal is always one well-formed token.
        return repr(value)
    pad = " " * (indent * (level + 1))
    end = " " * (indent * level)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        keys = list(value)
        for k in keys:
            if not isinstance(k, str):
                raise TypeError(f"pyliteral: dict key {k!r} is not a string")
        items = [f"{pad}{k!r}: {_py(value[k], indent, level + 1)}," for k in sorted(keys)]
        return "{\n" + "\n".join(items) + "\n" + end + "}"
    if isinstance(value, Sequence):
        if not value:
            return "[]"
        items = [f"{pad}{_py(v, indent, level + 1)}," for v in value]
        return "[\n" + "\n".join(items) + "\n" + end + "]"
    raise TypeError(f"pyliteral: {type(value).__name__} has no Python literal")
