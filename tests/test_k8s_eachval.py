"""Conformance: a union in every item of a list or every value of a map,
`+k8s:eachVal=+k8s:subfield(name)=<union tag>`.

Each item is checked on its own, at its index (`rules[1]`) or key (`byName[a]`); on
update, an item of a `listType=map` list is compared with the old item of the same keys
(validation-gen's ratcheting), and a map value with the old value of the same key. Each
case: the object, the old object (None on create), the enabled options, and the expected
errors as (path, type, origin).
"""

from __future__ import annotations

import pytest
from k8s_tables import Triple, errors_of, table_from_go

from markergen.runtime import Table
from markergen.runtime.tree import JSON

GO = """package api

type Policy struct {
	// +listType=map
	// +listMapKey=name
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:eachVal=+k8s:subfield(allow)=+k8s:unionMember
	// +k8s:eachVal=+k8s:subfield(deny)=+k8s:unionMember
	Rules []Rule `json:"rules"`

	// +k8s:eachVal=+k8s:subfield(allow)=+k8s:zeroOrOneOfMember
	// +k8s:eachVal=+k8s:subfield(deny)=+k8s:zeroOrOneOfMember
	ByName map[string]Rule `json:"byName,omitempty"`
}

type Rule struct {
	Name  string   `json:"name"`
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}
"""

A = {"name": "a", "allow": ["x"]}
B = {"name": "b", "deny": ["y"]}
BOTH = {"name": "c", "allow": ["x"], "deny": ["y"]}
NONE = {"name": "d", "allow": []}


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    return table_from_go(tmp_path_factory.mktemp("eachval"), GO)


CASES: list[tuple[str, JSON, JSON, frozenset[str], list[Triple]]] = [
    ("every item has one", {"rules": [A, B]}, None, frozenset(), []),
    ("an item with both", {"rules": [A, BOTH]}, None, frozenset(),
     [("rules[1]", "Invalid", "union")]),
    ("an item with none (an empty list is unset)", {"rules": [NONE, A]}, None, frozenset(),
     [("rules[0]", "Invalid", "union")]),
    ("no items", {"rules": []}, None, frozenset(), []),
    ("ratcheting by list-map key", {"rules": [A, BOTH]}, {"rules": [BOTH, A]}, frozenset(), []),
    ("a new item is checked", {"rules": [A, BOTH]}, {"rules": [A]}, frozenset(),
     [("rules[1]", "Invalid", "union")]),
    ("map values: one set each", {"rules": [], "byName": {"p": A, "q": NONE}}, None, frozenset(),
     []),
    ("map values: both set", {"rules": [], "byName": {"p": A, "q": BOTH}}, None, frozenset(),
     [("byName[q]", "Invalid", "zeroOrOneOf")]),
    ("map ratcheting by key", {"rules": [], "byName": {"q": BOTH}},
     {"rules": [], "byName": {"q": BOTH}}, frozenset(), []),
]  # fmt: skip


@pytest.mark.parametrize(
    ("what", "obj", "old", "options", "want"), CASES, ids=[c[0] for c in CASES]
)
def test_each_value_unions(
    table: Table,
    what: str,
    obj: JSON,
    old: JSON,
    options: frozenset[str],
    want: list[Triple],
) -> None:
    assert errors_of(table, "Policy", obj, old, options) == want
