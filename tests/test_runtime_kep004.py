"""The `kep1027` semantics: the current KEP "Normalization and Validation", "Discriminator Values",
"Empty Union Members", and the Kubernetes-style error format."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from markergen.runtime import FieldError, Table, normalize, validate

DATA = Path(__file__).resolve().parent.parent / "testdata" / "runtime"
T = Table.load(DATA / "kep004.json")
U = "io.example.v1.Union"
STRATEGY = "io.example.v1.DeploymentStrategy"
DEPLOY = "io.example.v1.Deployment"


def msgs(errors: list[FieldError]) -> list[str]:
    return [str(e) for e in errors]


# --- the current KEP "Normalization" ---------------------------------------------------------------


def test_discriminator_changed_clears_all_but_selected() -> None:
    """The current KEP "Normalization": discriminator modified → clear all fields except the one it
    points to."""
    old = {"unionType": "FieldA", "fieldA": 1}
    new = {"unionType": "FieldB", "fieldA": 1, "fieldB": 2}
    assert normalize(T, U, old, new) == {"unionType": "FieldB", "fieldB": 2}


def test_discriminator_unchanged_clears_nothing() -> None:
    """The current KEP "Normalization": if and only if the discriminator has been modified; several
    members with an unchanged discriminator are left for validation."""
    old = {"unionType": "FieldA", "fieldA": 1}
    new = {"unionType": "FieldA", "fieldA": 1, "fieldB": 2}
    assert normalize(T, U, old, new) == new


def test_no_normalization_on_create() -> None:
    """The current KEP "Normalization": the server normalizes update requests; a create is validated."""
    new = {"unionType": "FieldB", "fieldA": 1, "fieldB": 2}
    assert normalize(T, U, None, new) == new


def test_unset_and_empty_discriminator_are_equal() -> None:
    """The current KEP "Discriminator Values": "" is the "no member" value, the same as unset."""
    old = {"fieldA": 1, "fieldB": 2}
    new = {"unionType": "", "fieldA": 1, "fieldB": 2}
    assert normalize(T, U, old, new) == new


def test_change_to_none_value_clears_every_member() -> None:
    """The current KEP "Discriminator Values": the "no member" value selects no field, so changing to
    it clears the union."""
    old = {"unionType": "FieldA", "fieldA": 1}
    assert normalize(T, U, old, {"unionType": "", "fieldA": 1}) == {"unionType": ""}


def test_change_to_empty_member_value_clears_members() -> None:
    """The current KEP "Empty Union Members": Recreate has no field; switching to it clears
    rollingUpdate."""
    old = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}
    new = {"type": "Recreate", "rollingUpdate": {"maxSurge": 1}}
    assert normalize(T, STRATEGY, old, new) == {"type": "Recreate"}


def test_unknown_new_value_clears_nothing() -> None:
    """The current KEP "Discriminator Field" #34/#39: a value the server does not
    know clears nothing, and validation fails loudly."""
    old = {"unionType": "FieldA", "fieldA": 1}
    new = {"unionType": "FieldZ", "fieldA": 1}
    assert normalize(T, U, old, new) == new
    assert msgs(validate(T, U, new, old)) == [
        'unionType: Unsupported value: "FieldZ": supported values: "", "FieldA", "FieldB", "FieldC", "FieldD"',
        'fieldA: Forbidden: may only be set when unionType is "FieldA"',
    ]


def test_normalization_reaches_nested_objects() -> None:
    old = {"spec": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}}}
    new = {
        "spec": {"replicas": 3, "strategy": {"type": "Recreate", "rollingUpdate": {"maxSurge": 1}}}
    }
    assert normalize(T, DEPLOY, old, new) == {
        "spec": {"replicas": 3, "strategy": {"type": "Recreate"}}
    }


# --- the current KEP "Validation" ------------------------------------------------------------------


def test_several_members_with_unchanged_discriminator_is_an_error() -> None:
    """The current KEP "Validation" 1: multiple union fields set and the discriminator not modified →
    error loudly that the client must change the discriminator."""
    old = {"unionType": "FieldA", "fieldA": 1}
    new = {"unionType": "FieldA", "fieldA": 1, "fieldB": 2}
    assert msgs(validate(T, U, normalize(T, U, old, new), old)) == [
        'unionType: Invalid value: "FieldA": several union members are set (fieldA, fieldB) but '
        "unionType was not changed: change unionType when changing which union member is set"
    ]


def test_selected_member_empty_and_not_optional_fails() -> None:
    """The current KEP "Validation" 2: discriminator set to a field that is empty and not optional."""
    assert msgs(validate(T, U, {"unionType": "FieldA"})) == [
        'fieldA: Required value: must be set when unionType is "FieldA"'
    ]


def test_optional_member_may_be_selected_while_empty() -> None:
    """The current KEP "Go Markers": `+unionMember,optional` lets the discriminator select an empty
    field."""
    assert validate(T, U, {"unionType": "FieldB"}) == []


def test_empty_union_member_value_needs_no_field() -> None:
    """The current KEP "Validation" 2 does not apply to values without a field ("Empty Union
    Members"): FieldC has no member."""
    assert validate(T, U, {"unionType": "FieldC"}) == []
    assert validate(T, STRATEGY, {"type": "Recreate"}) == []


def test_other_members_must_be_unset() -> None:
    """The current KEP "Normalization": only the member the discriminator points to may be set."""
    errors = validate(
        T,
        "io.example.v1.Deployment",
        {"spec": {"strategy": {"type": "Recreate", "rollingUpdate": {}}}},
    )
    assert msgs(errors) == [
        'spec.strategy.rollingUpdate: Forbidden: may only be set when type is "RollingUpdate"'
    ]
    assert errors[0] == FieldError(
        "spec.strategy.rollingUpdate", "Forbidden", 'may only be set when type is "RollingUpdate"'
    )


def test_required_discriminator_must_be_set() -> None:
    """The current KEP "Go Markers": the discriminator MUST be required if there is no default."""
    assert msgs(validate(T, STRATEGY, {})) == [
        "type: Required value: the union discriminator must be set"
    ]
    assert msgs(validate(T, STRATEGY, {"type": ""})) == [
        "type: Required value: the union discriminator must be set"
    ]


def test_required_discriminator_may_be_the_none_value() -> None:
    """The current KEP "Discriminator Values": "" is a value of the enum, so setting it is allowed."""
    assert validate(T, U, {"unionType": ""}) == []
    assert msgs(validate(T, U, {})) == [
        "unionType: Required value: the union discriminator must be set"
    ]


def test_discriminator_value_must_be_in_enum() -> None:
    """The current KEP "Discriminator Values": discriminators are enums; Kubernetes' NotSupported."""
    assert msgs(validate(T, STRATEGY, {"type": "Blue"})) == [
        'type: Unsupported value: "Blue": supported values: "Recreate", "RollingUpdate"'
    ]


def test_discriminator_must_be_a_string() -> None:
    assert msgs(validate(T, STRATEGY, {"type": 3})) == ["type: Invalid value: 3: must be a string"]


def test_member_set_when_discriminator_is_none_value() -> None:
    assert msgs(validate(T, U, {"unionType": "", "fieldB": 1})) == [
        'fieldB: Forbidden: may only be set when unionType is "FieldB"'
    ]


def test_changed_discriminator_with_stray_member_reports_forbidden() -> None:
    """After a discriminator change to an unknown value nothing is cleared: each member set is
    Forbidden."""
    old = {"unionType": "FieldA", "fieldA": 1}
    errors = validate(T, U, {"unionType": "FieldB", "fieldA": 1}, old)
    assert msgs(errors) == ['fieldA: Forbidden: may only be set when unionType is "FieldA"']


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (
            {"name": "v"},
            [
                "spec.volumes[name=v]: Required value: exactly one of emptyDir, hostPath, configMap must be set"
            ],
        ),
        ({"name": "v", "emptyDir": {}}, []),
        (
            {"name": "v", "emptyDir": {}, "hostPath": {"path": "/"}, "configMap": {}},
            [
                "spec.volumes[name=v].hostPath: Forbidden: may not be set when emptyDir is set: only one of emptyDir, hostPath, configMap may be set",
                "spec.volumes[name=v].configMap: Forbidden: may not be set when emptyDir is set: only one of emptyDir, hostPath, configMap may be set",
            ],
        ),
    ],
)
def test_undiscriminated_exactly_one(obj: dict[str, Any], expected: list[str]) -> None:
    """The 2022 draft "At most one versus exactly one": a union without a discriminator in mode
    exactly-one."""
    assert msgs(validate(T, DEPLOY, {"spec": {"volumes": [obj]}})) == expected


