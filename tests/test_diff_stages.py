"""Stage awareness of `markergen diff`: the stage of the type's API version and the gate
of the field, and what `--fail-on breaking` / `breaking-any-stage` count."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_diff_rules import PAYMENT, module, src

from markergen.diff import DiffResult, run_diff

CASH = '\t// +unionMember\n\t// +optional\n\tCash *Cash `json:"cash,omitempty"`\n'


def removed_cash(
    tmp_path: Path, package: str, before: str, after: str, module_path: str = "example.com/shop"
) -> DiffResult:
    base = module(
        tmp_path / "base", {f"api/{package}/types.go": src(before, package)}, module_path
    )
    head = module(tmp_path / "head", {f"api/{package}/types.go": src(after, package)}, module_path)
    return run_diff(str(base), str(head), tmp_path, "json")


@pytest.mark.parametrize(
    ("package", "stage"), [("v1", "ga"), ("v2beta3", "beta"), ("v1alpha1", "alpha")]
)
def test_stage_of_the_version(tmp_path: Path, package: str, stage: str) -> None:
    result = removed_cash(tmp_path, package, PAYMENT, PAYMENT.replace(CASH, ""))
    (change,) = result.changes
    assert (change.kind, change.stage, change.gate) == ("member-removed", stage, "")
    # The conventions: "Breaking compatibility of a beta or stable API version, such as
    # v1, is unacceptable. Compatibility for experimental or alpha APIs is not strictly
    # required"; --fail-on breaking holds GA to it, breaking-any-stage every stage.
    assert result.fails("breaking") is (stage == "ga")
    assert result.fails("breaking-any-stage")
    assert result.fails("any") and not result.fails("none")


GATED = {
    "featureGate": ("\t// +featureGate=PayInCash\n", "featureGate=PayInCash"),
    "ifEnabled": ("\t// +k8s:ifEnabled(PayInCash)=+k8s:optional\n", "k8s:ifEnabled(PayInCash)"),
    "alpha": ('\t// +k8s:alpha(since: "1.36")=+k8s:required\n', "k8s:alpha"),
    "beta": ('\t// +k8s:beta(since: "1.36")=+k8s:required\n', "k8s:beta"),
}


@pytest.mark.parametrize("how", sorted(GATED))
def test_gated_field_is_labelled_and_not_counted_at_ga(tmp_path: Path, how: str) -> None:
    marker, label = GATED[how]
    gated = PAYMENT.replace(CASH, marker + CASH)
    result = removed_cash(tmp_path, "v1", gated, gated.replace(marker + CASH, ""))
    (change,) = result.changes
    assert (change.kind, change.stage, change.gate) == ("member-removed", "ga", label)
    assert not result.fails("breaking")
    assert result.fails("breaking-any-stage")
    assert label in result.text  # the JSON report says it


def test_union_declared_behind_a_stage_prefix_carries_it(tmp_path: Path) -> None:
    plain = (
        'type Payment struct {\n\t// +optional\n\tCard *Card `json:"card,omitempty"`\n'
        '\t// +optional\n\tCash *Cash `json:"cash,omitempty"`\n}\n'
    )
    staged = plain.replace(
        "\t// +optional\n",
        '\t// +k8s:alpha(since: "1.36")=+k8s:zeroOrOneOfMember\n\t// +optional\n',
    )
    result = removed_cash(tmp_path, "v1", plain, staged, "k8s.io/api")
    (change,) = result.changes
    assert change.kind == "union-declared"
    assert change.gate == "k8s:alpha"


def test_text_and_github_show_the_labels(tmp_path: Path) -> None:
    base = module(tmp_path / "base", {"api/v1beta1/types.go": src(PAYMENT, "v1beta1")})
    head = module(
        tmp_path / "head", {"api/v1beta1/types.go": src(PAYMENT.replace(CASH, ""), "v1beta1")}
    )
    text = run_diff(str(base), str(head), tmp_path, "text").text
    assert "(Payment.Cash, beta)" in text
    github = run_diff(str(base), str(head), tmp_path, "github").text
    # Not counted by --fail-on breaking: a warning, not an error. The member is gone, so
    # the annotation goes on its type in the head (GitHub shows head lines only).
    assert github.startswith("::warning file=head/api/v1beta1/types.go,line=")
    assert "Payment.Cash (com.example.shop.api.v1beta1.Payment.cash) [beta]: " in github
