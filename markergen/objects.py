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
    line: int = 1  # where the document starts in its file


def load_object(name: str) -> Loaded:
    """`name` is a path or `-` for standard input. JSON is tried first (its errors are
    the more precise), then YAML; the output is written in the same syntax. A YAML
    stream of several documents is an error here (normalize writes one object)."""
    docs = load_objects(name)
    if len(docs) != 1:
        shown = "<stdin>" if name == "-" else name
        raise ObjectError(f"{shown}: expected one object, found {len(docs)} YAML documents")
    return docs[0]


def load_objects(name: str) -> list[Loaded]:
    """Every object of a file: one JSON value, or each document of a YAML stream (as
    kubectl applies them; empty documents are skipped)."""
    shown = "<stdin>" if name == "-" else name
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ObjectError(f"{shown}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            return [Loaded(json.loads(text), True)]
        except json.JSONDecodeError as e:
            raise ObjectError(f"{shown}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}") from None
    from markergen.yamlread import YamlError, compose_documents, to_value

    try:
        out = []
        for node in compose_documents(text):
            value = to_value(node)
            if value is not None:  # an empty document, as kubectl skips it
                out.append(Loaded(value, False, node.start_mark.line + 1))
        return out or [Loaded(None, False)]
    except YamlError as e:
        raise ObjectError(f"{shown}:{e.line}:{e.column}: {e.message}") from None


def dump_object(value: Any, as_json: bool) -> str:
    import yaml

    if as_json:
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return str(yaml.safe_dump(value, sort_keys=False, allow_unicode=True, default_flow_style=False))


def resolve_type(names: list[str], wanted: str) -> str:
    """A definition name of the table: exact, or the one ending in `.wanted`; the
    runtime's own rule (`markergen.runtime.table.resolve_name`), so the library and the
    command line take the same short names and name the same candidates."""
    from markergen.runtime.table import resolve_name

    return resolve_name(names, wanted)


def kind_note(value: Any, type_name: str, names: list[str], shown: str) -> str | None:
    """The note for an object whose own `apiVersion` and `kind` name another type than
    the one it is checked as (`--type Auth` given a whole Guestbook): its errors are
    about the wrong type, and would not say so. None when they agree."""
    if not isinstance(value, dict):
        return None
    kind, api = value.get("kind"), value.get("apiVersion")
    short = type_name.rsplit(".", 1)[-1]
    if not isinstance(kind, str) or not isinstance(api, str) or kind == short:
        return None
    note = f"{shown}: the object is a {kind} ({api}), but it was checked as type {short}"
    if any(n.rsplit(".", 1)[-1] == kind for n in names):
        return (
            f"{note}: give `--type {kind}` to check the whole object, "
            f"or give only its {short} value"
        )
    return f"{note}: give only its {short} value, or the type of the whole object"

