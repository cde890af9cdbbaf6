"""Report formats of `markergen diff` and the
`--fail-on` decision."""

from __future__ import annotations

import json

import jsonschema
import pytest
from helpers import TESTDATA

from markergen.diff import Change, run_diff
from markergen.diff.render import COMMENT_TAG, render
from markergen.diff.sources import git_prefix

DIFF = TESTDATA / "diff"
# Paths are given from the repository's top in every format; these tests run from
# testdata/diff, so that directory's path in the checkout comes first ("" outside git).
PREFIX = git_prefix(DIFF)
BASE = str(DIFF / "base")
MIXED = str(DIFF / "heads" / "requiredness")

SCHEMA = {
    "type": "object",
    "required": ["changes", "breaking", "breaking_at_ga", "compatible", "not_compared"],
    "additionalProperties": False,
    "properties": {
        "breaking": {"type": "integer"},
        "breaking_at_ga": {"type": "integer"},
        "compatible": {"type": "integer"},
        "not_compared": {"type": "integer"},
        "changes": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": [
                    "class",
                    "kind",
                    "type",
                    "field",
                    "message",
                    "go_package",
                    "go_type",
                    "go_field",
                    "file",
                    "line",
                    "stage",
                    "gate",
                    "base",
                ],
                "properties": {
                    "class": {"enum": ["breaking", "compatible", "not-compared"]},
                    "kind": {"type": "string", "pattern": "^[a-z]+(-[a-z0-9]+)*$"},
                    "type": {"type": "string"},
                    "field": {"type": ["string", "null"]},
                    "message": {"type": "string", "minLength": 1},
                    "go_package": {"type": "string"},
                    "go_type": {"type": "string"},
                    "go_field": {"type": ["string", "null"]},
                    "file": {"type": ["string", "null"]},
                    "line": {"type": ["integer", "null"]},
                    "stage": {"enum": ["alpha", "beta", "ga"]},
                    "gate": {"type": ["string", "null"]},
                    # on every entry (not only when true): a reader need not know a default
                    "base": {"type": "boolean"},
                    "crd": {"type": "object"},
                },
            },
        },
    },
}


def test_json_has_designs_shape() -> None:
    result = run_diff(BASE, MIXED, DIFF, "json")
    doc = json.loads(result.text)
    jsonschema.validate(doc, SCHEMA)
    assert (doc["breaking"], doc["breaking_at_ga"], doc["compatible"]) == (1, 1, 1)
    assert [c["kind"] for c in doc["changes"]] == [
        "member-optional-to-required",
        "member-required-to-optional",
    ]
    # The HEAD side's Go position: the line of the member's field.
    first = doc["changes"][0]
    assert first["file"] == PREFIX + "heads/requiredness/api/v1/types.go"
    lines = (DIFF / first["file"].removeprefix(PREFIX)).read_text().splitlines()
    assert 'json:"cash,omitempty"' in lines[first["line"] - 1]
    assert (first["go_type"], first["go_field"]) == ("Payment", "Cash")
    assert (first["go_package"], first["stage"]) == ("example.com/shop/api/v1", "ga")
    # An undiscriminated union's change names no field; it sits at its founding marker.
    declared = json.loads(
        run_diff(BASE, str(DIFF / "heads" / "union-added-removed"), DIFF, "json").text
    )["changes"][0]
    assert declared["field"] is None and declared["go_type"] == "Order"
    lines = (DIFF / declared["file"].removeprefix(PREFIX)).read_text().splitlines()
    assert "+k8s:zeroOrOneOfMember" in lines[declared["line"] - 1]
    assert result.text.endswith("}\n")


def test_markdown_groups_by_type_under_class_sections() -> None:
    text = run_diff(BASE, MIXED, DIFF, "markdown").text
    lines = text.splitlines()
    assert lines[0] == (
        "**markergen**: 1 breaking (1 at GA, ungated), 1 compatible changes to unions and enums"
    )
    assert "### Breaking (1)" in lines
    assert "<details><summary>Compatible (1)</summary>" in lines
    assert lines.count("#### `Payment (example.com/shop/api)`") == 2  # once per section
    rows = [line for line in lines if line.startswith("| :")]
    assert len(rows) == 2
    assert rows[0].startswith("| :x: | `cash` (Cash) | v1 | **member-optional-to-required**")
    assert rows[0].endswith(f"| `{PREFIX}heads/requiredness/api/v1/types.go:35` |")
    assert rows[1].startswith("| :white_check_mark: | `card` (Card) | v1 |")
    assert COMMENT_TAG in lines


def test_markdown_escapes_pipes_and_newlines() -> None:
    change = Change("breaking", "member-removed", "T", "a|b", "bad | value\nnext")
    row = next(r for r in render([change], "markdown").splitlines() if r.startswith("| :x:"))
    # Exactly the five column separators plus the row's edges remain unescaped.
    unescaped = row.replace("\\|", "")
    assert unescaped.count("|") == 6
    assert "next" in row


def test_no_changes() -> None:
    result = run_diff(BASE, str(DIFF / "heads" / "unchanged"), DIFF, "markdown")
    assert result.text.splitlines()[0] == "**markergen**: no changes to unions and enums"
    assert "| Field |" not in result.text
    text = run_diff(BASE, str(DIFF / "heads" / "unchanged"), DIFF, "text").text
    assert text == "no changes to unions and enums\n"


def test_text_is_one_line_per_change_and_a_summary() -> None:
    text = run_diff(BASE, str(DIFF / "heads" / "removed"), DIFF, "text").text
    lines = text.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith(
        f"{PREFIX}heads/removed/api/v1/types.go:40: breaking: com.example.shop.api.v1.Order.priority "
        "(Order.Priority): enum-value-removed: "
    )
    # A removed member exists only on the BASE side: its position is there, marked so.
    assert lines[1].startswith(f"{PREFIX}base/api/v1/types.go:35 (base): breaking: ")
    assert lines[-1] == "3 breaking (3 at GA, ungated), 0 compatible changes to unions and enums"


def test_fail_on() -> None:
    breaking = run_diff(BASE, str(DIFF / "heads" / "removed"), DIFF)
    compatible = run_diff(BASE, str(DIFF / "heads" / "member-added"), DIFF)
    none = run_diff(BASE, str(DIFF / "heads" / "unchanged"), DIFF)
    assert breaking.fails("breaking") and breaking.breaking == 3
    assert not compatible.fails("breaking") and compatible.fails("any")
    assert not none.fails("any")
    assert not breaking.fails("none")
    with pytest.raises(ValueError, match="fail-on"):
        breaking.fails("sometimes")


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format 'html'"):
        run_diff(BASE, BASE, DIFF, "html")
