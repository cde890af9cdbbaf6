"""The `kep2019` semantics: the 2019 KEP "Normalizing on updates", every branch, plus
"At most one versus exactly one" and "Clearing all the fields"."""

from __future__ import annotations

from pathlib import Path

from markergen.runtime import Table, normalize, normalize_apply, validate

DATA = Path(__file__).resolve().parent.parent / "testdata" / "runtime"
T = Table.load(DATA / "kep000.json")
U = "io.example.v1.Union"  # discriminator unionType; member values are Go field names
U2 = "io.example.v1.Union2"  # no discriminator


def test_discriminator_changed_clears_all_but_named() -> None:
    """The 2019 KEP "Normalizing on updates": discriminator value changed → clear all fields but
    the one specified by the discriminator."""
    old = {"unionType": "FieldA", "fieldA": 1}
    new = {"unionType": "FieldB", "fieldA": 1, "fieldB": 2, "fieldC": 3}
    assert normalize(T, U, old, new) == {"unionType": "FieldB", "fieldB": 2}


def test_discriminator_changed_to_nothing_value_clears_everything() -> None:
    """The 2019 KEP "Clearing all the fields": a "Nothing" value clears every field."""
    old = {"unionType": "FieldA", "fieldA": 1}
    assert normalize(T, U, old, {"unionType": "Nothing", "fieldA": 1}) == {"unionType": "Nothing"}


def test_exactly_one_field_sets_discriminator() -> None:
    """The 2019 KEP: discriminator unchanged and exactly one field → set the discriminator to it."""
    old = {"unionType": "FieldA", "fieldA": 1}
    assert normalize(T, U, old, {"unionType": "FieldA", "fieldB": 2}) == {
        "unionType": "FieldB",
        "fieldB": 2,
    }


def test_exactly_one_field_on_create_sets_discriminator() -> None:
    """The 2019 KEP: normalization runs for creations too."""
    assert normalize(T, U, None, {"fieldC": 3}) == {"fieldC": 3, "unionType": "FieldC"}


def test_one_field_added_wins_and_clears_others() -> None:
    """The 2019 KEP: exactly one field added (dumb client leaves the old one) → set discriminator,
    remove all other fields."""
    old = {"unionType": "FieldA", "fieldA": 1}
    new = {"unionType": "FieldA", "fieldA": 1, "fieldB": 2}
    assert normalize(T, U, old, new) == {"unionType": "FieldB", "fieldB": 2}


def test_more_than_one_added_is_left_for_validation() -> None:
    """The 2019 KEP: more than one field added → leave it, validation fails (at most one)."""
    old = {"unionType": "FieldA", "fieldA": 1}
    new = {"unionType": "FieldA", "fieldA": 1, "fieldB": 2, "fieldC": 3}
    out = normalize(T, U, old, new)
    assert out == new
    assert [e.path for e in validate(T, U, out)] == ["fieldB", "fieldC"]


def test_no_discriminator_one_added() -> None:
    """The 2019 KEP: no discriminator → compare fields set before and after."""
    assert normalize(T, U2, {"alpha": 1}, {"alpha": 1, "beta": 2}) == {"beta": 2}


def test_no_discriminator_exactly_one_is_kept() -> None:
    assert normalize(T, U2, {"alpha": 1}, {"beta": 2}) == {"beta": 2}


def test_removing_the_discriminator_is_not_a_change() -> None:
    """The 2019 KEP "Backward compatibilities properties": a dumb client that does not know the
    discriminator drops it; that must not clear the union, and the discriminator is set back."""
    old = {"unionType": "FieldA", "fieldA": 1}
    assert normalize(T, U, old, {"fieldA": 1}) == {"fieldA": 1, "unionType": "FieldA"}


def test_no_field_set_changes_nothing() -> None:
    assert normalize(T, U, {"fieldA": 1}, {}) == {}


def test_at_most_one_validation() -> None:
    """The 2019 KEP "At most one versus exactly one": validation is at most one."""
    assert validate(T, U, {}) == []
    assert [str(e) for e in validate(T, U2, {"alpha": 1, "beta": 2})] == [
        "beta: Forbidden: may not be set when alpha is set: only one of alpha, beta may be set"
    ]


def test_discriminator_disagreeing_with_member_is_invalid() -> None:
    assert [str(e) for e in validate(T, U, {"unionType": "FieldA", "fieldB": 1})] == [
        'unionType: Invalid value: "FieldA": does not match the member that is set (fieldB)'
    ]


def test_apply_one_member_wins() -> None:
    merged = {"unionType": "FieldA", "fieldA": 1, "fieldB": 2}
    assert normalize_apply(T, U, {"fieldB": 2}, merged) == {"unionType": "FieldB", "fieldB": 2}


def test_apply_discriminator_only_clears_others() -> None:
    merged = {"unionType": "FieldC", "fieldA": 1}
    assert normalize_apply(T, U, {"unionType": "FieldC"}, merged) == {"unionType": "FieldC"}
