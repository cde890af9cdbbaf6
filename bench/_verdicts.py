"""Shared by the bench scripts that validate real objects (validate_samples.py,
validate_openshift_suites.py): the runtime table of a checkout and the rejections of its
objects, grouped by kind and message."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from markergen.emit.naming import key_definition_name
from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.model import Model
from markergen.pipeline import load_model
from markergen.project.locate import root_type
from markergen.runtime import Table, validate


class Validator:
    """The model and runtime table of `patterns` under `root`."""

    def __init__(self, patterns: Sequence[str], root: Path) -> None:
        self.model: Model = load_model(list(patterns), root)
        self.table = Table.from_dict(build_table(self.model, EmitOptions()))

    def errors(self, obj: dict[str, Any], old: Any = None) -> list[str] | None:
        """markergen's errors for `obj` (updated from `old`), or None when its
        apiVersion and kind name no root type of the model."""
        group, _, version = str(obj.get("apiVersion", "")).rpartition("/")
        found = root_type(self.model, group, obj["kind"], version)
        if found is None:
            return None
        return [str(e) for e in validate(self.table, key_definition_name(found.key), obj, old=old)]


class Rejections:
    """Errors grouped by shape (kind and message, list indexes as [i]), with where each
    shape was seen."""

    def __init__(self) -> None:
        self.grouped: dict[str, list[str]] = defaultdict(list)

    def add(self, kind: str, errors: Sequence[str], where: str) -> None:
        for e in errors:
            self.grouped[re.sub(r"\[\d+\]", "[i]", f"{kind} {e}")].append(where)

    def print(self, every: bool) -> None:
        """The shapes, most frequent first, with one example each (`every`: all)."""
        for shape, wheres in sorted(self.grouped.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(wheres):4d}  {shape}")
            for w in wheres if every else wheres[:1]:
                print(f"          {w}")