def test_undiscriminated_at_most_one() -> None:
    """The 2022 draft "At most one versus exactly one": mode at-most-one accepts no member."""
    assert validate(T, DEPLOY, {"spec": {"probes": {"live": {}}}}) == []
    assert msgs(
        validate(T, DEPLOY, {"spec": {"probes": {"live": {"exec": {}, "tcpSocket": {}}}}})
    ) == [
        "spec.probes[live].tcpSocket: Forbidden: may not be set when exec is set: only one of exec, httpGet, tcpSocket may be set"
    ]


def test_empty_object_counts_as_set_and_null_as_unset() -> None:
    """A member is set when its key is present and not null; {} counts as set (like smd)."""
    assert msgs(validate(T, STRATEGY, {"type": "Recreate", "rollingUpdate": {}})) == [
        'rollingUpdate: Forbidden: may only be set when type is "RollingUpdate"'
    ]
    assert validate(T, STRATEGY, {"type": "Recreate", "rollingUpdate": None}) == []


def test_field_error_strings() -> None:
    assert str(FieldError("a.b", "Required", "")) == "a.b: Required value"
    assert str(FieldError("", "Invalid", '"x": bad')) == 'Invalid value: "x": bad'
    assert str(FieldError("spec.type", "NotSupported", '"X": supported values: "A", "B"')) == (
        'spec.type: Unsupported value: "X": supported values: "A", "B"'
    )
