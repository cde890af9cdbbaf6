"""Shared by the k8s conformance tests: the runtime table markergen builds from Go source
(one of testdata/runtime/k8s's files, or text a test holds), through the real pipeline
(tree-sitter, markers, model, table), and validate() answering with tuples to compare."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from helpers import TESTDATA

from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.model import Model
from markergen.pipeline import check_model, load_model
from markergen.runtime import Table, validate
from markergen.runtime.tree import JSON

PREFIX = "com.example.k8s.api."

Triple = tuple[str, str, str]  # path, type, origin
Quad = tuple[str, str, str, str]  # path, type, origin, stage


def _module(root: Path) -> Path:
    """A Go module at `root`; its package directory, where a test puts its file. The
    package runs validation-gen (testdata/runtime/k8s/doc.go's `+k8s:validation-gen=`)."""
    (root / "go.mod").write_text("module example.com/k8s\n\ngo 1.24\n", encoding="utf-8")
    (root / "api").mkdir(exist_ok=True)
    shutil.copy(TESTDATA / "runtime" / "k8s" / "doc.go", root / "api" / "doc.go")
    return root / "api"


def _checked(model: Model) -> Model:
    errors = [d for d in check_model(model) if d.severity.value == "error"]
    assert errors == [], [f"{d.code} {d.pos.line}: {d.message}" for d in errors]
    return model


def load(tmp: Path, name: str) -> Model:
    """The model of testdata/runtime/k8s/`name`."""
    shutil.copy(TESTDATA / "runtime" / "k8s" / name, _module(tmp) / name)
    return load_model(["./..."], tmp)


def table_of(tmp: Path, name: str) -> tuple[Model, dict[str, Any], Table]:
    """testdata/runtime/k8s/`name` as `markergen generate` with `semantics: {k8s: k8s}`."""
    model = _checked(load(tmp, name))
    raw = build_table(model, EmitOptions(semantics={"k8s": "k8s"}))
    return model, raw, Table.from_dict(raw)


def table_from_go(root: Path, go: str) -> Table:
    """The table of the Go file `go`, with the default options."""
    (_module(root) / "types.go").write_text(go, encoding="utf-8")
    model = _checked(load_model(["./..."], root))
    return Table.from_dict(build_table(model, EmitOptions()))


def errors_of(
    table: Table, type_name: str, obj: JSON, old: JSON, options: frozenset[str]
) -> list[Triple]:
    return [
        (e.path, e.type, e.origin) for e in validate(table, PREFIX + type_name, obj, old, options)
    ]


def staged_errors_of(
    table: Table, type_name: str, obj: JSON, old: JSON, options: frozenset[str] = frozenset()
) -> list[Quad]:
    errors = validate(table, PREFIX + type_name, obj, old, options)
    return [(e.path, e.type, e.origin, e.stage) for e in errors]
