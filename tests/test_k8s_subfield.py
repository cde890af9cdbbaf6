"""Conformance: unions of a struct field's own fields, `+k8s:subfield(name)=<union tag>`,
as validation-gen's generated code checks them.

The union lives at the field (`spec.pick`): a discriminated one reports at the member
(`pick.m1`), an undiscriminated one at the field. Each case: the object, the old object
(None on create), the enabled options, and the expected errors as (path, type, origin).
"""

from __future__ import annotations

import pytest
from k8s_tables import Triple, errors_of, table_from_go

from markergen.runtime import Table
from markergen.runtime.tree import JSON

GO = """package api

type Holder struct {
	// +k8s:subfield(d)=+k8s:unionDiscriminator
	// +k8s:subfield(m1)=+k8s:unionMember
	// +k8s:subfield(m2)=+k8s:unionMember
	Pick Choice `json:"pick"`

	// +k8s:subfield(s1)=+k8s:zeroOrOneOfMember
	// +k8s:subfield(s2)=+k8s:zeroOrOneOfMember
	// +optional
	Plain *Scalars `json:"plain,omitempty"`

	// +k8s:ifEnabled(Pick)=+k8s:subfield(m1)=+k8s:unionMember(union: "g")
	// +k8s:ifEnabled(Pick)=+k8s:subfield(m2)=+k8s:unionMember(union: "g")
	Gated Choice `json:"gated"`
}

type Choice struct {
	D  string `json:"d"`
	M1 *int   `json:"m1,omitempty"`
	M2 *int   `json:"m2,omitempty"`
}

type Scalars struct {
	S1 string            `json:"s1,omitempty"`
	S2 int32             `json:"s2,omitempty"`
	S3 map[string]string `json:"s3,omitempty"`
}
"""

OK: dict[str, JSON] = {"pick": {"d": "M1", "m1": 1}, "gated": {"m1": 1}}


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    return table_from_go(tmp_path_factory.mktemp("subfield"), GO)


CASES: list[tuple[str, JSON, JSON, frozenset[str], list[Triple]]] = [
    ("selected member set", OK, None, frozenset(), []),
    ("the other member set", {**OK, "pick": {"d": "M1", "m2": 1}}, None, frozenset(),
     [("pick.m1", "Invalid", "union"), ("pick.m2", "Invalid", "union")]),
    ("both set", {**OK, "pick": {"d": "M1", "m1": 1, "m2": 1}}, None, frozenset(),
     [("pick.m2", "Invalid", "union")]),
    ("no discriminator, nothing set", {**OK, "pick": {}}, None, frozenset(), []),
    ("field left out", {"gated": {"m1": 1}}, None, frozenset(), []),
    ("no discriminator, a member set", {**OK, "pick": {"m1": 0}}, None, frozenset(),
     [("pick.m1", "Invalid", "union")]),
    ("discriminator names no member", {**OK, "pick": {"d": "M3"}}, None, frozenset(), []),
    ("ratcheting: unchanged invalid", {**OK, "pick": {"d": "M1", "m2": 1}},
     {**OK, "pick": {"d": "M1", "m2": 1}}, frozenset(), []),
    ("ratcheting: same members, new values", {**OK, "pick": {"d": "M1", "m2": 2}},
     {**OK, "pick": {"d": "M1", "m2": 1}}, frozenset(), []),
    ("update that changes the discriminator", {**OK, "pick": {"d": "M2", "m1": 1}},
     {**OK, "pick": {"d": "M1", "m1": 1}}, frozenset(),
     [("pick.m1", "Invalid", "union"), ("pick.m2", "Invalid", "union")]),
    ("zeroOrOneOf: zero values are unset", {**OK, "plain": {"s1": "", "s2": 0}}, None,
     frozenset(), []),
    ("zeroOrOneOf: two set", {**OK, "plain": {"s1": "x", "s2": 3}}, None, frozenset(),
     [("plain", "Invalid", "zeroOrOneOf")]),
    ("gate off: not checked", {**OK, "gated": {"m1": 1, "m2": 2}}, None, frozenset(), []),
    ("gate on: two set", {**OK, "gated": {"m1": 1, "m2": 2}}, None, frozenset({"Pick"}),
     [("gated", "Invalid", "union")]),
    ("gate on: none set", {**OK, "gated": {}}, None, frozenset({"Pick"}),
     [("gated", "Invalid", "union")]),
    # on update, a struct value the old object left out is the zero struct: no member was
    # set before and none is now, so the union ratchets; a nil pointer has no old value
    ("update: struct value left out before", {**OK, "gated": {"d": "x"}}, {"pick": OK["pick"]},
     frozenset({"Pick"}), []),
    ("update: the same, a member set now", {**OK, "gated": {"m1": 1, "m2": 1}},
     {"pick": OK["pick"]}, frozenset({"Pick"}), [("gated", "Invalid", "union")]),
    ("update: pointer left out before", {**OK, "plain": {"s1": "x", "s2": 3}}, OK, frozenset(),
     [("plain", "Invalid", "zeroOrOneOf")]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("what", "obj", "old", "options", "want"), CASES, ids=[c[0] for c in CASES]
)
def test_subfield_unions(
    table: Table,
    what: str,
    obj: JSON,
    old: JSON,
    options: frozenset[str],
    want: list[Triple],
) -> None:
    assert errors_of(table, "Holder", obj, old, options) == want
