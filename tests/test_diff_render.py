"""Report formats of `markergen diff` (DESIGN section 10, "diff --format json") and the
`--fail-on` decision."""

from __future__ import annotations

import json

import jsonschema
import pytest
from helpers import TESTDATA

from markergen.diff import Change, run_diff
from markergen.diff.render import COMMENT_TAG, render

DIFF = TESTDATA / "diff"
BASE = str(DIFF / "base")
ADDED_REMOVED = str(DIFF / "heads" / "union-added-removed")

SCHEMA = {
    "type": "object",
    "required": ["changes", "breaking", "compatible"],
    "additionalProperties": False,
    "properties": {
        "breaking": {"type": "integer"},
        "compatible": {"type": "integer"},
        "changes": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["class", "kind", "type", "field", "message"],
                "properties": {
                    "class": {"enum": ["breaking", "compatible"]},
                    "kind": {"type": "string", "pattern": "^[a-z]+(-[a-z0-9]+)*$"},
                    "type": {"type": "string"},
                    "field": {"type": ["string", "null"]},
                    "message": {"type": "string", "minLength": 1},
                },
            },
        },
    },
}


def test_json_has_designs_shape() -> None:
    result = run_diff(BASE, ADDED_REMOVED, DIFF, "json")
    doc = json.loads(result.text)
    jsonschema.validate(doc, SCHEMA)
    assert (doc["breaking"], doc["compatible"]) == (1, 1)
    assert [c["kind"] for c in doc["changes"]] == ["union-added", "union-removed"]
    assert doc["changes"][0]["field"] is None  # an undiscriminated union
    assert result.text.endswith("}\n")


def test_markdown_is_a_summary_line_then_a_table() -> None:
    text = run_diff(BASE, ADDED_REMOVED, DIFF, "markdown").text
    lines = text.splitlines()
    assert lines[0] == "**markergen**: 1 breaking, 1 compatible changes to unions and enums"
    assert lines[2] == "| | Type | Field | Change |"
    rows = [line for line in lines[4:] if line.startswith("|")]
    assert len(rows) == 2
    assert rows[0].startswith("| :x: breaking | `com.example.shop.api.v1.Order` |  | ")
    assert "**union-added**" in rows[0]
    assert rows[1].startswith("| :white_check_mark: compatible |")
    assert COMMENT_TAG in lines


def test_markdown_escapes_pipes_and_newlines() -> None:
    change = Change("breaking", "member-removed", "T", "a|b", "bad | value\nnext")
    row = render([change], "markdown").splitlines()[4]
    # Exactly the four column separators plus the row's edges remain unescaped.
    unescaped = row.replace("\\|", "")
    assert unescaped.count("|") == 5
    assert "next" in row


def test_no_changes() -> None:
    result = run_diff(BASE, str(DIFF / "heads" / "unchanged"), DIFF, "markdown")
    assert result.text.splitlines()[0] == "**markergen**: no changes to unions and enums"
    assert "| Type |" not in result.text
    text = run_diff(BASE, str(DIFF / "heads" / "unchanged"), DIFF, "text").text
    assert text == "no changes to unions and enums\n"


def test_text_is_one_line_per_change_and_a_summary() -> None:
    text = run_diff(BASE, str(DIFF / "heads" / "removed"), DIFF, "text").text
    lines = text.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith(
        "breaking: com.example.shop.api.v1.Order.priority: enum-value-removed: "
    )
    assert lines[-1] == "3 breaking, 0 compatible changes to unions and enums"


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
