"""One union written twice (`+union` on the struct, `+k8s:unionMember` on its members,
as kubernetes/api does) is one union: one table entry, one OpenAPI entry."""

from __future__ import annotations

from pathlib import Path

from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.pipeline import load_model

GO = """package api

// Exactly one policy must be set.
// +union
type Policy struct {
	// +optional
	// +k8s:optional
	// +k8s:unionMember
	Basic *Basic `json:"basic,omitempty"`
	// +optional
	// +k8s:optional
	// +k8s:unionMember
	Gang *Basic `json:"gang,omitempty"`
}

// +union
type Other struct {
	// +optional
	A *Basic `json:"a,omitempty"`
	// +optional
	// +k8s:zeroOrOneOfMember
	B *Basic `json:"b,omitempty"`
	// +optional
	// +k8s:zeroOrOneOfMember
	C *Basic `json:"c,omitempty"`
}

type Basic struct {
	N int32 `json:"n"`
}
"""


def test_one_union_entry(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/twice\n\ngo 1.22\n")
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "types.go").write_text(GO)
    model = load_model(["./..."], tmp_path)
    by_name = {s.key.split(".")[-1]: s for s in model.structs.values()}
    [union] = by_name["Policy"].unions
    assert union.dialect == "k8s" and union.mode == "exactly-one"
    # different members: two unions, both kept
    assert sorted(u.dialect for u in by_name["Other"].unions) == ["k8s", "kep2019"]
    types = build_table(model, EmitOptions())["types"]
    [policy] = [t for n, t in types.items() if n.endswith(".Policy")]
    assert [sorted(m["field"] for m in u["members"]) for u in policy["unions"]] == [
        ["basic", "gang"]
    ]
