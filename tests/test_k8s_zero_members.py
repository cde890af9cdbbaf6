"""validation-gen's own shapes (issue 28 item 4): `+k8s:unionMember` and
`+k8s:zeroOrOneOfMember` on non-pointer fields without omitempty, gated or not
(testdata/check/k8szero, reproducing validation-gen's output_tests). They are valid:
`check` has no error for them, and the runtime table and the CRD rules read a member at
its Go zero value (`""`, 0) as unset, as validation-gen's member extractor does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import celpy
import pytest

from markergen.crd.cel import union_rules
from markergen.diagnostics import Severity
from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.model import Model
from markergen.pipeline import check_model, load_model
from markergen.runtime import Table, validate

ROOT = Path(__file__).resolve().parent.parent / "testdata" / "check"
PKG = "example.com/check/k8szero"
PREFIX = "com.example.check.k8szero."
GATE = frozenset({"FeatureX"})


@pytest.fixture(scope="module")
def model() -> Model:
    return load_model(["./k8szero"], ROOT)


@pytest.fixture(scope="module")
def table(model: Model) -> Table:
    return Table.from_dict(build_table(model, EmitOptions()))


def errors(table: Table, name: str, obj: Any, options: frozenset[str] = frozenset()) -> list[str]:
    return [
        f"{e.path}:{e.type}:{e.origin}" for e in validate(table, PREFIX + name, obj, None, options)
    ]


def test_no_error_but_the_required_member(model: Model) -> None:
    found = [(d.code, d.pos.line) for d in check_model(model) if d.severity is Severity.ERROR]
    assert found == [("MG301", 66)]  # `+k8s:required` on a member: never unset
    codes = {d.code for d in check_model(model)}
    assert "MG302" not in codes


def test_the_members_are_counted_at_their_zero_value(model: Model) -> None:
    (union,) = model.structs[f"{PKG}.Union"].unions
    assert [(m.json_name, m.zero) for m in union.members] == [
        ("xEnabledField", "zero"),
        ("xDisabledField", "zero"),
    ]
    assert union.gate == "FeatureX" and union.semantics == "k8s"


def test_gated_discriminated_union_reads_empty_strings_as_unset(table: Table) -> None:
    chosen = {"discriminator": "XEnabledField", "xEnabledField": "foo", "xDisabledField": ""}
    assert errors(table, "Union", chosen, GATE) == []
    both = {**chosen, "xDisabledField": "bar"}
    assert errors(table, "Union", both, GATE) == ["xDisabledField:Invalid:union"]
    # the gate is off: validation-gen does not check the union (its doc_test.go)
    assert errors(table, "Union", both) == []
    # all zero values, as a Go client sends them
    zero = {"discriminator": "", "xEnabledField": "", "xDisabledField": ""}
    assert errors(table, "Union", zero, GATE) == []


def test_zero_or_one_of_counts_non_zero_values_only(table: Table) -> None:
    assert errors(table, "ZeroOrOneOf", {"xEnabledField": "foo", "count": 0}) == []
    assert errors(table, "ZeroOrOneOf", {"xEnabledField": "", "count": 0}) == []
    assert errors(table, "ZeroOrOneOf", {"xEnabledField": "foo", "count": 3}) == [
        ":Invalid:zeroOrOneOf"
    ]


def test_exactly_one_with_a_string_member(table: Table) -> None:
    assert errors(table, "Simple", {"m3": "", "m4": "x"}) == []
    assert errors(table, "Simple", {"m3": "a"}) == []
    assert errors(table, "Simple", {"m3": "a", "m4": "x"}) == [":Invalid:union"]
    assert errors(table, "Simple", {"m3": ""}) == [":Invalid:union"]


def test_the_crd_rules_read_the_zero_value_as_unset(model: Model) -> None:
    (union,) = model.structs[f"{PKG}.ZeroOrOneOf"].unions
    rules, skipped = union_rules(
        union,
        "ZeroOrOneOf",
        ["xEnabledField", "count"],
        [],
        {"xEnabledField": "string", "count": "integer"},
    )
    assert skipped == [] and rules
    env = celpy.Environment()

    def ok(obj: dict[str, Any]) -> bool:
        act = {"self": celpy.json_to_cel(obj)}
        return all(bool(env.program(env.compile(r.rule)).evaluate(act)) for r in rules)

    assert ok({"xEnabledField": "foo", "count": 0})
    assert ok({"xEnabledField": "", "count": 0})
    assert ok({})
    assert not ok({"xEnabledField": "foo", "count": 3})


def test_mg342_names_what_is_missing_for_a_pointer_and_for_a_value(tmp_path: Path) -> None:
    """A pointer member already has its nil: MG342 asks for the optional marker and
    omitempty, not for a pointer; a value member whose zero is always written is told
    to be a pointer or have omitempty."""
    (tmp_path / "go.mod").write_text("module example.com/z\n\ngo 1.22\n")
    (tmp_path / "types.go").write_text(
        "package z\n\n"
        "type U struct {\n"
        "\t// +k8s:unionMember\n"
        '\tP *string `json:"p"`\n'
        "\t// +k8s:unionMember\n"
        '\tV string `json:"v"`\n'
        "}\n"
    )
    diags = [d for d in check_model(load_model(["./..."], tmp_path)) if d.code == "MG342"]
    by_member = {("member P " in d.message): d.message for d in diags}
    assert "marked optional" in by_member[True] and "pointers" not in by_member[True]
    assert "always written" in by_member[False] and "pointers or have omitempty" in by_member[False]
