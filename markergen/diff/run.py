"""`run_diff`: the library entry point the CLI's `markergen diff` calls."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from markergen.diff.classify import Change, compare
from markergen.diff.render import FORMATS, render
from markergen.diff.sources import read_side

FAIL_ON = ("breaking", "any", "none")


@dataclass(frozen=True)
class DiffResult:
    changes: tuple[Change, ...]
    text: str  # the report in the requested format, ending with a newline
    format: str

    @property
    def breaking(self) -> int:
        return sum(1 for c in self.changes if c.breaking)

    @property
    def compatible(self) -> int:
        return len(self.changes) - self.breaking

    def fails(self, fail_on: str) -> bool:
        """Whether `--fail-on <fail_on>` makes the command exit 1."""
        if fail_on not in FAIL_ON:
            raise ValueError(
                f"unknown --fail-on {fail_on!r} (expected one of {', '.join(FAIL_ON)})"
            )
        if fail_on == "breaking":
            return self.breaking > 0
        if fail_on == "any":
            return bool(self.changes)
        return False


def run_diff(base: str, head: str | None, cwd: Path, fmt: str = "text") -> DiffResult:
    """Compare the unions and enums of `base` and `head` (None: the working tree at cwd).

    Each side is a file (openapi-v3.json / openapi-v2.json / unions_table.json), a
    directory of Go packages, `REV:PATH` of such a file, or a git revision. Raises
    DiffInputError (message names the side) for a side that cannot be read and ValueError
    for an unknown format.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
    before = read_side("base", base, cwd)
    after = read_side("head", head, cwd)
    changes = tuple(compare(before, after))
    return DiffResult(changes=changes, text=render(changes, fmt), format=fmt)
