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


def object_type(names: list[str], value: Any, wanted: str | None, shown: str) -> str:
    """The definition name an object is validated as: the one its own `apiVersion` and
    `kind` name (and `wanted`, the `--type` given, when there is one), else `wanted` by
    `resolve_type`. `--type Build` in a table with two kinds named Build is ambiguous by
    itself, but not for an object of `apiVersion: build.openshift.io/v1`."""
    from markergen.runtime.errors import TableError

    kind = value.get("kind") if isinstance(value, dict) else None
    api_version = value.get("apiVersion") if isinstance(value, dict) else None
    if isinstance(kind, str) and isinstance(api_version, str) and kind:
        found = _by_kind(names, api_version, kind)
        if wanted is not None:
            found = [n for n in found if n == wanted or n.endswith("." + wanted)]
        if len(found) == 1:
            return found[0]
    if wanted is not None:
        return resolve_type(names, wanted)
    if isinstance(kind, str) and isinstance(api_version, str) and kind:
        matches = sorted(n for n in names if n.endswith("." + kind))
        if not matches:
            raise TableError(
                f"{shown}: the table has no type for kind {kind!r} ({api_version}); give --type",
                "types",
            )
        raise TableError(
            f"{shown}: kind {kind!r} ({api_version}) may be {', '.join(matches)}; give --type",
            "types",
        )
    raise TableError(f"{shown}: the object has no apiVersion and kind; give --type", "types")


def _by_kind(names: list[str], api_version: str, kind: str) -> list[str]:
    """The definitions of kind `kind` that `apiVersion` selects: of its version (the
    package segment before the type's name, `...v1.Build`), then those whose package path
    shares the most labels with its group (`build.openshift.io` and
    `com.github.openshift.api.build.v1.Build`: build, openshift)."""
    group, _, version = api_version.rpartition("/")
    found = sorted(n for n in names if n.endswith("." + kind))
    same_version = [n for n in found if n.split(".")[-2:-1] == [version]]
    found = same_version or found
    if len(found) <= 1 or not group:
        return found
    labels = set(group.split("."))

    def shared(name: str) -> int:
        return len(labels & set(name.split(".")[:-2]))

    best = max(shared(n) for n in found)
    return [n for n in found if shared(n) == best]


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

