"""The three report formats: text (one line per change), markdown (a PR comment) and
JSON (DESIGN section 10, "diff --format json")."""

from __future__ import annotations

import json
from collections.abc import Sequence

from markergen.diff.classify import Change

FORMATS = ("text", "markdown", "json")
# Lets a CI job find and update its earlier comment instead of adding a new one.
COMMENT_TAG = "<!-- markergen-diff -->"
_ICONS = {"breaking": ":x: breaking", "compatible": ":white_check_mark: compatible"}


def _counts(changes: Sequence[Change]) -> tuple[int, int]:
    breaking = sum(1 for c in changes if c.breaking)
    return breaking, len(changes) - breaking


def summary(changes: Sequence[Change]) -> str:
    breaking, compatible = _counts(changes)
    if not changes:
        return "no changes to unions and enums"
    noun = "change" if len(changes) == 1 else "changes"
    return f"{breaking} breaking, {compatible} compatible {noun} to unions and enums"


def render_text(changes: Sequence[Change]) -> str:
    lines = []
    for c in changes:
        where = c.type + (f".{c.field}" if c.field else "")
        lines.append(f"{c.classification}: {where}: {c.kind}: {c.message}")
    lines.append(summary(changes))
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    # A pipe ends a table cell and a newline ends the row, whatever the backticks say.
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    return f"`{text}`" if "`" not in text else _cell(text)


def render_markdown(changes: Sequence[Change]) -> str:
    lines = [f"**markergen**: {summary(changes)}"]
    if changes:
        lines += ["", "| | Type | Field | Change |", "|---|---|---|---|"]
        for c in changes:
            field = _cell(_code(c.field)) if c.field else ""
            lines.append(
                f"| {_ICONS[c.classification]} | {_cell(_code(c.type))} | {field} | "
                f"**{c.kind}**: {_cell(c.message)} |"
            )
    lines += ["", COMMENT_TAG]
    return "\n".join(lines) + "\n"


def render_json(changes: Sequence[Change]) -> str:
    breaking, compatible = _counts(changes)
    doc = {
        "changes": [c.to_json() for c in changes],
        "breaking": breaking,
        "compatible": compatible,
    }
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def render(changes: Sequence[Change], fmt: str) -> str:
    if fmt == "text":
        return render_text(changes)
    if fmt == "markdown":
        return render_markdown(changes)
    if fmt == "json":
        return render_json(changes)
    raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
