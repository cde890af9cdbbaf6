"""Serializers of the outputs: deterministic JSON text and inert Python literals.

Values never reach the text raw: each one goes through `tojson` (JSON text) or
`pyliteral` (a Python literal), so a description holding quotes, braces or newlines
cannot break the document or inject code into the generated module.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from markergen.emit.fastjson import dumps_indented


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


def pyliteral(value: Any, indent: int = 4, level: int = 0) -> str:
    """A Python literal that `ast.literal_eval` reads back to an equal value.

    Dict keys are sorted so the text is deterministic; tuples become lists so the
    literal mirrors the JSON table exactly.
    """
    return _py(value, indent, level)


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
