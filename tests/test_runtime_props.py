"""Property tests over generated tables and objects (hypothesis)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from markergen.runtime import Table, UnionError, apply_patch, normalize, normalize_apply, validate
from markergen.runtime.semantics import set_members

# database=None: no .hypothesis/ directory in the work tree; failures print their example
FAST = settings(max_examples=100, deadline=None, database=None)
T = "t.Node"
MEMBERS = ["a", "b", "c", "d"]
NAMES = ["type", "child", "items", "byName", "other", *MEMBERS]

scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4)
)
member_values = st.sampled_from(["A", "B", "C", "D", "", "Z"])
json_values = st.recursive(
    scalars | member_values,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(NAMES) | st.text(max_size=3), inner, max_size=5)
    ),
    max_leaves=8,
)


# members hold small values: deep member contents add generation time, not coverage
member_contents: st.SearchStrategy[Any] = (
    scalars | st.just({}) | st.just([]) | st.dictionaries(st.text(max_size=2), scalars, max_size=2)
)


@st.composite
def tables(draw: st.DrawFn, kep1027_discriminated: bool = False) -> Table:
    n = draw(st.integers(min_value=1, max_value=4))
    has_disc = kep1027_discriminated or draw(st.booleans())
    members = [
        {"field": MEMBERS[i], "value": "ABCD"[i], "optional": draw(st.booleans())} for i in range(n)
    ]
    values = draw(
        st.sampled_from([[], ["", *("ABCD"[:n])], ["ABCD"[:n][0], "E"], list("ABCD"[:n])])
    )
    union = {
        "semantics": "kep1027"
        if kep1027_discriminated
        else draw(st.sampled_from(["kep1027", "kep2019", "smd"])),
        "discriminator": "type" if has_disc else None,
        "discriminatorRequired": draw(st.booleans()),
        "values": values if has_disc else [],
        "members": members,
        "mode": draw(st.sampled_from(["exactly-one", "at-most-one"])),
        "deduceInvalidDiscriminator": draw(st.booleans()),
    }
    fields: dict[str, Any] = {
        m: {"kind": draw(st.sampled_from(["scalar", "object"]))} for m in MEMBERS
    }
    fields.update(
        {
            "type": {"kind": "scalar"},
            "child": {"kind": "object", "type": T},
            "items": {
                "kind": "list",
                "type": T,
                **({"listMapKeys": ["type"]} if draw(st.booleans()) else {}),
            },
            "byName": {"kind": "map", "type": T},
        }
    )
    return Table.from_dict({"version": 1, "types": {T: {"fields": fields, "unions": [union]}}})


def node_objects() -> st.SearchStrategy[dict[str, Any]]:
    leaf = st.fixed_dictionaries(
        {},
        optional={"type": member_values | scalars, **{m: member_contents for m in MEMBERS}},
    )
    return st.recursive(
        leaf,
        lambda inner: st.builds(
            lambda base, child, items, by: {**base, "child": child, "items": items, "byName": by},
            leaf,
            inner | json_values,
            st.lists(inner, max_size=3) | json_values,
            st.dictionaries(st.text(max_size=2), inner, max_size=2),
        ),
        max_leaves=4,
    )


objects = node_objects() | json_values


@FAST
@given(tables(), objects, objects)
def test_never_mutates_and_only_raises_union_error(table: Table, old: Any, new: Any) -> None:
    old0, new0 = copy.deepcopy(old), copy.deepcopy(new)
    for call in (
        lambda: normalize(table, T, old, new),
        lambda: normalize_apply(table, T, old, new),
        lambda: validate(table, T, new, old),
        lambda: apply_patch(table, T, old, new),
    ):
        try:
            call()
        except UnionError as exc:
            assert exc.errors
        assert old == old0 and new == new0


@FAST
@given(tables(), objects, objects)
def test_normalize_is_idempotent(table: Table, old: Any, new: Any) -> None:
    try:
        once = normalize(table, T, old, new)
    except UnionError:
        return
    assert normalize(table, T, old, once) == once


@FAST
@given(tables(kep1027_discriminated=True), node_objects(), node_objects(), member_values)
def test_kep1027_change_to_known_value_leaves_at_most_the_selected_member(
    table: Table, old: dict[str, Any], new: dict[str, Any], value: str
) -> None:
    """kep1027: a change to a known value leaves at most the selected member;
    an unknown value clears nothing."""
    union = table.type(T).unions[0]
    old = {**old, "type": "D" if value != "D" else "A"}
    new = {**new, "type": value}
    out = normalize(table, T, old, new)
    if not union.is_known_value(value):
        assert set_members(out, union) == set_members(new, union)
        return
    selected = union.member_for_value(value)
    assert set(set_members(out, union)) <= ({selected.field} if selected else set())


@FAST
@given(tables(), node_objects())
def test_validate_returns_field_errors_with_strings(table: Table, obj: dict[str, Any]) -> None:
    for e in validate(table, T, obj):
        assert e.type in ("Required", "Forbidden", "NotSupported", "Invalid")
        assert str(e).startswith(e.path)
