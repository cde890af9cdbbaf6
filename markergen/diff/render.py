"""The report formats: text (one line per change), markdown (a PR comment), JSON and github (workflow annotations)."""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from markergen.diff.choices import FORMATS
from markergen.diff.classify import Change
from markergen.report import escape_data, escape_property

# Lets a CI job find and update its earlier comment instead of adding a new one.
COMMENT_TAG = "<!-- markergen-diff -->"
TEMPLATE = "diff-report.md.j2"  # --format markdown; a project's template of this name wins
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
    """Where the change is: the Go source, else the CRD; marked when it is the base
    side's (the thing is gone from the head)."""
    if c.file:
        return f"{c.file}:{c.line}" + (" (base)" if c.base else "")
    return crd_location(c)


def crd_location(c: Change) -> str:
    if not c.crd_file:
        return ""
    return f"{c.crd_file}:{c.crd_line}" + (" (base)" if c.crd_base else "")


def crd_label(c: Change) -> str:
    """`widgets.example.com v1`: the CRD and version a CRD change is about."""
    return f"{c.crd} {c.crd_version}" if c.crd else ""


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
        extra = ", ".join(x for x in (go_name(c), crd_label(c), labels(c)) if x)
        shown = location(c)
        head = f"{shown}: " if shown else ""
        also = f" [CRD {crd_location(c)}]" if c.file and c.crd_file else ""
        lines.append(
            f"{head}{c.classification}: {where}"
            + (f" ({extra})" if extra else "")
            + f": {c.kind}: {c.message}{also}"
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


def _group(c: Change) -> tuple[str, str]:
    """The heading a change is listed under: the CRD kind (by the CRD's name) for a CRD
    change, else the Go type (package family + type name)."""
    if c.crd:
        return (c.crd, c.crd_kind)
    return (_family(c), c.go_type)


def _rows(changes: Sequence[Change]) -> dict[tuple[str, str], list[_Row]]:
    """Changes grouped by CRD kind or Go type; one row per change that reads the same in
    several versions."""
    merged: dict[tuple[str, str, str, str, str, str, str], list[Change]] = {}
    for c in changes:
        family, title = _group(c)
        key = (family, title, str(c.classification), c.kind, c.crd_path, c.field or "", c.message)
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
        name = c.crd_version or c.version or c.package
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
            node = c.crd_path if c.crd_path and c.crd_path != "(root)" else ""
            shown_at = location(c)
            cells.append(
                {
                    "icon": _ICONS[c.classification],
                    # a CRD change names its schema node too: `spec.source.url`
                    "field": ".".join(x for x in (node, c.field or "") if x),
                    "go_field": c.go_field or "",
                    "versions": _versions(row),
                    "kind": c.kind,
                    "message": c.message,
                    "location": shown_at,
                    "crd_location": crd_location(c) if c.file and c.crd_file else "",
                    "type": c.type,
                    "more": len(row.versions) - 1 if shown_at else 0,
                }
            )
        groups.append(
            {
                "title": f"{go_type} ({family})" if go_type else family,
                # a CRD's heading is its kind and name; a Go type lists its definitions
                "definitions": []
                if rows[0].first.crd
                else sorted({c.type for row in rows for c in row.versions}),
                "rows": cells,
            }
        )
    return groups


_SECTIONS = (
    ("breaking", "Breaking", False),
    ("compatible", "Compatible", True),
    ("not-compared", "Not compared (markers markergen does not model)", True),
)


def render_markdown(changes: Sequence[Change], templates_dir: Path | None = None) -> str:
    """The PR comment, from the template diff-report.md.j2: the project's (in
    `templates_dir`, the `templates` setting) when it has one, else markergen's
    (markergen/templates/). Raises TemplateError for a template that fails."""
    from markergen.emit.templating import TemplateError, Templates

    if templates_dir is not None and not templates_dir.is_dir():
        # as `generate` says it: a misspelt setting must not fall back to the built-in
        raise TemplateError(str(templates_dir), None, "the templates directory does not exist")

    sections = []
    for cls, title, folded in _SECTIONS:
        picked = [c for c in changes if c.classification == cls]
        if picked:
            sections.append(
                {"title": title, "count": len(picked), "folded": folded, "groups": _groups(picked)}
            )
    context = {"summary": summary(changes), "sections": sections, "comment_tag": COMMENT_TAG}
    return Templates(templates_dir).render(TEMPLATE, context)


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


def _annotated(c: Change) -> tuple[str, int]:
    """Where an annotation goes: GitHub shows annotations on the head's lines only, so
    a removal (a base position) goes on its type in the head, or on the file alone."""
    if c.file and not c.base:
        return c.file, c.line
    if c.file and c.anchor_file:
        return c.anchor_file, c.anchor_line
    if c.crd_file and not c.crd_base:
        return c.crd_file, c.crd_line
    if c.file:
        return c.file, 0
    return "", 0


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
        file, line = _annotated(c)
        if file:
            file = posixpath.normpath(root_prefix + file) if root_prefix else file
            props.append(f"file={escape_property(file)}")
            if line:
                props.append(f"line={line}")
        title = f"markergen diff: {c.classification} {c.kind}"
        props.append(f"title={escape_property(title)}")
        definition = c.type + (f".{c.field}" if c.field else "")
        subject = f"{go_name(c)} ({definition})" if c.go_type else definition
        extra = labels(c)
        text = f"{subject}" + (f" [{extra}]" if extra else "") + f": {c.message}"
        lines.append(f"::{level} {','.join(props)}::{escape_data(text)}")
    lines.append(summary(changes))
    return "\n".join(lines) + "\n"


def render(
    changes: Sequence[Change], fmt: str, root_prefix: str = "", templates_dir: Path | None = None
) -> str:
    if fmt == "text":
        return render_text(changes)
    if fmt == "markdown":
        return render_markdown(changes, templates_dir)
    if fmt == "json":
        return render_json(changes)
    if fmt == "github":
        return render_github(changes, root_prefix)
    raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
