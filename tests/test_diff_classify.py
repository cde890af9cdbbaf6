"""`markergen diff` on pairs of Go API versions (testdata/diff).

Each head in testdata/diff/heads/ changes testdata/diff/base/ in one way; the expected
changes below were written from the KEP texts, not from the tool's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import TESTDATA

from markergen.diff import run_diff

DIFF = TESTDATA / "diff"
PKG = "com.example.shop.api.v1."
Row = tuple[str, str, str, str | None]


def rows(base: Path, head: Path) -> set[Row]:
    result = run_diff(str(base), str(head), DIFF, "json")
    return {(c.classification, c.kind, c.type.removeprefix(PKG), c.field) for c in result.changes}


def head(name: str) -> Path:
    return DIFF / "heads" / name


CASES: dict[str, set[Row]] = {
    # the current KEP "Adding a new member": member + enum value together is compatible.
    "member-added": {("compatible", "member-added", "Payment", "voucher")},
    # A value with no member ("empty union member") and a value of a plain enum.
    "enum-value-added": {
        ("compatible", "enum-value-added", "Payment", "type"),
        ("compatible", "enum-value-added", "Order", "priority"),
    },
    "removed": {
        ("breaking", "member-removed", "Payment", "cash"),
        ("breaking", "enum-value-removed", "Payment", "type"),  # "None", an empty member
        ("breaking", "enum-value-removed", "Order", "priority"),
    },
    "member-renamed": {
        # field kept, value Cash -> Coins; value Card kept, field card -> creditCard
        ("breaking", "member-renamed", "Payment", "cash"),
        ("breaking", "member-renamed", "Payment", "creditCard"),
    },
    "requiredness": {
        ("breaking", "member-optional-to-required", "Payment", "cash"),
        ("compatible", "member-required-to-optional", "Payment", "card"),
    },
    "discriminator-optional": {
        ("compatible", "discriminator-required-to-optional", "Payment", "type"),
    },
    "discriminator-renamed": {("breaking", "discriminator-renamed", "Payment", "kind")},
    "discriminator-removed": {("breaking", "discriminator-removed", "Payment", "type")},
    # +k8s:zeroOrOneOfMember over existing fields of a type outside k8s.io/api: nothing
    # checked them before, so breaking (the k8s.io/api case is in test_diff_rules).
    "union-added-removed": {
        ("breaking", "union-added", "Order", None),
        ("compatible", "union-removed", "Payment", "type"),
    },
    # Types moved to other files, a file renamed, fields and constants reordered, and
    # Payment renamed to PaymentMethod: definitions do not depend on files or order.
    "unchanged": set(),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_class_of_change(case: str) -> None:
    assert rows(DIFF / "base", head(case)) == CASES[case]


# Undoing a change: removals become additions and stricter becomes looser.
REVERSED: dict[str, set[Row]] = {
    "member-added": {("breaking", "member-removed", "Payment", "voucher")},
    "requiredness": {
        ("compatible", "member-required-to-optional", "Payment", "cash"),
        ("breaking", "member-optional-to-required", "Payment", "card"),
    },
    "discriminator-optional": {
        ("breaking", "discriminator-optional-to-required", "Payment", "type"),
    },
    "removed": {
        ("compatible", "member-added", "Payment", "cash"),
        ("compatible", "enum-value-added", "Payment", "type"),
        ("compatible", "enum-value-added", "Order", "priority"),
    },
    "union-added-removed": {
        ("compatible", "union-removed", "Order", None),
        ("breaking", "union-added", "Payment", "type"),
    },
    "unchanged": set(),
}


@pytest.mark.parametrize("case", sorted(REVERSED))
def test_reversed_changes(case: str) -> None:
    assert rows(head(case), DIFF / "base") == REVERSED[case]


def test_union_messages_say_what_clients_lose_and_gain() -> None:
    result = run_diff(str(DIFF / "base"), str(head("union-added-removed")), DIFF)
    declared = next(c for c in result.changes if c.kind == "union-added")
    assert '"gift", "note"' in declared.message
    assert "not a built-in Kubernetes type" in declared.message
    removed = next(c for c in result.changes if c.kind == "union-removed")
    assert "lose normalization" in removed.message


def test_messages_name_the_values() -> None:
    result = run_diff(str(DIFF / "base"), str(head("removed")), DIFF)
    by_field = {(c.type.removeprefix(PKG), c.field): c.message for c in result.changes}
    assert '"High"' in by_field[("Order", "priority")]
    assert '"None"' in by_field[("Payment", "type")]
    assert '"Cash"' in by_field[("Payment", "cash")]


def test_new_member_on_a_value_that_selected_nothing_is_breaking(tmp_path: Path) -> None:
    # the current KEP "empty union members": objects with type None carry no member; once None
    # selects a required member they are invalid.
    text = (DIFF / "base" / "api" / "v1" / "types.go").read_text()
    text = text.replace(
        '\tCash *CashPayment `json:"cash,omitempty"`\n}',
        '\tCash *CashPayment `json:"cash,omitempty"`\n'
        '\t// +unionMember\n\t// +optional\n\tNone *string `json:"none,omitempty"`\n}',
    )
    assert "None *string" in text
    (tmp_path / "api" / "v1").mkdir(parents=True)
    (tmp_path / "go.mod").write_text((DIFF / "base" / "go.mod").read_text())
    (tmp_path / "api" / "v1" / "types.go").write_text(text)
    assert rows(DIFF / "base", tmp_path) == {("breaking", "member-added", "Payment", "none")}


def test_dialect_kep2019_to_kep1027_reports_what_changes_for_clients() -> None:
    result = run_diff(str(DIFF / "dialect" / "base"), str(DIFF / "dialect" / "head"), DIFF)
    got = {(c.classification, c.kind, c.type.removeprefix(PKG), c.field) for c in result.changes}
    assert got == {
        ("breaking", "union-dialect-changed", "Source", "type"),
        # member values change from Go field names to enum values
        ("breaking", "member-renamed", "Source", "git"),
        ("breaking", "member-renamed", "Source", "http"),
        ("breaking", "discriminator-enum-added", "Source", "type"),
        ("breaking", "discriminator-optional-to-required", "Source", "type"),
    }
    dialect = next(c for c in result.changes if c.kind == "union-dialect-changed")
    assert "only when the discriminator changes" in dialect.message
    assert '"git": "Git" -> "GitRepository"' in dialect.message
    assert result.breaking == 5 and result.compatible == 0


def test_output_is_sorted_breaking_first_and_deterministic() -> None:
    a = run_diff(str(DIFF / "base"), str(head("union-added-removed")), DIFF, "json")
    b = run_diff(str(DIFF / "base"), str(head("union-added-removed")), DIFF, "json")
    assert a.text == b.text
    assert [c.kind for c in a.changes] == ["union-added", "union-removed"]
    mixed = run_diff(str(DIFF / "base"), str(head("requiredness")), DIFF, "json")
    classes = [c.classification for c in mixed.changes]
    assert classes == sorted(classes, key=["breaking", "compatible", "not-compared"].index)
    assert "breaking" in classes and "compatible" in classes


def _module(root: Path, source: str) -> Path:
    (root / "api" / "v1").mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/shop\n\ngo 1.22\n")
    (root / "api" / "v1" / "types.go").write_text(source)
    return root


EMBEDDED = """package v1

