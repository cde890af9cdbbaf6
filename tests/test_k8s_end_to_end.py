"""From Go `+k8s:` tags to validate(): the runtime table with `semantics: {k8s: k8s}`
records each union's gate, and validate() gives validation-gen's verdict (k8s semantics are
the default for `+k8s:` unions; the config line some tests write is the explicit form)."""

from __future__ import annotations

import json
from pathlib import Path

from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.pipeline import check_model, load_model
from markergen.runtime import Table, validate

GO = """package api

type Spec struct {
	// +k8s:unionMember
	// +optional
	A *string `json:"a,omitempty"`
	// +k8s:unionMember
	// +optional
	B *string `json:"b,omitempty"`

	// +k8s:ifEnabled(GateX)=+k8s:zeroOrOneOfMember(union: "z")
	// +optional
	X string `json:"x,omitempty"`
	// +k8s:ifEnabled(GateX)=+k8s:zeroOrOneOfMember(union: "z")
	// +optional
	Y string `json:"y,omitempty"`
}
"""


def _table(tmp_path: Path) -> tuple[Table, str]:
    (tmp_path / "go.mod").write_text("module example.com/e2e\n\ngo 1.22\n")
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "types.go").write_text(GO)
    model = load_model(["./..."], tmp_path)
    assert [d for d in check_model(model) if d.severity.name == "ERROR"] == []
    raw = build_table(model, EmitOptions(semantics={"k8s": "k8s"}))
    [name] = [n for n in raw["types"] if n.endswith(".Spec")]
    unions = raw["types"][name]["unions"]
    assert [(u["semantics"], u.get("gate")) for u in unions] == [("k8s", None), ("k8s", "GateX")]
    return Table.from_dict(raw), name


def test_verdicts_follow_validation_gen(tmp_path: Path) -> None:
    table, spec = _table(tmp_path)

    def got(obj: dict[str, object], old: object = None, options: frozenset[str] = frozenset()):
        return [(e.path, e.type, e.origin) for e in validate(table, spec, obj, old, options)]

    assert got({"a": "x"}) == []
    # a non-nil pointer is set, even to "" (validation-gen's member test is `!= nil`)
    assert got({"a": ""}) == []
    assert got({"a": None}) == [("", "Invalid", "union")]
    assert got({"a": "x", "b": "y"}) == [("", "Invalid", "union")]
    assert got({"a": "x", "b": "y"}, {"a": "1", "b": "2"}) == []  # ratcheting
    both = {"a": "x", "x": "1", "y": "2"}
    assert got(both) == []  # GateX off: the wrapped union is not checked
    assert got(both, options=frozenset({"GateX"})) == [("", "Invalid", "zeroOrOneOf")]


def test_validate_option_flag_enables_gated_unions(tmp_path: Path) -> None:
    from helpers import run_cli

    (tmp_path / "go.mod").write_text("module example.com/e2e\n\ngo 1.22\n")
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "types.go").write_text(GO)
    (tmp_path / "markergen.yaml").write_text("semantics:\n  k8s: k8s\n")
    assert run_cli(["generate"], tmp_path).code == 0
    (tmp_path / "obj.yaml").write_text("a: x\nx: '1'\ny: '2'\n")
    assert run_cli(["validate", "--type", "Spec", "obj.yaml"], tmp_path).code == 0
    res = run_cli(["validate", "--type", "Spec", "--option", "GateX", "obj.yaml"], tmp_path)
    assert res.code == 1 and res.stdout.count("\n") == 1, res.stdout


def test_validate_json_output_carries_origin(tmp_path: Path) -> None:
    """`--format json` keeps what the text line cannot: validation-gen's origin (and
    stage), beside the path, the type and the detail."""
    from helpers import run_cli

    (tmp_path / "go.mod").write_text("module example.com/e2e\n\ngo 1.22\n")
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "types.go").write_text(GO)
    assert run_cli(["generate"], tmp_path).code == 0
    (tmp_path / "obj.yaml").write_text("a: x\nx: '1'\ny: '2'\n")
    text = run_cli(["validate", "--type", "Spec", "--option", "GateX", "obj.yaml"], tmp_path)
    res = run_cli(
        ["validate", "--type", "Spec", "--option", "GateX", "--format", "json", "obj.yaml"],
        tmp_path,
    )
    assert res.code == 1
    records = json.loads(res.stdout)
    assert [(r["path"], r["type"], r["origin"], r["stage"]) for r in records] == [
        ("", "Invalid", "zeroOrOneOf", "")
    ]
    assert [r["error"] for r in records] == text.stdout.splitlines()
    (tmp_path / "ok.yaml").write_text("a: x\nx: '1'\n")
    ok = run_cli(["validate", "--type", "Spec", "--format", "json", "ok.yaml"], tmp_path)
    assert ok.code == 0 and json.loads(ok.stdout) == []
