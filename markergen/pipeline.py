"""The one-way pipeline: patterns → syntax → model → diagnostics.

The CLI and the tests call these; nothing here prints or exits.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from markergen.model import Diagnostic, Model

if TYPE_CHECKING:
    from markergen.progress import Progress


class InputError(Exception):
    """A usage or I/O problem with the inputs themselves (exit code 2)."""


def load_model(
    patterns: Sequence[str],
    cwd: Path,
    include_generated: bool = False,
    progress: Progress | None = None,
) -> Model:
    from markergen.build import build_model
    from markergen.golang.packages import load_packages

    result = load_packages(
        list(patterns), cwd, include_generated=include_generated, progress=progress
    )
    if result.errors:
        raise InputError("\n".join(f"{e.pattern}: {e.message}" for e in result.errors))
    return build_model(result.packages)


def check_model(model: Model) -> list[Diagnostic]:
    """Every diagnostic: what building found, then every rule, sorted by position."""
    from markergen.rules import all_diagnostics

    return all_diagnostics(model)
