"""The one exception of the compatibility report: a side that cannot be read."""

from __future__ import annotations


class DiffInputError(Exception):
    """A side of `markergen diff` cannot be read (unknown revision, unreadable or
    malformed file, Go inputs that do not load). The message names the side
    (`base` or `head`) and what was given; the CLI prints it and exits 2."""

    def __init__(self, side: str, spec: str, problem: str) -> None:
        self.side = side
        self.spec = spec
        self.problem = problem
        super().__init__(f"{side} {spec!r}: {problem}")
