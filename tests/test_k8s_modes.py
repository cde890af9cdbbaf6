"""Conformance: `+k8s:modeDiscriminator` / `+k8s:ifMode` (and their earlier spellings) as
validation-gen's generated code checks them (apimachinery's `validate.Discriminated`).

Each case: the type, the object, the old object (None on create), the enabled options,
and the expected errors as (path, type, origin, stage). Written from validation-gen's
output_tests (tags/mode, tags/levels/modes, tags/options/discriminators): in a mode its
rules name, a field is required / optional / forbidden as the rule says; in any other
mode (the unset discriminator's `""` or `false` included) it is forbidden when set;
errors carry no origin and the stage of the rule; unchanged fields ratchet.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from k8s_tables import PREFIX, staged_errors_of, table_of

from markergen.runtime import Table, validate
from markergen.runtime.tree import JSON

Want = list[tuple[str, str, str, str]]
NONE: frozenset[str] = frozenset()
Z = frozenset({"FeatureZ"})


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Table]:
    _, raw, table = table_of(tmp_path_factory.mktemp("modes"), "modes.go")
    return raw, table


REQ, FORB = "Required", "Forbidden"

CASES: list[tuple[str, JSON, JSON, frozenset[str], Want]] = [
    # tags/mode StrictUnion
    ("Strict", {"mode": "A", "first": "v"}, None, NONE, []),
    ("Strict", {"mode": "A"}, None, NONE, [("first", REQ, "", "")]),
    ("Strict", {"mode": "A", "first": "v", "second": "v"}, None, NONE, [("second", FORB, "", "")]),
    ("Strict", {"mode": "B", "second": "v"}, None, NONE, []),
    ("Strict", {"mode": "B"}, None, NONE, [("second", REQ, "", "")]),
    ("Strict", {"mode": "B", "first": "v", "second": "v"}, None, NONE, [("first", FORB, "", "")]),
    ("Strict", {}, None, NONE, []),  # mode "": nothing set, nothing required
    ("Strict", {"second": "v"}, None, NONE, [("second", FORB, "", "")]),
    ("Strict", {"mode": "Z", "first": "v"}, None, NONE, [("first", FORB, "", "")]),
    # a *string holding "" is set (not nil), a non-pointer 0 is not
    ("Strict", {"mode": "Z", "first": ""}, None, NONE, [("first", FORB, "", "")]),
    # the earlier spelling reads the same
    ("OldStrict", {"mode": "A"}, None, NONE, [("first", REQ, "", "")]),
    ("OldStrict", {"mode": "B", "first": "v", "second": "v"}, None, NONE, [("first", FORB, "", "")]),
    # tags/mode SharedField
    ("Shared", {"mode": "A"}, None, NONE, []),
    ("Shared", {"mode": "A", "value": "v"}, None, NONE, []),
    ("Shared", {"mode": "B", "value": "v"}, None, NONE, []),
    ("Shared", {"mode": "C", "value": "v"}, None, NONE, [("value", FORB, "", "")]),
    # tags/mode NonStringDiscriminator: a bool, unset is false
    ("Flag", {"on": True, "settings": "v"}, None, NONE, []),
    ("Flag", {"on": True}, None, NONE, [("settings", REQ, "", "")]),
    ("Flag", {"on": False, "settings": "v"}, None, NONE, [("settings", FORB, "", "")]),
    ("Flag", {"settings": "v"}, None, NONE, [("settings", FORB, "", "")]),
    ("Flag", {}, None, NONE, []),
    # tags/mode MultipleDiscriminators
    ("TwoModalities", {"x": "A", "y": "B", "a": "1", "b": "2"}, None, NONE, []),
    ("TwoModalities", {"x": "A", "y": "B"}, None, NONE, [("a", REQ, "", ""), ("b", REQ, "", "")]),
    ("TwoModalities", {"x": "B", "y": "A", "a": "1"}, None, NONE, [("a", FORB, "", "")]),
    # tags/mode Collections: empty list/map and 0 are unset
    ("Collections", {"mode": "A"}, None, NONE, []),
    ("Collections", {"mode": "A", "list": ["i"], "map": {"k": "v"}}, None, NONE, []),
    ("Collections", {"mode": "B", "list": ["i"]}, None, NONE, [("list", FORB, "", "")]),
    ("Collections", {"mode": "B", "map": {"k": "v"}}, None, NONE, [("map", FORB, "", "")]),
    ("Collections", {"mode": "B", "list": [], "map": {}}, None, NONE, []),
    ("Collections", {"mode": "A", "count": 3}, None, NONE, [("count", FORB, "", "")]),
    ("Collections", {"mode": "A", "count": 0}, None, NONE, []),
    ("Collections", {"mode": "B", "count": 3}, None, NONE, []),
    # tags/levels/modes: the stage of the rule; the implicit Forbidden takes the stage
    # the field's rules share, none when they differ
    ("Leveled", {"mode": "A", "a": "v"}, None, NONE, []),
    ("Leveled", {"mode": "A"}, None, NONE, [("a", REQ, "", "alpha")]),
    ("Leveled", {"mode": "B"}, None, NONE, [("b", REQ, "", "beta")]),
    ("Leveled", {"mode": "A", "a": "v", "b": "v"}, None, NONE, [("b", FORB, "", "beta")]),
    ("Leveled", {"mode": "B", "a": "v", "b": "v"}, None, NONE, [("a", FORB, "", "alpha")]),
    ("Leveled", {"mode": "C", "mixed": "v"}, None, NONE, [("mixed", FORB, "", "")]),
    # tags/options/discriminators: the checks live inside the wrapper of the ifMode tags
    ("Gated", {"mode": "A", "b": "x"}, None, NONE, []),
    ("Gated", {"mode": "A", "b": "x"}, None, Z, [("b", FORB, "", "")]),
    ("GatedOff", {"mode": "A", "b": "x"}, None, NONE, [("b", FORB, "", "")]),
    ("GatedOff", {"mode": "A", "b": "x"}, None, Z, []),
    # ratcheting: an unchanged field under an unchanged discriminator is not checked
    ("Strict", {"mode": "A"}, {"mode": "A"}, NONE, []),
    ("Strict", {"mode": "A", "second": "v"}, {"mode": "A", "second": "v"}, NONE, []),
    ("Strict", {"mode": "A", "first": "v", "second": "w"}, {"mode": "A", "second": "v"}, NONE,
     [("second", FORB, "", "")]),
    ("Strict", {"mode": "A"}, {"mode": "B"}, NONE, [("first", REQ, "", "")]),
    ("Strict", {"mode": "A"}, {"mode": "A", "first": "v"}, NONE, [("first", REQ, "", "")]),
    # nested: paths run from the object the call started at
    ("Outer", {"inner": {"mode": "B"}}, None, NONE, [("inner.second", REQ, "", "")]),
    # kubernetes/api flowcontrol's shape, marked beta
    ("PriorityLevelConfigurationSpec", {"type": "Limited", "limited": "x"}, None, NONE, []),
    ("PriorityLevelConfigurationSpec", {"type": "Exempt"}, None, NONE, []),
    ("PriorityLevelConfigurationSpec", {"type": "Limited"}, None, NONE,
     [("limited", REQ, "", "beta")]),
    ("PriorityLevelConfigurationSpec", {"type": "Exempt", "limited": "x", "exempt": "y"}, None,
     NONE, [("limited", FORB, "", "beta")]),
    ("LimitedByName", {"type": "Queue"}, None, NONE, [("queuing", REQ, "", "")]),
    ("LimitedByName", {"type": "Reject", "queuing": "q"}, None, NONE, [("queuing", FORB, "", "")]),
    ("LimitedByName", {"type": "Queue", "queuing": "q"}, None, NONE, []),
]  # fmt: skip


@pytest.mark.parametrize(("type_name", "obj", "old", "options", "want"), CASES)
def test_modes(
    built: tuple[dict[str, Any], Table],
    type_name: str,
    obj: JSON,
    old: JSON,
    options: frozenset[str],
    want: Want,
) -> None:
    _, table = built
    assert staged_errors_of(table, type_name, obj, old, options) == want


def test_messages_are_validation_gens(built: tuple[dict[str, Any], Table]) -> None:
    _, table = built
    (required,) = validate(table, PREFIX + "Strict", {"mode": "A"})
    (forbidden,) = validate(table, PREFIX + "Strict", {"mode": "Z", "second": "v"})
    assert (str(required), str(forbidden)) == ("first: Required value", "second: Forbidden")


def test_table_records_rules_stages_and_one_union_when_written_twice(
    built: tuple[dict[str, Any], Table],
) -> None:
    raw, _ = built
    [union] = raw["types"][PREFIX + "PriorityLevelConfigurationSpec"]["unions"]
    assert union["dialect"] == "k8s" and union["discriminator"] == "type"
    assert union["modes"] == [
        {"field": "limited", "value": "Limited", "rule": "required", "stage": "beta"},
        {"field": "exempt", "value": "Exempt", "rule": "optional", "stage": "beta"},
    ]
    [flag] = raw["types"][PREFIX + "Flag"]["unions"]
    assert flag["discriminatorType"] == "bool" and flag["modes"][0]["value"] == "true"
    [gated] = raw["types"][PREFIX + "Gated"]["unions"]
    assert (gated["gate"], gated["gateDisabled"]) == ("FeatureZ", False)
    assert json.loads(json.dumps(raw)) == raw


def test_openapi_writes_one_entry_for_the_union_written_twice(tmp_path: Path) -> None:
    """openapi-gen's list entry of the `+union` struct, once, and no fieldMembers: the
    mode union that stands for the 2019 one leaves OpenAPI as openapi-gen writes it."""
    from k8s_tables import load

    from markergen.emit.options import EmitOptions
    from markergen.emit.outputs import render_outputs

    model = load(tmp_path, "modes.go")
    for union_format in ("fieldMembers", "both"):
        text = render_outputs(model, EmitOptions(union_format=union_format))["openapi-v3.json"]
        schema = json.loads(text)["components"]["schemas"][
            PREFIX + "PriorityLevelConfigurationSpec"
        ]
        assert schema["x-kubernetes-unions"] == [
            {
                "discriminator": "type",
                "fields-to-discriminateBy": {"exempt": "Exempt", "limited": "Limited"},
            }
        ]
        assert "x-kubernetes-unions" not in schema["properties"]["type"]
    # openapi-gen names the 2019 members by Go field name; the checks keep the modes
    [union] = [u for u in model.structs["example.com/k8s/api.LimitedByName"].unions]
    assert [(m.json_name, m.value) for m in union.members] == [("queuing", "Queuing")]
    assert [(r.json_name, r.value) for r in union.modes] == [("queuing", "Queue")]
