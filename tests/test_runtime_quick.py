"""The compiled union checks (markergen/runtime/quick.py) against the reference rules.

quick.py answers the common case without the reference code; these properties hold it
to that code on generated unions and objects: a quick check says "valid" exactly when
the reference reports nothing, and a quick normalization either does exactly what the
reference does or leaves the object untouched for the reference (only where the
reference fails or reads a discriminator that is not a string).
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from markergen.runtime import Table, UnionError, normalize, validate
from markergen.runtime.semantics import normalize_kep1027, normalize_kep2019, normalize_smd
from markergen.runtime.table import Union
from markergen.runtime.tree import ROOT
from markergen.runtime.validate import _at_most_one_with_discriminator, _kep1027

MANY = settings(max_examples=600, deadline=None, database=None)
FIELDS = ["a", "b", "c", "d"]
# member values (two members may share one), "", a value no member has, a value that is
# a field's name (smd reads it as that field), and contents that are not strings
VALUES = ["A", "B", "C", "", "Z", "b"]
discriminators = st.sampled_from(VALUES) | st.none() | st.sampled_from([0, True, ["A"]])
member_contents = st.none() | st.integers(0, 2) | st.just({}) | st.just("")


@st.composite
def union_defs(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(min_value=1, max_value=4))
    members = [
        {
            "field": FIELDS[i],
            "value": draw(st.sampled_from(["A", "B", "C", "", "ABCD"[i]])),
            "optional": draw(st.booleans()),
        }
        for i in range(n)
    ]
    raw = {
        "semantics": draw(st.sampled_from(["kep1027", "kep2019", "smd"])),
        "discriminator": draw(st.sampled_from(["type", None])),
        "discriminatorRequired": draw(st.booleans()),
        "values": draw(st.sampled_from([[], ["", "A", "B"], ["A", "Z"], ["B", "C", "D"]])),
        "members": members,
        "mode": draw(st.sampled_from(["exactly-one", "at-most-one", "at-least-one"])),
        "deduceInvalidDiscriminator": draw(st.booleans()),
    }
    return raw


def _table(raw: dict[str, Any]) -> Table:
    """Type T holds the union in a flat object; type W the same union beside an object
    field, so that the walk runs (the flat path skips it)."""
    fields: dict[str, Any] = {f: {"kind": "scalar"} for f in [*FIELDS, "type"]}
    wide = {**fields, "other": {"kind": "object", "type": "T"}}
    types = {"T": {"fields": fields, "unions": [raw]}, "W": {"fields": wide, "unions": [raw]}}
    return Table.from_dict({"version": 1, "types": types})


@st.composite
def unions(draw: st.DrawFn) -> Union:
    return _table(draw(union_defs())).types["T"].unions[0]


@st.composite
def objects(draw: st.DrawFn) -> dict[str, Any]:
    obj: dict[str, Any] = {"other": 1}
    for f in FIELDS:
        if draw(st.booleans()):
            obj[f] = draw(member_contents)
    if draw(st.booleans()):
        obj["type"] = draw(discriminators)
    return obj


@st.composite
def updates(draw: st.DrawFn) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """(old, new): a create, two unrelated objects, or an update that changes one key
    (the shapes whose normalization depends on what changed)."""
    new = draw(objects())
    kind = draw(st.sampled_from(["create", "unrelated", "one change"]))
    if kind == "create":
        return None, new
    if kind == "unrelated":
        return draw(objects()), new
    old = dict(new)
    key = draw(st.sampled_from([*FIELDS, "type"]))
    if key in old and draw(st.booleans()):
        del old[key]
    else:
        old[key] = draw(discriminators if key == "type" else member_contents)
    return old, new


def _reference_errors(union: Union, old: dict[str, Any] | None, obj: dict[str, Any]) -> list[Any]:
    if union.semantics == "kep1027":
        return _kep1027(union, ROOT, old, obj)
    return _at_most_one_with_discriminator(union, ROOT, obj)


@MANY
@given(unions(), updates())
def test_quick_valid_is_the_reference_without_errors(
    union: Union, update: tuple[dict[str, Any] | None, dict[str, Any]]
) -> None:
    old, obj = update
    quick = union.quick_valid
    assert quick is not None
    before = copy.deepcopy(obj)
    assert quick(old, obj) == (_reference_errors(union, old, obj) == [])
    assert obj == before


@MANY
@given(unions(), updates())
def test_quick_normalize_does_what_the_reference_does(
    union: Union, update: tuple[dict[str, Any] | None, dict[str, Any]]
) -> None:
    old, obj = update
    quick = union.quick_normalize
    if union.discriminator is None:
        assert quick is None  # the reference code is the fast one there
        return
    assert quick is not None
    expected = copy.deepcopy(obj)
    if union.semantics == "smd":
        errors = normalize_smd(union, old, expected, ROOT)
    elif union.semantics == "kep2019":
        normalize_kep2019(union, old, expected)
        errors = []
    else:
        normalize_kep1027(union, old, expected)
        errors = []
    got = copy.deepcopy(obj)
    if quick(old, got):
        assert errors == []
        assert got == expected
    else:
        # left to the reference, untouched: only smd does that, where it fails or a
        # discriminator is not a string
        assert got == obj
        assert union.semantics == "smd"
        strings = all(
            o is None or not isinstance(o.get("type"), bool | int | list) for o in (old, got)
        )
        assert errors or not strings


def test_the_reference_alone_serves_k8s_and_non_string_discriminators() -> None:
    fields = {f: {"kind": "scalar"} for f in [*FIELDS, "type"]}
    k8s = {"semantics": "k8s", "members": [{"field": "a", "value": "A"}]}
    numbers = {
        "semantics": "kep1027",
        "discriminator": "type",
        "valueType": "integer",
        "members": [{"field": "a", "value": 1}, {"field": "b", "value": 2}],
    }
    table = Table.from_dict(
        {"version": 1, "types": {"T": {"fields": fields, "unions": [k8s, numbers]}}}
    )
    for union in table.types["T"].unions:
        assert union.quick_valid is None and union.quick_normalize is None
    # and the reference still decides: "1" is no value of an integer discriminator
    assert [str(e) for e in validate(table, "T", {"type": "1", "a": 1})] == [
        'type: Invalid value: "1": must be an integer'
    ]


def test_smd_reads_an_unclaimed_discriminator_value_as_a_field_name() -> None:
    # structured-merge-diff's toField: "b" is no member's value, so it names field b
    fields = {f: {"kind": "scalar"} for f in [*FIELDS, "type"]}
    raw = {
        "semantics": "smd",
        "discriminator": "type",
        "members": [{"field": "a", "value": "A"}, {"field": "b", "value": "B"}],
    }
    table = Table.from_dict({"version": 1, "types": {"T": {"fields": fields, "unions": [raw]}}})
    union = table.types["T"].unions[0]
    assert union.quick_normalize is not None
    old = {"type": "A", "a": 1, "b": 1}
    expected = {"type": "b", "a": 1, "b": 1}
    assert normalize_smd(union, old, expected, ROOT) == []
    got = {"type": "b", "a": 1, "b": 1}
    assert union.quick_normalize(old, got)
    assert got == expected == {"type": "b", "b": 1}


def _outcome(table: Table, type_name: str, old: Any, new: Any) -> Any:
    try:
        out = normalize(table, type_name, old, new)
    except UnionError as e:
        return "error", e.errors
    return out, validate(table, type_name, out, old)


@MANY
@given(union_defs(), updates())
def test_a_flat_object_gets_what_the_walk_gives(
    raw: dict[str, Any], update: tuple[dict[str, Any] | None, dict[str, Any]]
) -> None:
    old, new = update
    new = {k: v for k, v in new.items() if k != "other"}
    table = _table(raw)
    assert not table.types["T"].has_children and table.types["W"].has_children
    assert _outcome(table, "T", old, new) == _outcome(table, "W", old, new)
