"""Conformance: `+k8s:ifEnabled(G)=` / `+k8s:ifDisabled(G)=` around union tags, recorded in
the runtime table as the union's `gate`, decided by validate()'s `options`."""

from __future__ import annotations

import pytest

from markergen.runtime import Table, TableError, validate
from markergen.runtime.tree import JSON


def _table(gate: str, disabled: bool) -> Table:
    return Table.from_dict(
        {
            "version": 1,
            "types": {
                "S": {
                    "fields": {"a": {"kind": "scalar"}, "b": {"kind": "scalar"}},
                    "unions": [
                        {
                            "dialect": "k8s",
                            "semantics": "k8s",
                            "mode": "exactly-one",
                            "gate": gate,
                            "gateDisabled": disabled,
                            "members": [
                                {"field": "a", "value": "A"},
                                {"field": "b", "value": "B"},
                            ],
                        }
                    ],
                }
            },
        }
    )


CASES: list[tuple[str, bool, frozenset[str], JSON, list[tuple[str, str, str]]]] = [
    ("", False, frozenset(), {}, [("", "Invalid", "union")]),
    ("G", False, frozenset(), {}, []),  # ifEnabled(G), nothing enabled
    ("G", False, frozenset({"G"}), {}, [("", "Invalid", "union")]),
    ("G", False, frozenset({"H"}), {}, []),
    ("G", True, frozenset(), {}, [("", "Invalid", "union")]),  # ifDisabled(G)
    ("G", True, frozenset({"G"}), {}, []),
    ("G", False, frozenset({"G"}), {"a": 1}, []),
]


@pytest.mark.parametrize(("gate", "disabled", "options", "obj", "want"), CASES)
def test_gates(
    gate: str,
    disabled: bool,
    options: frozenset[str],
    obj: JSON,
    want: list[tuple[str, str, str]],
) -> None:
    table = _table(gate, disabled)
    got = [(e.path, e.type, e.origin) for e in validate(table, "S", obj, options=options)]
    assert got == want


def test_gate_must_be_a_string() -> None:
    with pytest.raises(TableError, match=r"unions\[0\]\.gate"):
        Table.from_dict(
            {
                "version": 1,
                "types": {"S": {"fields": {}, "unions": [{"gate": 3, "members": []}]}},
            }
        )
