"""The report formats: text (one line per change), markdown (a PR comment), JSON and github (workflow annotations)."""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass

from markergen.diff.classify import Change

FORMATS = ("text", "markdown", "json", "github")
# Lets a CI job find and update its earlier comment instead of adding a new one.
COMMENT_TAG = "<!-- markergen-diff -->"
_ICONS = {
    "breaking": ":x:",
    "compatible": ":white_check_mark:",
    "not-compared": ":grey_question:",
}


def _counts(changes: Sequence[Change]) -> tuple[int, int, int, int]:
    breaking = sum(1 for c in changes if c.breaking)
    at_ga = sum(1 for c in changes if c.breaking_at_ga)
    compatible = sum(1 for c in changes if c.classification == "compatible")
    return breaking, at_ga, compatible, len(changes) - breaking - compatible


def summary(changes: Sequence[Change]) -> str:
    if not changes:
        return "no changes to unions and enums"
    breaking, at_ga, compatible, unknown = _counts(changes)
    noun = "change" if len(changes) == 1 else "changes"
    text = f"{breaking} breaking ({at_ga} at GA, ungated), {compatible} compatible {noun}"
    if unknown:
        text += f", {unknown} not compared"
    return text + " to unions and enums"


def location(c: Change) -> str:
    return f"{c.file}:{c.line}" if c.file else ""


def labels(c: Change) -> str:
    """The stage of the type's version and the gate of the field, when not plain GA."""
    parts: list[str] = [c.stage] if c.stage != "ga" else []
    if c.gate:
        parts.append(c.gate)
    return ", ".join(parts)


def go_name(c: Change) -> str:
    if not c.go_type:
        return ""
    return c.go_type + (f".{c.go_field}" if c.go_field else "")


def render_text(changes: Sequence[Change]) -> str:
    lines = []
    for c in changes:
        where = c.type + (f".{c.field}" if c.field else "")
        extra = ", ".join(x for x in (go_name(c), labels(c)) if x)
        head = f"{location(c)}: " if c.file else ""
        lines.append(
            f"{head}{c.classification}: {where}"
            + (f" ({extra})" if extra else "")
            + f": {c.kind}: {c.message}"
        )
    lines.append(summary(changes))
    return "\n".join(lines) + "\n"


def _family(c: Change) -> str:
    """The package without its version element: the versions of one group share it."""
    head, sep, last = c.package.rpartition("/")
    if not sep:
        head, sep, last = c.package.rpartition(".")
    return head if sep and last.startswith("v") and last[1:2].isdigit() else c.package


@dataclass(frozen=True)
class _Row:
    """One change as it appears in every version of its group where it occurs."""

    first: Change
    versions: tuple[Change, ...]


def _rows(changes: Sequence[Change]) -> dict[tuple[str, str], list[_Row]]:
    """Changes grouped by Go type (package family + type name); one row per change that
    reads the same in several versions."""
    merged: dict[tuple[str, str, str, str, str, str], list[Change]] = {}
    for c in changes:
        key = (_family(c), c.go_type, str(c.classification), c.kind, c.field or "", c.message)
        merged.setdefault(key, []).append(c)
    groups: dict[tuple[str, str], list[_Row]] = {}
    for key, cs in merged.items():
        ordered = tuple(
            sorted(cs, key=lambda c: ({"ga": 0, "beta": 1, "alpha": 2}[c.stage], c.version))
        )
        groups.setdefault((key[0], key[1]), []).append(_Row(ordered[0], ordered))
    return groups


def _versions(row: _Row) -> str:
    out = []
    for c in row.versions:
        label = labels(c)
        name = c.version or c.package
        out.append(f"{name} ({label})" if label else name)
    return ", ".join(out)


def _groups(changes: Sequence[Change]) -> list[dict[str, object]]:
    """The tables of one section as plain data for the template: per Go type, its
    definitions and one row per change (text unescaped: the template escapes it)."""
    groups: list[dict[str, object]] = []
    for (family, go_type), rows in sorted(_rows(changes).items()):
        cells = []
        for row in sorted(rows, key=lambda r: r.first.sort_key()):
            c = row.first
            cells.append(
                {
                    "icon": _ICONS[c.classification],
                    "field": c.field or "",
                    "go_field": c.go_field or "",
                    "versions": _versions(row),
                    "kind": c.kind,
                    "message": c.message,
                    "location": location(c),
                    "type": c.type,
                    "more": len(row.versions) - 1 if c.file else 0,
                }
            )
        groups.append(
            {
                "title": f"{go_type} ({family})" if go_type else family,
                "definitions": sorted({c.type for row in rows for c in row.versions}),
                "rows": cells,
            }
        )
    return groups


_SECTIONS = (
    ("breaking", "Breaking", False),
    ("compatible", "Compatible", True),
    ("not-compared", "Not compared (markers markergen does not model)", True),
)


def render_markdown(changes: Sequence[Change]) -> str:
    """The PR comment, from the template diff-report.md.j2 (markergen/templates/)."""
    from markergen.emit.templating import Templates

    sections = []
    for cls, title, folded in _SECTIONS:
        picked = [c for c in changes if c.classification == cls]
        if picked:
            sections.append(
                {"title": title, "count": len(picked), "folded": folded, "groups": _groups(picked)}
            )
    context = {"summary": summary(changes), "sections": sections, "comment_tag": COMMENT_TAG}
    return Templates().render("diff-report.md.j2", context)


def render_json(changes: Sequence[Change]) -> str:
    breaking, at_ga, compatible, unknown = _counts(changes)
    doc = {
        "changes": [c.to_json() for c in changes],
        "breaking": breaking,
        "breaking_at_ga": at_ga,
        "compatible": compatible,
        "not_compared": unknown,
    }
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(changes: Sequence[Change], root_prefix: str = "") -> str:
    """GitHub Actions workflow commands: `::error` for what `--fail-on breaking` counts,
    `::warning` for other breaking and not-compared changes, `::notice` for the rest,
    each on the file and line of the change. GitHub places an annotation by its path
    from the repository root: `root_prefix` is the current directory's path from there
    (`git rev-parse --show-prefix`), put before the paths, which are relative to it."""
    lines = []
    for c in changes:
        if c.breaking_at_ga:
            level = "error"
        elif c.breaking or c.classification == "not-compared":
            level = "warning"
        else:
            level = "notice"
        props = []
        if c.file:
            file = posixpath.normpath(root_prefix + c.file) if root_prefix else c.file
            props += [f"file={_escape_property(file)}", f"line={c.line}"]
        title = f"markergen diff: {c.classification} {c.kind}"
        props.append(f"title={_escape_property(title)}")
        definition = c.type + (f".{c.field}" if c.field else "")
        subject = f"{go_name(c)} ({definition})" if c.go_type else definition
        extra = labels(c)
        text = f"{subject}" + (f" [{extra}]" if extra else "") + f": {c.message}"
        lines.append(f"::{level} {','.join(props)}::{_escape_data(text)}")
    lines.append(summary(changes))
    return "\n".join(lines) + "\n"


def render(changes: Sequence[Change], fmt: str, root_prefix: str = "") -> str:
    if fmt == "text":
        return render_text(changes)
    if fmt == "markdown":
        return render_markdown(changes)
    if fmt == "json":
        return render_json(changes)
    if fmt == "github":
        return render_github(changes, root_prefix)
    raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
