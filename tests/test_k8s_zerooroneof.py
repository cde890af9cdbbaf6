"""Conformance: `+k8s:zeroOrOneOfMember` — at most one member, none allowed, origin
"zeroOrOneOf", zero values unset, unchanged unions ratchet."""

from __future__ import annotations

import pytest

from markergen.runtime import Table, validate
from markergen.runtime.tree import JSON

TABLE = Table.from_dict(
    {
        "version": 1,
        "types": {
            "S": {
                "fields": {"z1": {"kind": "object"}, "z2": {"kind": "scalar"}},
                "unions": [
                    {
                        "dialect": "k8s",
                        "semantics": "k8s",
                        "mode": "at-most-one",
                        "members": [
                            {"field": "z1", "value": "Z1"},
                            {"field": "z2", "value": "Z2"},
                        ],
                    }
                ],
            }
        },
    }
)

CASES: list[tuple[JSON, JSON, list[tuple[str, str, str]]]] = [
    ({}, None, []),
    ({"z1": {}}, None, []),
    ({"z2": "x"}, None, []),
    ({"z1": {}, "z2": "x"}, None, [("", "Invalid", "zeroOrOneOf")]),
    ({"z1": {}, "z2": ""}, None, []),  # "" is unset
    ({"z1": [], "z2": 0}, None, []),
    ({"z1": {}, "z2": "x"}, {"z1": {}, "z2": "y"}, []),  # ratcheting
    ({"z1": {}, "z2": "x"}, {"z1": {}}, [("", "Invalid", "zeroOrOneOf")]),
    ({}, {}, []),
]


@pytest.mark.parametrize(("obj", "old", "want"), CASES)
def test_zero_or_one_of(obj: JSON, old: JSON, want: list[tuple[str, str, str]]) -> None:
    got = [(e.path, e.type, e.origin) for e in validate(TABLE, "S", obj, old)]
    assert got == want


def test_detail_text() -> None:
    [e] = validate(TABLE, "S", {"z1": 1, "z2": 1})
    assert e.message == "must specify at most one of: `z1`, `z2`"
    assert str(e) == "Invalid value: must specify at most one of: `z1`, `z2`"
