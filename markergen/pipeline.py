"""The one-way pipeline: patterns → syntax → model → diagnostics.

The CLI and the tests call these; nothing here prints or exits.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from markergen.diagnostics import Diagnostic
from markergen.model import Model

if TYPE_CHECKING:
    from markergen.policy import Policy
    from markergen.progress import Progress


class InputError(Exception):
    """A usage or I/O problem with the inputs themselves (exit code 2)."""


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the block without the cyclic garbage collector, then restore it.

    Reading an API tree builds hundreds of thousands of small records that live until
    the end of the run and form no cycles; the collector's full passes over them were
    a third of a cold run's time (kubernetes/api: 0.3 s of 1.2 s). Reference counting
    still frees everything that is dropped.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def load_model(
    patterns: Sequence[str],
    cwd: Path,
    include_generated: bool = False,
    progress: Progress | None = None,
    env: Mapping[str, str] | None = None,
) -> Model:
    """`env` (default os.environ) gives GOPATH, GOMODCACHE, GOWORK and HOME for
    finding imported packages, as the go command reads them."""
    from markergen.golang.imports import ImportedPackages
    from markergen.golang.packages import load_packages
    from markergen.model.builder import ModelBuilder

    with gc_paused():
        # Built package by package: each package's syntax records are freed before the
        # next is read (at 10,000 types they are twice the size of the model).
        builder = ModelBuilder(imports=ImportedPackages(Path(os.path.abspath(cwd)), env))
        result = load_packages(
            list(patterns),
            cwd,
            include_generated=include_generated,
            progress=progress,
            sink=builder,
        )
        if result.errors:
            raise InputError("\n".join(f"{e.pattern}: {e.message}" for e in result.errors))
        return builder.finish()


def check_model(model: Model, policy: Policy | None = None) -> list[Diagnostic]:
    """Every diagnostic: what building found, then every rule, less what the source's
    `// markergen:ignore` comments silence (plus MG010 for those that silence nothing),
    with `policy`'s severities applied; sorted by position."""
    from markergen.policy import apply_policy, suppress
    from markergen.rules import all_diagnostics

    diags = suppress(all_diagnostics(model), model.ignores)
    if policy is not None:
        diags = apply_policy(diags, policy)
    return sorted(diags, key=Diagnostic.sort_key)
