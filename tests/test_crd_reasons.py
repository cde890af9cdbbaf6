"""Every reason a CRD plan gives for a finding (markergen.crd.reasons) names codes of the
catalog, and `crd` and `check` say the same finding in their own words from it."""

from __future__ import annotations

import pytest

from markergen.crd.reasons import Placed, Reason
from markergen.diagnostics import CATALOG, Severity
from markergen.golang.syntax import Position

AT = Position("api/v1/types.go", 12, 3)


@pytest.mark.parametrize("reason", list(Reason), ids=lambda r: r.name)
def test_each_reason_names_catalog_codes(reason: Reason) -> None:
    placed = Placed(reason, AT, "union Delivery.method at spec")
    crd = placed.for_crd()
    assert crd.code == reason.code and crd.code in CATALOG
    assert crd.pos == AT and crd.message.startswith("union Delivery.method at spec")
    check = placed.for_check()
    if check is not None:
        assert check.code in CATALOG and check.pos == AT


def test_a_rule_withheld_for_a_kept_object_is_mg511_in_checks_words() -> None:
    placed = Placed(
        Reason.REJECTS_KEPT,
        AT,
        "union Delivery.method: the rule `x` would reject Guestbook at a.yaml:2",
        severity=Severity.ERROR,  # crd --strict
        hint="correct the object",
    )
    crd, check = placed.for_crd(), placed.for_check()
    assert crd.code == "MG510" and crd.severity is Severity.ERROR
    assert crd.message.endswith("at a.yaml:2; not written")
    assert check is not None and check.code == "MG511"
    assert check.message.endswith("at a.yaml:2; `markergen crd` will not write it")
    assert check.severity is CATALOG["MG511"].severity and check.hint == "correct the object"


def test_a_union_without_rules_keeps_the_note_after_checks_words() -> None:
    placed = Placed(Reason.UNPROVEN, AT, "union U.t at spec: member a selects no value", " (x)")
    assert placed.for_crd().message.endswith(": member a selects no value; no rules written (x)")
    check = placed.for_check()
    assert check is not None and check.code == "MG506"
    assert check.message.endswith("; `markergen crd` writes no rules for this union (x)")


def test_a_union_blocked_by_a_check_error_is_not_reported_by_check() -> None:
    placed = Placed(Reason.CHECK_ERROR, AT, "union U.t at spec: `markergen check` reports MG304")
    assert placed.for_crd().code == "MG506"
    assert placed.for_check() is None
