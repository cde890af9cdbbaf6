"""Conformance: unions of list items, `+k8s:item(key: value)=+k8s:unionMember` and
`=+k8s:zeroOrOneOfMember`, as validation-gen's generated code checks them.

A member is "the list holds an item whose keys have these values"; the error is at the
list, Invalid, origin `union` / `zeroOrOneOf`, naming the members as validation-gen does
(`tasks[{"name": "a"}]`, or the named list type's name when the tags are on the type).
Each case: the object, the old object (None on create), the enabled options, and the
expected errors as (path, type, origin).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from k8s_tables import Triple, errors_of, table_from_go

from markergen.runtime import Table, validate
from markergen.runtime.tree import JSON

GO = """package api

type Run struct {
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:item(name: "done")=+k8s:unionMember
	// +k8s:item(name: "crashed")=+k8s:unionMember
	Steps []Step `json:"steps"`

	Outcomes StepList `json:"outcomes"`

	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:item(name: "done")=+k8s:zeroOrOneOfMember
	// +k8s:item(name: "crashed")=+k8s:zeroOrOneOfMember
	Optional []Step `json:"optional"`

	// +k8s:listType=map
	// +k8s:listMapKey=port
	// +k8s:listMapKey=tls
	// +k8s:item(port: 80, tls: false)=+k8s:zeroOrOneOfMember
	// +k8s:item(port: 443, tls: true)=+k8s:zeroOrOneOfMember
	Ports []Port `json:"ports"`

	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:ifEnabled(Steps)=+k8s:item(name: "done")=+k8s:zeroOrOneOfMember
	// +k8s:ifEnabled(Steps)=+k8s:item(name: "crashed")=+k8s:zeroOrOneOfMember
	Gated []Step `json:"gated"`

	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:ifDisabled(Steps)=+k8s:item(name: "done")=+k8s:zeroOrOneOfMember
	// +k8s:ifDisabled(Steps)=+k8s:item(name: "crashed")=+k8s:zeroOrOneOfMember
	Ungated []Step `json:"ungated"`
}

// +k8s:listType=map
// +k8s:listMapKey=name
// +k8s:item(name: "done")=+k8s:zeroOrOneOfMember
// +k8s:item(name: "crashed")=+k8s:zeroOrOneOfMember
type StepList []Step

type Step struct {
	Name  string `json:"name"`
	State string `json:"state"`
}

