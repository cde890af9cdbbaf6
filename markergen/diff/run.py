"""`run_diff`: the library entry point the CLI's `markergen diff` calls."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from markergen.diff import crdchecks
from markergen.diff.choices import FAIL_ON, FORMATS
from markergen.diff.classify import Change, compare
from markergen.diff.crdchecks import DEFAULTS, CrdChecks
from markergen.diff.errors import DiffInputError
from markergen.diff.modulemove import move_surface
from markergen.diff.render import render
from markergen.diff.sources import CrdPlaces, Side, git_prefix, read_side


@dataclass(frozen=True)
class DiffResult:
    changes: tuple[Change, ...]
    text: str  # the report in the requested format, ending with a newline
    format: str

    @property
    def breaking(self) -> int:
        return sum(1 for c in self.changes if c.breaking)

    @property
    def breaking_at_ga(self) -> int:
        return sum(1 for c in self.changes if c.breaking_at_ga)

    @property
    def compatible(self) -> int:
        return sum(1 for c in self.changes if c.classification == "compatible")

    @property
    def not_compared(self) -> int:
        return sum(1 for c in self.changes if c.classification == "not-compared")

    def fails(self, fail_on: str) -> bool:
        """Whether `--fail-on <fail_on>` makes the command exit 1."""
        if fail_on not in FAIL_ON:
            raise ValueError(
                f"unknown --fail-on {fail_on!r} (expected one of {', '.join(FAIL_ON)})"
            )
        if fail_on == "breaking":
            return self.breaking_at_ga > 0
        if fail_on == "breaking-any-stage":
            return any(c.fails for c in self.changes)
        if fail_on == "any":
            return bool(self.changes)
        return False


def _changes(
    before: Side, after: Side, reread: Callable[[], Side], checks: CrdChecks = DEFAULTS
) -> list[Change]:
    """Go changes when both sides have Go types (or documents), CRD changes when both
    have CRDs, merged into one list when both kinds are there."""
    go_sides = before.origin_kind != "crd" and after.origin_kind != "crd"
    moved = (before.module, after.module) if before.module and after.module else None
    if moved is not None and moved[0] != moved[1]:
        before = replace(
            before, surface=move_surface(before.surface, moved[0], moved[1], before.naming)
        )
    else:
        moved = None
    go = compare(before.surface, after.surface) if go_sides else []
    if before.crds is None or after.crds is None:
        if not go_sides:
            crd_side, other = ("base", "head") if before.origin_kind == "crd" else ("head", "base")
            raise DiffInputError(
                "base and head",
                f"{before.surface.origin} {after.surface.origin}",
                f"the {crd_side} side is CRDs and the {other} side has none to compare them "
                "with (give CRDs on both sides: files, directories, REV:PATH, or two "
                "revisions of a kubebuilder project)",
            )
        return go
    from markergen.diff.crdclassify import compare_crds
    from markergen.diff.crdgo import GoMap, merge, needs_base_model

    crd = crdchecks.merge(
        compare_crds(before.crds, after.crds),
        crdchecks.check_crds(before.crds, after.crds, checks),
        checks,
    )
    if not go_sides or after.model is None:
        return crd
    head_map = GoMap(after.model, after.crds, after.naming, shown=after.shown)
    base_model = before.model
    if base_model is None and before.reread and any(needs_base_model(c, head_map) for c in crd):
        # the base came from the cache without its model, which these changes need
        base_model = reread().model
    base_map = (
        GoMap(base_model, before.crds, before.naming, moved, before.shown) if base_model else None
    )
    return merge(go, crd, head_map, base_map)


def run_diff(
    base: str,
    head: str | None,
    cwd: Path,
    fmt: str = "text",
    patterns: Sequence[str] = (),
    templates_dir: Path | None = None,
    checks: CrdChecks = DEFAULTS,
    cache: bool = True,
) -> DiffResult:
    """Compare the unions and enums of `base` and `head` (None: the working tree at cwd).

    Each side is a file (openapi-v3.json / openapi-v2.json / unions_table.json), a
    directory of Go packages, `REV:PATH` of such a file, or a git revision. `patterns`
    (as `check` takes them, relative to each side's directory) narrow the Go sides; a
    pattern that names nothing on one side contributes nothing there (its types are
    added or removed), and one that names nothing on either side is an error. Raises
    DiffInputError (message names the side) for a side that cannot be read and ValueError
    for an unknown format. `templates_dir` (the `templates` setting) may hold the
    project's diff-report.md.j2 for the markdown format. `checks`: the levels and options
    of the CRD checks (the `crd-checks` and `crd-check-options` settings). A git
    revision's side is kept in markergen's cache directory, keyed by its commit, unless
    `cache` is False.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
    found: set[str] = set()
    places: dict[tuple[str, str], CrdPlaces] = {}
    before = read_side("base", base, cwd, patterns, found, cache, places)
    after = read_side("head", head, cwd, patterns, found, cache, places)
    missing = [p for p in patterns if p not in found]
    if missing and before.origin_kind == after.origin_kind == "go":
        raise DiffInputError(
            "base and head",
            " ".join(missing),
            "the pattern(s) name no Go package on either side",
        )

    def reread() -> Side:
        return read_side("base", base, cwd, patterns, set(), cache=False, places_seen=places)

    changes = tuple(sorted(_changes(before, after, reread, checks), key=Change.sort_key))
    changes = _from_root(changes, git_prefix(cwd))
    text = render(changes, fmt, templates_dir=templates_dir)
    return DiffResult(changes=changes, text=text, format=fmt)


def _from_root(changes: tuple[Change, ...], prefix: str) -> tuple[Change, ...]:
    """Every path from the repository's top, in every format (as `check` gives them):
    GitHub places annotations by that path, and a report read beside another must name
    the same file the same way. `prefix` is the current directory's path from the top."""
    if not prefix:
        return changes

    def moved(path: str) -> str:
        return posixpath.normpath(prefix + path) if path else path

    return tuple(
        replace(c, file=moved(c.file), anchor_file=moved(c.anchor_file), crd_file=moved(c.crd_file))
        for c in changes
    )
