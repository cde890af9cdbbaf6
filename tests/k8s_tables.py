"""Build a runtime table from one of testdata/runtime/k8s's Go files, as `markergen
generate` does with `semantics: {k8s: k8s}` (shared by the k8s conformance tests)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from helpers import TESTDATA

from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.model import Model
from markergen.pipeline import check_model, load_model
from markergen.runtime import Table

PREFIX = "com.example.k8s.api."


def load(tmp: Path, name: str) -> Model:
    (tmp / "go.mod").write_text("module example.com/k8s\n\ngo 1.22\n")
    (tmp / "api").mkdir()
    shutil.copy(TESTDATA / "runtime" / "k8s" / name, tmp / "api" / name)
    return load_model(["./..."], tmp)


def table_of(tmp: Path, name: str) -> tuple[Model, dict[str, Any], Table]:
    model = load(tmp, name)
    errors = [f"{d.code} {d.message}" for d in check_model(model) if d.severity.value == "error"]
    assert errors == []
    raw = build_table(model, EmitOptions(semantics={"k8s": "k8s"}))
    return model, raw, Table.from_dict(raw)
