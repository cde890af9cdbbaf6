"""The `smd` semantics against structured-merge-diff 4.1.2's own test cases.

typed/union_test.go's cases are transcribed as data in testdata/runtime/smd_typed_cases.json
(inputs, expected outputs, expected failures); merge/union_test.go's cases that exercise
union normalization (not field ownership) are written out below.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from markergen.runtime import Table, UnionError, normalize, normalize_apply, validate

DATA = Path(__file__).resolve().parent.parent / "testdata" / "runtime"
CASES = json.loads((DATA / "smd_typed_cases.json").read_text(encoding="utf-8"))
TYPED = Table.load(DATA / "smd_typed.json")
MERGE = Table.load(DATA / "smd_merge.json")


def test_all_cases_were_transcribed() -> None:
    # typed/union_test.go has 25 TestNormalizeUnions and 8 TestNormalizeUnionError cases
    assert len(CASES["normalize"]) == 25
    assert len(CASES["normalizeErrors"]) == 8


@pytest.mark.parametrize("case", CASES["normalize"], ids=lambda c: c["name"])
def test_typed_normalize_unions(case: dict[str, Any]) -> None:
    """smd typed/union_test.go TestNormalizeUnions."""
    assert normalize(TYPED, "union", case["old"], case["new"]) == case["out"]


@pytest.mark.parametrize("case", CASES["normalizeErrors"], ids=lambda c: c["name"])
def test_typed_normalize_union_errors(case: dict[str, Any]) -> None:
    """smd typed/union_test.go TestNormalizeUnionError: normalization must fail."""
    with pytest.raises(UnionError) as info:
        normalize(TYPED, "union", case["old"], case["new"])
    assert info.value.errors
    assert all(e.type == "Invalid" for e in info.value.errors)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            {"one": 1},
            {"one": 2, "two": 1},
            "multiple fields set without discriminator change: one, two",
        ),
        (
            {},
            {"one": 1, "discriminator": "Two"},
            "discriminator (Two) and field changed (one) don't match",
        ),
        ({}, {"one": 1, "two": 1, "discriminator": "One"}, "multiple new fields added: one, two"),
    ],
)
def test_smd_error_messages(old: dict[str, Any], new: dict[str, Any], message: str) -> None:
    """smd's error texts, with field sets sorted (smd prints a Go map in random order)."""
    with pytest.raises(UnionError) as info:
        normalize(TYPED, "union", old, new)
    assert [str(e) for e in info.value.errors] == [f"Invalid value: {message}"]


def test_smd_errors_carry_the_path_of_the_object() -> None:
    table = Table.from_dict(
        {
            "version": 1,
            "types": {
                "root": {"fields": {"items": {"kind": "list", "type": "union"}}},
                "union": json.loads((DATA / "smd_typed.json").read_text())["types"]["union"],
            },
        }
    )
    with pytest.raises(UnionError) as info:
        normalize(table, "root", {"items": [{}, {"one": 1}]}, {"items": [{}, {"one": 1, "two": 2}]})
    assert [e.path for e in info.value.errors] == ["items[1]"]


# merge/union_test.go: the Updater calls NormalizeUnionsApply(config, config) on the applied
# configuration and NormalizeUnionsApply(config, merged) on the merged object.
def _apply(live: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    checked = normalize_apply(MERGE, "unionFields", config, config)
    merged = {**live, **checked}
    result: dict[str, Any] = normalize_apply(MERGE, "unionFields", checked, merged)
    return result


def test_merge_union_apply_owns_discriminator() -> None:
    """merge/union_test.go union_apply_owns_discriminator."""
    assert _apply({}, {"numeric": 1}) == {"numeric": 1, "type": "Numeric"}


def test_merge_union_update_deduces_discriminator() -> None:
    """merge/union_test.go union_apply_without_discriminator_conflict, first step: an Update
    that sets `string` gets `type: String` (the later conflict is field ownership, not unions)."""
    assert normalize(MERGE, "unionFields", {}, {"string": "some string"}) == {
        "string": "some string",
        "type": "String",
    }


def test_merge_union_apply_with_null_value() -> None:
    """merge/union_test.go union_apply_with_null_value: a null member is not set."""
    out = _apply({}, {"type": "Numeric", "string": None, "numeric": 1})
    assert out["numeric"] == 1 and out["type"] == "Numeric"


def test_merge_union_apply_multiple_unions() -> None:
    """merge/union_test.go union_apply_multiple_unions."""
    first = _apply({}, {"string": "some string", "fieldA": "fieldA string"})
    assert first == {"string": "some string", "fieldA": "fieldA string", "type": "String"}
    second = _apply(first, {"numeric": 0, "fieldB": "fieldB string"})
    assert second == {"type": "Numeric", "numeric": 0, "fieldB": "fieldB string"}


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (
            {"numeric": 1, "string": "some string"},
            "more than one field of union applied: numeric, string",
        ),
        (
            {"type": "Numeric", "string": "some string", "numeric": 1},
            "more than one field of union applied: numeric, string",
        ),
        (
            {"type": "Numeric", "string": "some string"},
            "applied discriminator (Numeric) doesn't match applied field (string)",
        ),
    ],
    ids=["union_apply_two", "union_apply_two_and_discriminator", "union_apply_wrong_discriminator"],
)
def test_merge_union_errors(config: dict[str, Any], message: str) -> None:
    """merge/union_test.go TestUnionErrors."""
    with pytest.raises(UnionError) as info:
        _apply({}, config)
    assert [e.message for e in info.value.errors] == [message]


def test_smd_unknown_discriminator_value_names_a_field() -> None:
    """smd's toField: a value no member claims is read as a field name and that field kept."""
    out = normalize(
        TYPED,
        "union",
        {"discriminator": "One", "one": 1, "two": 2},
        {"discriminator": "two", "one": 1, "two": 2},
    )
    assert out == {"discriminator": "two", "two": 2}


def test_smd_validate_reports_several_members() -> None:
    errors = validate(TYPED, "union", {"one": 1, "two": 2})
    assert [str(e) for e in errors] == [
        "two: Forbidden: may not be set when one is set: only one of one, two, three may be set"
    ]


def test_forced_smd_semantics_on_a_kep1027_table() -> None:
    table = Table.load(DATA / "kep004.json", semantics="smd")
    with pytest.raises(UnionError):
        normalize(table, "io.example.v1.Union", {"fieldA": 1}, {"fieldA": 1, "fieldB": 2})
