"""The CRD files of a run, and writing what it patched (all or nothing).

Apart from the patcher (`markergen.crd.patch`), so that a run served from its cache
(`markergen.cache`) does not import the YAML composer, the CEL engine and the
proofs it does not use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from markergen.diagnostics import Diagnostic, Severity
from markergen.emit.writer import OutputError, verify_outputs, write_outputs


class CrdError(Exception):
    """A usage or I/O problem with the CRD paths themselves (exit code 2)."""


@dataclass(frozen=True)
class CrdResult:
    files: tuple[Path, ...]  # every CRD file considered
    changed: tuple[Path, ...]  # written, or (with verify) stale
    diffs: tuple[str, ...]  # unified diffs of stale files (verify only)
    diagnostics: tuple[Diagnostic, ...]

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)


def crd_files(paths: Sequence[Path]) -> list[Path]:
    """The YAML files named, and those directly inside named directories, sorted."""
    found: list[Path] = []
    for p in paths:
        if p.is_dir():
            found.extend(
                sorted(c for c in p.iterdir() if c.is_file() and c.suffix in (".yaml", ".yml"))
            )
        elif p.is_file():
            found.append(p)
        else:
            raise CrdError(f"{p}: no such file or directory")
    unique = dict.fromkeys(f.resolve() for f in found)
    return sorted(unique, key=str)


def finish(
    files: Sequence[Path], outputs: dict[Path, str], diagnostics: Sequence[Diagnostic], verify: bool
) -> CrdResult:
    """Write the outputs (all or nothing, none when there is an error), or with `verify`
    return their diffs."""
    stale = tuple(sorted(outputs, key=str))
    if verify:
        diffs = tuple(verify_outputs(outputs))
        return CrdResult(tuple(files), stale, diffs, tuple(diagnostics))
    if any(d.severity is Severity.ERROR for d in diagnostics):
        return CrdResult(tuple(files), (), (), tuple(diagnostics))
    try:
        report = write_outputs(outputs)
    except OutputError as e:
        raise CrdError(str(e)) from e
    return CrdResult(tuple(files), report.written, (), tuple(diagnostics))
