"""A discriminator of an integer (or boolean) enum type, end to end (issue 18, item 1):
the runtime table holds numbers, the runtime compares JSON values of the union's type
(the string "1" is not the number 1), the CRD rules compare `self.mode == 1` and are
proved with the real CEL engine, and `diff` classifies an added or removed number like
a string value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from markergen.accept.celeval import CelEvaluator
from markergen.crd.cel import union_rules
from markergen.crd.prove import prove_union
from markergen.diff import run_diff
from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.model import Model
from markergen.pipeline import load_model
from markergen.runtime import Table, normalize, validate

TYPES = """package v1

// Mode selects where data is kept.
// +enum
type Mode int32

const (
	ModeDisk Mode = iota + 1
	ModeNet
{extra})

type Disk struct {{
	Size int32 `json:"size"`
}}

type Net struct {{
	URL string `json:"url"`
}}

type Store struct {{
	// +unionDiscriminator
	// +required
	Mode Mode `json:"mode"`
	// +unionMember=1
	// +optional
	Disk *Disk `json:"disk,omitempty"`
	// +unionMember=2
	// +optional
	Net *Net `json:"net,omitempty"`
}}

type Switch struct {{
	// +kubebuilder:validation:Enum=true;false
	On bool `json:"on"`
	// +kubebuilder:validation:Enum=1;2;4
	Level int32 `json:"level"`
}}
"""
STORE = "com.example.m.v1.Store"


def write(root: Path, extra: str = "") -> Path:
    (root / "v1").mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/m\n")
    (root / "v1/types.go").write_text(TYPES.format(extra=extra))
    return root


@pytest.fixture
def model(tmp_path: Path) -> Model:
    return load_model(["./v1"], write(tmp_path), env={"HOME": str(tmp_path / "home")})


def table(model: Model) -> Table:
    raw = json.loads(render_outputs(model, EmitOptions())["unions_table.json"])
    return Table.from_dict(raw)


def test_an_integer_enum_discriminator_is_no_error(model: Model) -> None:
    from markergen.rules import all_diagnostics

    # MG021 notes that openapi-gen ignores +enum on int32; MG201 (not a string) is not
    # raised for a discriminator with typed enum values.
    found = {d.code for d in all_diagnostics(model)}
    assert "MG201" not in found and "MG021" in found
    assert not [d for d in all_diagnostics(model) if d.severity.value == "error"]


def test_table_holds_numbers(model: Model) -> None:
    raw = json.loads(render_outputs(model, EmitOptions())["unions_table.json"])
    (union,) = raw["types"][STORE]["unions"]
    assert union["values"] == [1, 2] and union["valueType"] == "integer"
    assert [m["value"] for m in union["members"]] == [1, 2]
    # The generated Python module holds the same value.
    assert "'valueType': 'integer'" in render_outputs(model, EmitOptions())[
        "unions_table.py"
    ] or '"valueType": "integer"' in render_outputs(model, EmitOptions())["unions_table.py"]


def test_runtime_compares_json_values_of_the_type(model: Model) -> None:
    t = table(model)
    assert validate(t, STORE, {"mode": 1, "disk": {"size": 1}}) == []
    assert validate(t, STORE, {"mode": 2.0, "net": {"url": "u"}}) == []  # 2.0 is 2
    wrong = validate(t, STORE, {"mode": "1", "disk": {"size": 1}})
    assert [(e.path, e.type) for e in wrong] == [("mode", "Invalid")]
    assert "must be an integer" in wrong[0].message
    assert [e.type for e in validate(t, STORE, {"mode": True, "disk": {}})] == ["Invalid"]
    unknown = validate(t, STORE, {"mode": 3})
    assert [(e.path, e.type) for e in unknown] == [("mode", "NotSupported")]
    assert "supported values: 1, 2" in unknown[0].message
    mismatch = validate(t, STORE, {"mode": 2, "disk": {"size": 1}})
    assert sorted((e.path, e.type) for e in mismatch) == [
        ("disk", "Forbidden"), ("net", "Required")]
    assert "is 1" in next(e.message for e in mismatch if e.path == "disk")
    # The current KEP's normalization: a changed discriminator clears the other member.
    old = {"mode": 1, "disk": {"size": 1}}
    assert normalize(t, STORE, old, {"mode": 2, "disk": {"size": 1}, "net": {"url": "u"}}) == {
        "mode": 2, "net": {"url": "u"}}


def _schema_properties() -> list[str]:
    return ["mode", "disk", "net"]


def test_cel_rules_compare_numbers_and_are_proved(model: Model) -> None:
    (union,) = model.structs["example.com/m/v1.Store"].unions
    rules, skipped = union_rules(union, "Store", _schema_properties(), ["mode"])
    assert not skipped
    texts = [r.rule for r in rules]
    assert "has(self.disk) || !(has(self.mode) && self.mode == 1)" in texts
    assert all('"1"' not in t and "'1'" not in t for t in texts)
    evaluator = CelEvaluator()
    proof = prove_union(union, rules, _schema_properties(), ["mode"], [1, 2], evaluator)
    assert proof.problems == () and len(proof.rules) == len(rules)

    def accepted(obj: dict[str, Any]) -> bool:
        return all(evaluator.passes(r.rule, obj) for r in rules)

    assert accepted({"mode": 1, "disk": {}})
    assert not accepted({"mode": 2, "disk": {}})
    assert not accepted({"mode": 1})


def test_kubebuilder_and_const_enums_in_openapi_v3(model: Model) -> None:
    doc = json.loads(render_outputs(model, EmitOptions())["openapi-v3.json"])
    props = doc["components"]["schemas"]
    assert props[STORE]["properties"]["mode"]["enum"] == [1, 2]
    switch = props["com.example.m.v1.Switch"]["properties"]
    assert switch["on"]["enum"] == [False, True] and switch["level"]["enum"] == [1, 2, 4]


def _diff(
    tmp_path: Path, before: str, after: str, as_strings: bool = False
) -> set[tuple[str, str, str | None]]:
    def text(extra: str) -> str:
        go = TYPES.format(extra=extra)
        if as_strings:  # the same API with a string enum, for comparison
            go = go.replace("type Mode int32", "type Mode string").replace(
                "ModeDisk Mode = iota + 1\n\tModeNet\n", 'ModeDisk Mode = "1"\n\tModeNet Mode = "2"\n'
            ).replace("\tModeTape\n", '\tModeTape Mode = "3"\n')
            go = go.replace("Enum=true;false", "Enum=yes;no").replace(
                "On bool", "On string").replace("Enum=1;2;4", "Enum=a;b;c").replace(
                "Level int32", "Level string")
        return go

    for name, extra in (("base", before), ("head", after)):
        (tmp_path / name / "v1").mkdir(parents=True)
        (tmp_path / name / "go.mod").write_text("module example.com/m\n")
        go = text(extra)
        if name == "head" and "SWITCH" in after:
            go = go.replace("Enum=true;false", "Enum=true").replace("Enum=yes;no", "Enum=yes")
            go = go.replace("Enum=1;2;4", "Enum=1;2;4;8").replace("Enum=a;b;c", "Enum=a;b;c;d")
        (tmp_path / name / "v1/types.go").write_text(go.replace("SWITCH", ""))
    result = run_diff(str(tmp_path / "base"), str(tmp_path / "head"), tmp_path, "json")
    return {(c.classification, c.kind, c.field) for c in result.changes}


@pytest.mark.parametrize(
    ("before", "after"),
    [("", "\tModeTape\n"), ("\tModeTape\n", ""), ("", "SWITCH")],
    ids=["discriminator-value-added", "discriminator-value-removed", "bool-and-int-enums"],
)
def test_diff_classifies_numbers_and_booleans_like_strings(
    tmp_path: Path, before: str, after: str
) -> None:
    typed = _diff(tmp_path / "typed", before, after)
    strings = _diff(tmp_path / "strings", before, after, as_strings=True)
    assert typed == strings and typed


def test_diff_rows_of_typed_values(tmp_path: Path) -> None:
    assert _diff(tmp_path / "a", "", "\tModeTape\n") == {
        ("compatible", "enum-value-added", "mode")}
    assert _diff(tmp_path / "r", "\tModeTape\n", "") == {
        ("breaking", "enum-value-removed", "mode")}
    assert _diff(tmp_path / "s", "", "SWITCH") == {
        ("breaking", "enum-value-removed", "on"), ("compatible", "enum-value-added", "level")}