// +enum
type Kind string

const (
	KindA Kind = "A"
	KindB Kind = "B"
)

type Inner struct {
	// +unionDiscriminator
	// +required
	Kind Kind `json:"kind"`
	// +unionMember
	// +optional
	A *string `json:"a,omitempty"`
	// +unionMember
	// +optional
	B *string `json:"b,omitempty"`
}

type Outer struct {
	Inner `json:",inline"`
	Name string `json:"name"`
}
"""


def test_union_change_of_an_inlined_struct_is_reported_once(tmp_path: Path) -> None:
    """The parent's schema lists the unions of inlined embedded structs, but a change
    there is one change: reported at the inlined struct, not again per embedding type."""
    base = _module(tmp_path / "a", EMBEDDED)
    head = _module(tmp_path / "b", EMBEDDED.replace('\tKindB Kind = "B"\n', ""))
    # Value "B" leaves the enum (member b keeps it, which the checker reports as MG303).
    assert rows(base, head) == {("breaking", "enum-value-removed", "Inner", "kind")}


def test_type_gone_without_a_rename_is_reported(tmp_path: Path) -> None:
    base = _module(tmp_path / "a", EMBEDDED)
    # Outer renamed and given another field: not recognisable as a rename.
    head = _module(
        tmp_path / "b",
        EMBEDDED.replace("type Outer struct", "type Wrapper struct").replace(
            'Name string `json:"name"`', 'Title string `json:"title"`'
        ),
    )
    assert rows(base, head) == {
        ("breaking", "type-removed", "Outer", None),
        ("compatible", "type-added", "Wrapper", None),
    }
