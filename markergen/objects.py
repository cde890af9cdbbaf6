"""Reading and writing the objects of `markergen normalize` / `validate` (YAML or JSON,
from files or standard input), and running the runtime on them."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class ObjectError(Exception):
    """An object file that cannot be read or parsed; the message names the file and,
    for syntax errors, the line and column (exit code 2)."""


@dataclass(frozen=True)
class Loaded:
    value: Any
    was_json: bool


def load_object(name: str) -> Loaded:
    """`name` is a path or `-` for standard input. JSON is tried first (its errors are
    the more precise), then YAML; the output is written in the same syntax."""
    import yaml

    shown = "<stdin>" if name == "-" else name
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ObjectError(f"{shown}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            return Loaded(json.loads(text), True)
        except json.JSONDecodeError as e:
            raise ObjectError(f"{shown}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}") from None
    try:
        return Loaded(yaml.safe_load(text), False)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or "not valid YAML"
        raise ObjectError(f"{shown}{where}: {problem}") from None


def dump_object(value: Any, as_json: bool) -> str:
    import yaml

    if as_json:
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return str(yaml.safe_dump(value, sort_keys=False, allow_unicode=True, default_flow_style=False))


def resolve_type(names: list[str], wanted: str) -> str:
    """A definition name of the table: exact, or the one ending in `.wanted`."""
    if wanted in names:
        return wanted
    matches = sorted(n for n in names if n.endswith("." + wanted))
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise ObjectError(f"type {wanted!r} is not in the table")
    raise ObjectError(f"type {wanted!r} is ambiguous: {', '.join(matches)}")