type Port struct {
	Port int32 `json:"port"`
	TLS  bool  `json:"tls"`
}
"""

DONE = {"name": "done", "state": "Done"}
CRASHED = {"name": "crashed", "state": "Crashed"}
OTHER = {"name": "other"}
BASE: dict[str, JSON] = {"steps": [DONE]}  # the exactly-one union satisfied


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    return table_from_go(tmp_path_factory.mktemp("item"), GO)


CASES: list[tuple[str, JSON, JSON, frozenset[str], list[Triple]]] = [
    ("one member item and another item", {"steps": [DONE, OTHER]}, None, frozenset(), []),
    ("both member items", {"steps": [DONE, CRASHED]}, None, frozenset(),
     [("steps", "Invalid", "union")]),
    ("no member item", {"steps": [OTHER]}, None, frozenset(), [("steps", "Invalid", "union")]),
    ("empty list", {"steps": []}, None, frozenset(), [("steps", "Invalid", "union")]),
    ("list left out", {}, None, frozenset(), [("steps", "Invalid", "union")]),
    ("ratcheting: both, unchanged", {"steps": [DONE, CRASHED]}, {"steps": [DONE, CRASHED]},
     frozenset(), []),
    ("ratcheting: empty, unchanged", {"steps": []}, {"steps": []}, frozenset(), []),
    ("ratcheting: items changed, same members set", {"steps": [DONE, {**CRASHED, "state": "x"}]},
     {"steps": [DONE, CRASHED]}, frozenset(), []),
    ("update that adds a second member", {"steps": [DONE, CRASHED]}, {"steps": [DONE]},
     frozenset(), [("steps", "Invalid", "union")]),
    ("an item with the key's zero value is no member", {"steps": [DONE, {"state": "x"}]}, None,
     frozenset(), []),
    ("tags on the named list type", {**BASE, "outcomes": [DONE, CRASHED]}, None, frozenset(),
     [("outcomes", "Invalid", "zeroOrOneOf")]),
    ("zeroOrOneOf: none", {**BASE, "optional": []}, None, frozenset(), []),
    ("zeroOrOneOf: one", {**BASE, "optional": [CRASHED]}, None, frozenset(), []),
    ("zeroOrOneOf: two", {**BASE, "optional": [CRASHED, DONE]}, None, frozenset(),
     [("optional", "Invalid", "zeroOrOneOf")]),
    ("zeroOrOneOf ratcheting", {**BASE, "optional": [CRASHED, DONE]},
     {**BASE, "optional": [DONE, CRASHED]}, frozenset(), []),
    ("keys of other types", {**BASE, "ports": [{"port": 80}, {"port": 443, "tls": True}]}, None,
     frozenset(), [("ports", "Invalid", "zeroOrOneOf")]),
    ("a key of the wrong value is another item", {**BASE, "ports": [{"port": 80},
     {"port": 443}]}, None, frozenset(), []),
    ("gate off: not checked", {**BASE, "gated": [DONE, CRASHED]}, None, frozenset(), []),
    ("gate on: checked", {**BASE, "gated": [DONE, CRASHED]}, None, frozenset({"Steps"}),
     [("gated", "Invalid", "zeroOrOneOf")]),
    ("ifDisabled, gate off: checked", {**BASE, "ungated": [DONE, CRASHED]}, None, frozenset(),
     [("ungated", "Invalid", "zeroOrOneOf")]),
    ("ifDisabled, gate on: not checked", {**BASE, "ungated": [DONE, CRASHED]}, None,
     frozenset({"Steps"}), []),
]  # fmt: skip


@pytest.mark.parametrize(
    ("what", "obj", "old", "options", "want"), CASES, ids=[c[0] for c in CASES]
)
def test_item_unions(
    table: Table,
    what: str,
    obj: JSON,
    old: JSON,
    options: frozenset[str],
    want: list[Triple],
) -> None:
    assert errors_of(table, "Run", obj, old, options) == want


def test_messages_name_the_items_as_validation_gen_does(table: Table) -> None:
    name = "com.example.k8s.api.Run"
    [none] = validate(table, name, {"steps": []})
    assert (
        none.message
        == 'must specify one of: `steps[{"name": "done"}]`, `steps[{"name": "crashed"}]`'
    )
    [two] = validate(table, name, {**BASE, "outcomes": [DONE, CRASHED]})
    assert two.message == (
        'must specify at most one of: `StepList[{"name": "done"}]`, `StepList[{"name": "crashed"}]`'
    )
    [ports] = validate(table, name, {**BASE, "ports": [{"port": 80}, {"port": 443, "tls": True}]})
    assert '`ports[{"port": 80, "tls": false}]`' in ports.message


def test_union_outside_the_item_selector_path(tmp_path: Path) -> None:
    """The table records where the union lives (`at`) and each member's selector."""
    table = table_from_go(tmp_path, GO)
    run = table.type("com.example.k8s.api.Run")
    steps = next(u for u in run.unions if u.at == ("steps",))
    assert [m.selector for m in steps.members] == [(("name", "done"),), (("name", "crashed"),)]
    assert steps.mode == "exactly-one" and steps.semantics == "k8s"


def test_items_of_a_subfield_list(tmp_path: Path) -> None:
    """`+k8s:subfield(steps)=+k8s:item(...)=`: the union lives at the subfield's list and
    its members are named after the subfield."""
    go = """package api

type Outer struct {
	// +k8s:subfield(steps)=+k8s:item(name: "done")=+k8s:zeroOrOneOfMember
	// +k8s:subfield(steps)=+k8s:item(name: "crashed")=+k8s:zeroOrOneOfMember
	Inner Inner `json:"inner"`
}

type Inner struct {
	// +k8s:listType=map
	// +k8s:listMapKey=name
	Steps []Step `json:"steps"`
}

type Step struct {
	Name string `json:"name"`
}
"""
    table = table_from_go(tmp_path, go)
    bad = {"inner": {"steps": [{"name": "done"}, {"name": "crashed"}]}}
    [e] = validate(table, "com.example.k8s.api.Outer", bad)
    assert (e.path, e.type, e.origin) == ("inner.steps", "Invalid", "zeroOrOneOf")
    assert e.message.startswith('must specify at most one of: `steps[{"name": "done"}]`')
    assert (
        validate(table, "com.example.k8s.api.Outer", {"inner": {"steps": [{"name": "done"}]}}) == []
    )


def test_validate_command_reports_the_item_union(tmp_path: Path) -> None:
    from helpers import run_cli

    table_from_go(tmp_path, GO)  # writes the module
    assert run_cli(["generate"], tmp_path).code == 0
    (tmp_path / "obj.yaml").write_text(
        "steps: [{name: done}]\ngated: [{name: done}, {name: crashed}]\n"
    )
    assert run_cli(["validate", "--type", "Run", "obj.yaml"], tmp_path).code == 0
    res = run_cli(["validate", "--type", "Run", "--option", "Steps", "obj.yaml"], tmp_path)
    assert res.code == 1
    assert res.stdout.startswith("gated: Invalid value: must specify at most one of: "), res.stdout
