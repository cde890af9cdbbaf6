"""Merged Go+CRD entries of `markergen diff` (issue 37 item 4): the class never lower than
either side's, the Go facts (import path, field, base side) on every entry, a witness per
change rejected for that change's reason, and annotations on the Go lines (the enum
marker for an enum change) with the CRD's `enum:` line. Fixture: tests/diffunion.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from diffunion import CRD, DROP_GCP, DROP_GCP_VALUE, GO, line_of, project, show

from markergen.diff import run_diff
from markergen.diff.classify import Change
from markergen.diff.crdgo import merge


def _json(root: Path, base: str = "HEAD~1", head: str = "HEAD") -> list[dict[str, Any]]:
    changes: list[dict[str, Any]] = json.loads(run_diff(base, head, root, "json").text)["changes"]
    return changes


def test_member_removed_with_its_value_kept_is_breaking_with_the_go_facts(
    tmp_path: Path,
) -> None:
    root = project(tmp_path, DROP_GCP)
    result = run_diff("HEAD~1", "HEAD", root, "json")
    assert result.fails("breaking")
    (c,) = json.loads(result.text)["changes"]
    assert (c["class"], c["kind"]) == ("breaking", "member-removed")
    # the Go entry's facts, not the CRD's group/version
    assert c["go_package"] == "example.com/widgets/api/v1"
    assert (c["field"], c["go_type"], c["go_field"]) == ("gcp", "Provider", "GCP")
    base_go = tmp_path / "base.go"  # the base's Go file: the removed field's line
    base_go.write_text(show(root, "HEAD~1:" + GO))
    assert (c["file"], c["line"], c["base"]) == (GO, line_of(base_go, "GCP *GCP"), True)
    assert c["crd"]["witness"] == {"gcp": {}, "type": "GCP"}
    # annotated on the head's Go type, not on a base line nor the CRD's first rule
    (annotation, _) = run_diff("HEAD~1", "HEAD", root, "github").text.splitlines()
    head_struct = line_of(root / GO, "type Provider struct")
    assert annotation.startswith(f"::error file={GO},line={head_struct},")


def test_member_and_its_value_removed_are_one_entry(tmp_path: Path) -> None:
    # one cause, one entry (issue 37 item 1): the member's entry says its value is gone too
    root = project(tmp_path, DROP_GCP + DROP_GCP_VALUE)
    (member,) = _json(root)
    assert (member["class"], member["kind"]) == ("breaking", "member-removed")
    assert '"GCP" is gone' in member["message"]
    # its witness sets the member, which is what the head refuses
    assert member["crd"]["witness"] == {"gcp": {}, "type": "GCP"}


def test_a_value_removed_is_annotated_on_the_enum_lines(tmp_path: Path) -> None:
    root = project(tmp_path, DROP_GCP_VALUE)
    (enum,) = _json(root)
    assert (enum["class"], enum["kind"]) == ("breaking", "enum-value-removed")
    # the value's witness does not set the member
    assert enum["crd"]["witness"] == {"type": "GCP"}
    # the enum change: on the Go enum marker and on the CRD's `enum:` line itself
    assert (enum["field"], enum["go_field"]) == ("type", "Type")
    assert enum["go_package"] == "example.com/widgets/api/v1"
    assert (enum["file"], enum["line"], enum["base"]) == (
        GO,
        line_of(root / GO, "+kubebuilder:validation:Enum=AWS"),
        False,
    )
    crd_enum = line_of(root / CRD, "enum:", after="provider:")
    assert (enum["crd"]["file"], enum["crd"]["line"]) == (CRD, crd_enum)
    github = run_diff("HEAD~1", "HEAD", root, "github").text
    assert f"file={GO},line={enum['line']},title=markergen diff%3A breaking enum-value" in github


class _OneStruct:
    """A Go map whose every CRD node is the struct `Def` (for merge alone)."""

    def definition(self, c: Change) -> str:
        return "Def"

    def owner(self, c: Change) -> str:
        return "Def"

    def struct_of(self, c: Change) -> None:
        return None


@pytest.mark.parametrize(
    ("crd_class", "go_class", "merged"),
    [
        ("compatible", "breaking", "breaking"),  # a field removed: the Go says breaking
        ("breaking", "compatible", "breaking"),
        ("not-compared", "breaking", "breaking"),
        ("not-compared", "compatible", "compatible"),  # unread CRD change: the Go class
        ("compatible", "not-compared", "compatible"),
    ],
)
def test_merged_entry_never_lowers_either_class(crd_class: str, go_class: str, merged: str) -> None:
    crd = Change(crd_class, "member-added", "Kind.spec", None, "crd says", crd="w.example.com")  # type: ignore[arg-type]
    go = Change(
        go_class,  # type: ignore[arg-type]
        "member-removed",
        "Def",
        "x",
        "go says",
        go_type="Def",
        go_field="X",
        package="example.com/w/api/v1",
        file="a.go",
        line=3,
        base=True,
        anchor_file="a.go",
        anchor_line=1,
    )
    (one,) = merge([go], [crd], _OneStruct(), None)  # type: ignore[arg-type]
    assert one.classification == merged
    assert (one.file, one.line, one.go_behind, one.base) == ("a.go", 3, True, True)
    assert (one.package, one.field, one.go_field) == ("example.com/w/api/v1", "x", "X")
    assert (one.anchor_file, one.anchor_line) == ("a.go", 1)
    assert f"in Go: member-removed ({go_class}): go says" in one.message
