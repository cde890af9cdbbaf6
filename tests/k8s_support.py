"""Shared by the k8s conformance tests: the runtime table markergen builds from Go
source, through the real pipeline (tree-sitter, markers, model, table), and a
validate() that answers with (path, type, origin) triples."""

from __future__ import annotations

from pathlib import Path

from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.pipeline import check_model, load_model
from markergen.runtime import Table, validate
from markergen.runtime.tree import JSON

Triple = tuple[str, str, str]


def table_from_go(root: Path, go: str) -> Table:
    (root / "go.mod").write_text("module example.com/k8s\n\ngo 1.24\n", encoding="utf-8")
    (root / "api").mkdir(exist_ok=True)
    (root / "api" / "types.go").write_text(go, encoding="utf-8")
    model = load_model(["./..."], root)
    errors = [d for d in check_model(model) if d.severity.value == "error"]
    assert errors == [], [f"{d.code} {d.pos.line}: {d.message}" for d in errors]
    return Table.from_dict(build_table(model, EmitOptions()))


def errors_of(
    table: Table, type_name: str, obj: JSON, old: JSON, options: frozenset[str]
) -> list[Triple]:
    name = f"com.example.k8s.api.{type_name}"
    return [(e.path, e.type, e.origin) for e in validate(table, name, obj, old, options)]
