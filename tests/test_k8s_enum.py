"""Conformance: `+k8s:enum` with `+k8s:enumExclude` as validation-gen's generated code
checks it (apimachinery's `validate.Enum`).

Each case: the type, the object, the old object (None on create), the enabled options,
and the expected errors as (path, type, origin, stage); detail texts are checked apart.
Written from validation-gen's output_tests tags/enum (a non-pointer field's zero value
`""` is checked, an unset pointer is not), tags/enum/options (an exclusion applies when
ANY of the value's conditions holds) and tags/levels/enums (stage marks), plus the
ratcheting of unchanged values that the generated field code does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from k8s_tables import PREFIX, load, staged_errors_of, table_of

from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.runtime import Table, validate
from markergen.runtime.tree import JSON

Want = list[tuple[str, str, str, str]]
NS = "NotSupported"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Table]:
    _, raw, table = table_of(tmp_path_factory.mktemp("enums"), "enums.go")
    return raw, table


def opts(*names: str) -> frozenset[str]:
    return frozenset(names)


FULL = {"emptyField": "", "twoField": "a", "withExcludeField": "kept"}

CASES: list[tuple[str, JSON, JSON, frozenset[str], Want]] = [
    # tags/enum: all zero values; the non-pointer fields are checked as ""
    ("Struct", {}, None, opts(), [
        ("emptyField", NS, "", ""), ("twoField", NS, "", ""), ("withExcludeField", NS, "", ""),
    ]),
    ("Struct", {**FULL, "twoPtrField": "b"}, None, opts(), [("emptyField", NS, "", "")]),
    ("Struct", {**FULL, "twoField": "x", "twoPtrField": "x", "emptyPtrField": "x"}, None, opts(),
     [("emptyField", NS, "", ""), ("emptyPtrField", NS, "", ""), ("twoField", NS, "", ""),
      ("twoPtrField", NS, "", "")]),
    ("Struct", {**FULL, "twoPtrField": ""}, None, opts(), [("emptyField", NS, "", ""),
                                                           ("twoPtrField", NS, "", "")]),
    ("Struct", {**FULL, "plainField": "not-x"}, None, opts(), [("emptyField", NS, "", "")]),
    ("Struct", {**FULL, "notEnumField": "x"}, None, opts(), [("emptyField", NS, "", "")]),
    ("Struct", {**FULL, "aliasField": "x"}, None, opts(), [("emptyField", NS, "", ""),
                                                           ("aliasField", NS, "", "")]),
    # an unconditional +k8s:enumExclude: not a value at all
    ("Struct", {**FULL, "withExcludeField": "gone"}, None, opts(),
     [("emptyField", NS, "", ""), ("withExcludeField", NS, "", "")]),
    # tags/enum/options; +k8s:optional: an unset value is not checked
    ("Options", {}, None, opts(), []),
    ("Options", {"value": "A"}, None, opts(), []),
    ("Options", {"value": "B"}, None, opts(), [("value", NS, "", "")]),
    ("Options", {"value": "C"}, None, opts(), []),
    ("Options", {"value": "D"}, None, opts(), []),
    ("Options", {"value": "E"}, None, opts(), [("value", NS, "", "")]),
    ("Options", {"value": "F"}, None, opts(), [("value", NS, "", "")]),
    ("Options", {"value": "A"}, None, opts("FeatureA"), [("value", NS, "", "")]),
    ("Options", {"value": "C"}, None, opts("FeatureA"), []),
    ("Options", {"value": "D"}, None, opts("FeatureA"), [("value", NS, "", "")]),
    ("Options", {"value": "B"}, None, opts("FeatureB"), []),
    ("Options", {"value": "D"}, None, opts("FeatureB"), [("value", NS, "", "")]),
    ("Options", {"value": "B"}, None, opts("FeatureA", "FeatureB"), []),
    ("Options", {"value": "A"}, None, opts("FeatureA", "FeatureB"), [("value", NS, "", "")]),
    ("Options", {"value": "E"}, None, opts("FeatureC", "FeatureD"), []),
    ("Options", {"value": "F"}, None, opts("FeatureC", "FeatureD"), [("value", NS, "", "")]),
    ("Options", {"value": "F"}, None, opts("FeatureB", "FeatureC"), []),
    ("Options", {"value": "nope"}, None, opts("FeatureB", "FeatureC"), [("value", NS, "", "")]),
    # ratcheting: a stored value that is excluded now stays accepted while unchanged
    ("Options", {"value": "B"}, {"value": "B"}, opts(), []),
    ("Options", {"value": "A"}, {"value": "A"}, opts("FeatureA"), []),
    ("Options", {"value": "A"}, {"value": "C"}, opts("FeatureA"), [("value", NS, "", "")]),
    ("Options", {"value": "E"}, {}, opts(), [("value", NS, "", "")]),
    ("Struct", {**FULL, "withExcludeField": "gone"}, {**FULL, "withExcludeField": "gone"},
     opts(), []),
    # tags/levels/enums: a `+k8s:beta=+k8s:enum` marks its errors beta;
    # +k8s:required stops the checks of an unset value
    ("Tainted", {"effect": "NoSchedule"}, None, opts(), [("effect", NS, "", "beta")]),
    ("Tainted", {"effect": "None"}, None, opts(), []),
    ("Tainted", {}, None, opts(), []),
]  # fmt: skip


@pytest.mark.parametrize(("type_name", "obj", "old", "options", "want"), CASES)
def test_enum(
    built: tuple[dict[str, Any], Table],
    type_name: str,
    obj: JSON,
    old: JSON,
    options: frozenset[str],
    want: Want,
) -> None:
    _, table = built
    assert staged_errors_of(table, type_name, obj, old, options) == want


def test_detail_lists_the_values_supported_under_the_options(
    built: tuple[dict[str, Any], Table],
) -> None:
    _, table = built

    def message(obj: dict[str, JSON], options: frozenset[str] = frozenset()) -> str:
        [error] = validate(table, PREFIX + "Options", obj, None, options)
        return str(error)

    assert message({"value": "B"}) == (
        'value: Unsupported value: "B": supported values: "A", "C", "D"'
    )
    assert message({"value": "A"}, opts("FeatureA")) == (
        'value: Unsupported value: "A": supported values: "C"'
    )
    assert message({"value": "B"}, opts("FeatureC", "FeatureD")) == (
        'value: Unsupported value: "B": supported values: "A", "C", "D", "E"'
    )
    # no value at all: no detail (field.NotSupported with an empty list)
    errors = validate(table, PREFIX + "Struct", {**FULL, "emptyField": "x"})
    assert [str(e) for e in errors] == ['emptyField: Unsupported value: "x"']


def test_table_records_values_exclusions_and_stage(built: tuple[dict[str, Any], Table]) -> None:
    raw, _ = built
    enums = raw["enums"]
    assert enums[PREFIX + "WithExclude"] == {"values": ["kept"]}
    assert enums[PREFIX + "Effect"] == {"values": ["NoExecute", "None"], "stage": "beta"}
    assert enums[PREFIX + "Conditional"]["exclusions"][:2] == [
        {"value": "A", "option": "FeatureA", "whenEnabled": True},
        {"value": "B", "option": "FeatureB", "whenEnabled": False},
    ]
    assert PREFIX + "Plain" not in enums  # `+enum` alone is openapi-gen's, not checked
    fields = raw["types"][PREFIX + "Struct"]["fields"]
    assert fields["twoPtrField"] == {"kind": "scalar", "enum": PREFIX + "Two", "pointer": True}
    assert raw["types"][PREFIX + "Options"]["fields"]["value"]["unsetNotChecked"] is True
    assert json.loads(json.dumps(raw)) == raw


def test_openapi_lists_the_values_of_a_server_without_options(tmp_path: Path) -> None:
    text = render_outputs(load(tmp_path, "enums.go"), EmitOptions())["openapi-v3.json"]
    schemas = json.loads(text)["components"]["schemas"]
    props = schemas[PREFIX + "Options"]["properties"]
    assert props["value"]["enum"] == ["A", "C", "D"]
    assert '"B"' not in props["value"]["description"]
    struct = schemas[PREFIX + "Struct"]["properties"]
    assert struct["withExcludeField"]["enum"] == ["kept"]
