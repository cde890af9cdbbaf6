"""Conformance: `+k8s:unionMember` / `+k8s:unionDiscriminator` as validation-gen checks them.

Each case: the object, the old object (None on create), the enabled options, and the
expected errors as (path, type, origin). The cases follow the behaviour validation-gen's
generated code shows: zero values are unset, the discriminator is optional, unchanged
unions ratchet, errors are Invalid with origin "union".
"""

from __future__ import annotations

import pytest

from markergen.runtime import Table, validate
from markergen.runtime.tree import JSON

MEMBERS = ["m1", "m2", "m3", "m4"]

TABLE = Table.from_dict(
    {
        "version": 1,
        "types": {
            "Undiscriminated": {
                "fields": {
                    **{m: {"kind": "scalar"} for m in MEMBERS},
                    "m1": {"kind": "object"},
                    "m4": {"kind": "map"},
                },
                "unions": [
                    {
                        "dialect": "k8s",
                        "semantics": "k8s",
                        "mode": "exactly-one",
                        "members": [{"field": m, "value": m.upper()} for m in MEMBERS],
                    }
                ],
            },
            "Discriminated": {
                "fields": {
                    **{m: {"kind": "scalar"} for m in [*MEMBERS, "d"]},
                    "m1": {"kind": "object"},
                    "m4": {"kind": "map"},
                },
                "unions": [
                    {
                        "dialect": "k8s",
                        "semantics": "k8s",
                        "mode": "exactly-one",
                        "discriminator": "d",
                        "members": [{"field": m, "value": m.upper()} for m in MEMBERS],
                    }
                ],
            },
            "Outer": {
                "fields": {"inner": {"kind": "object", "type": "Undiscriminated"}},
                "unions": [],
            },
        },
    }
)

Case = tuple[str, JSON, JSON, list[tuple[str, str, str]]]

CASES: list[Case] = [
    # undiscriminated: exactly one, error at the parent path
    ("Undiscriminated", {}, None, [("", "Invalid", "union")]),
    ("Undiscriminated", {"m1": {}}, None, []),
    ("Undiscriminated", {"m3": "a string"}, None, []),
    ("Undiscriminated", {"m3": ""}, None, [("", "Invalid", "union")]),  # "" is unset
    ("Undiscriminated", {"m2": 0}, None, [("", "Invalid", "union")]),  # 0 is unset
    ("Undiscriminated", {"m2": False}, None, [("", "Invalid", "union")]),
    ("Undiscriminated", {"m3": []}, None, [("", "Invalid", "union")]),
    ("Undiscriminated", {"m4": {}}, None, [("", "Invalid", "union")]),
    ("Undiscriminated", {"m4": {"k": "v"}}, None, []),
    ("Undiscriminated", {"m1": {}, "m2": 1}, None, [("", "Invalid", "union")]),
    # ratcheting: same set of set members, values may differ
    ("Undiscriminated", {}, {}, []),
    ("Undiscriminated", {"m1": {}, "m2": 1}, {"m1": {}, "m2": 2}, []),
    ("Undiscriminated", {"m3": "a"}, {"m3": "b"}, []),
    ("Undiscriminated", {"m1": {}, "m2": 1}, {"m1": {}}, [("", "Invalid", "union")]),
    # discriminated
    ("Discriminated", {}, None, []),
    ("Discriminated", {"d": "M1", "m1": {}}, None, []),
    ("Discriminated", {"d": "M2", "m1": {}, "m2": 1}, None, [("m1", "Invalid", "union")]),
    ("Discriminated", {"d": "M1"}, None, [("m1", "Invalid", "union")]),
    ("Discriminated", {"d": "M3", "m3": ""}, None, [("m3", "Invalid", "union")]),
    ("Discriminated", {"d": "M4", "m4": {}}, None, [("m4", "Invalid", "union")]),
    ("Discriminated", {"d": "Unknown"}, None, []),  # the enum reports it, not the union
    ("Discriminated", {"d": ""}, None, []),
    ("Discriminated", {"m1": {}}, None, [("m1", "Invalid", "union")]),
    # ratcheting with the discriminator
    ("Discriminated", {"d": "M1"}, {"d": "M1"}, []),
    ("Discriminated", {"d": "M2", "m1": {}, "m2": 1}, {"d": "M2", "m1": {}, "m2": 3}, []),
    ("Discriminated", {"d": "M4"}, {"d": "M4", "m4": {"k": "v"}}, [("m4", "Invalid", "union")]),
    ("Discriminated", {"d": "M1"}, {"d": "M2"}, [("m1", "Invalid", "union")]),
    # nested: the path is the union's parent
    ("Outer", {"inner": {}}, None, [("inner", "Invalid", "union")]),
    ("Outer", {"inner": {"m1": {}, "m2": 1}}, {"inner": {"m1": {}, "m2": 1}}, []),
]


@pytest.mark.parametrize(("type_name", "obj", "old", "want"), CASES)
def test_union(type_name: str, obj: JSON, old: JSON, want: list[tuple[str, str, str]]) -> None:
    got = [(e.path, e.type, e.origin) for e in validate(TABLE, type_name, obj, old)]
    assert got == want


def test_detail_text_names_members_and_discriminator() -> None:
    [none] = validate(TABLE, "Undiscriminated", {})
    assert none.message == "must specify one of: `m1`, `m2`, `m3`, `m4`"
    [two] = validate(TABLE, "Undiscriminated", {"m1": 1, "m2": 1})
    assert two.message.startswith("must specify exactly one of:")
    [missing] = validate(TABLE, "Discriminated", {"d": "M1"})
    assert missing.message == 'must be specified when `d` is "M1"'
    [extra] = validate(TABLE, "Discriminated", {"d": "M1", "m1": 1, "m2": 1})
    assert extra.message == 'may only be specified when `d` is "M2"'


def test_k8s_unions_are_not_normalized() -> None:
    from markergen.runtime import normalize

    obj = {"d": "M1", "m1": {}, "m2": 1}
    assert normalize(TABLE, "Discriminated", {"d": "M2", "m2": 1}, obj) == obj
