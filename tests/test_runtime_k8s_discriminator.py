"""The discriminator of a `k8s` union: required (`discriminatorRequired`) and left unset,
the CRD's `required` list rejects it absent or null, its enum rejects `""`; of another
JSON type than its own, the CRD's schema type rejects it. The runtime says `Required` and
`Invalid` there (tests/test_apiserver_unions.py and tests/test_apiserver_union_edges.py
hold it against the server)."""

from __future__ import annotations

from typing import Any

from markergen.runtime import Table, validate
from markergen.runtime.table import TABLE_VERSION


def _table(required: bool, values: list[str], pointer: bool = False) -> Table:
    kind: dict[str, Any] = {"kind": "scalar"}
    if pointer:
        kind = {"kind": "scalar", "enum": "E", "pointer": True}
    return Table.from_dict({
        "version": TABLE_VERSION,
        "enums": {"E": {"values": values}},
        "types": {"a.Schedule": {
            "fields": {"kind": kind, "cron": {"kind": "scalar"}},
            "unions": [{
                "dialect": "k8s", "semantics": "k8s", "discriminator": "kind",
                "discriminatorRequired": required, "values": values, "mode": "exactly-one",
                "deduceInvalidDiscriminator": False,
                "members": [{"field": "cron", "value": "Cron", "zero": "nil"}],
            }],
        }},
    })  # fmt: skip


def _errors(table: Table, obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[str]:
    return [str(e) for e in validate(table, "Schedule", obj, old=old)]


def test_required_discriminator_absent_null_or_empty() -> None:
    table = _table(True, ["Cron", "Interval"])
    for obj in ({}, {"kind": None}, {"kind": ""}):
        assert _errors(table, obj) == ["kind: Required value"], obj
    assert _errors(table, {"kind": "Interval"}) == []
    assert _errors(table, {"kind": "Cron", "cron": "x"}) == []


def test_optional_discriminator_or_empty_value_allowed() -> None:
    assert _errors(_table(False, ["Cron"]), {}) == []
    assert _errors(_table(True, []), {"kind": ""}) == []  # no enum: "" is a value
    assert _errors(_table(True, ["", "Cron"]), {"kind": ""}) == []


def test_pointer_discriminator_set_to_empty_is_not_required() -> None:
    # a pointer to "" is set: its enum reports the value, not requiredness
    table = _table(True, ["Cron"], pointer=True)
    assert "kind: Required value" not in _errors(table, {"kind": ""})
    assert _errors(table, {}) == ["kind: Required value"]


def test_unchanged_unset_discriminator_ratchets_on_update() -> None:
    table = _table(True, ["Cron"])
    assert _errors(table, {}, old={}) == []
    assert _errors(table, {"kind": ""}, old={"kind": "Cron"}) == ["kind: Required value"]


def test_a_value_of_another_type_is_invalid() -> None:
    table = _table(False, ["Cron"])
    assert _errors(table, {"kind": 1}) == ["kind: Invalid value: 1: must be a string"]
    assert _errors(table, {"kind": True, "cron": "x"})[0] == (
        "kind: Invalid value: true: must be a string"
    )


def test_a_bool_mode_discriminator_holding_a_string_is_invalid() -> None:
    table = Table.from_dict({
        "version": TABLE_VERSION,
        "types": {"a.Spec": {
            "fields": {"on": {"kind": "scalar"}, "settings": {"kind": "scalar"}},
            "unions": [{
                "dialect": "k8s", "semantics": "k8s", "discriminator": "on",
                "discriminatorType": "bool", "valueType": "boolean", "discriminatorRequired": False, "values": [],
                "mode": "exactly-one", "deduceInvalidDiscriminator": False,
                "members": [{"field": "settings", "value": True, "zero": "nil"}],
                "modes": [{"field": "settings", "value": "true", "rule": "required"}],
            }],
        }},
    })  # fmt: skip
    got = [str(e) for e in validate(table, "Spec", {"on": "yes"})]
    assert got == ['on: Invalid value: "yes": must be a boolean']
    assert [str(e) for e in validate(table, "Spec", {"on": True})] == ["settings: Required value"]
    assert validate(table, "Spec", {"on": False}) == []
