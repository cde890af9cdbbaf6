"""The files of a project with CRDs that a run reads besides its Go files: the CRD files,
the objects the project keeps (with the test suites beside the CRDs) and the make files
and scripts that say where the CRDs are. `check` and `crd` name them to the run cache
(`markergen.cache`), whose key holds their digests: a new, edited or removed one is
never served stale."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from markergen.project.makefile import MAKEFILES
from markergen.project.samples import sample_files


def yaml_files(paths: Sequence[Path]) -> list[Path]:
    """The YAML files named, and those directly inside named directories (as
    `markergen.crd.files.crd_files` takes them; a missing path names none)."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(c for c in p.iterdir() if c.is_file() and c.suffix in (".yaml", ".yml"))
        elif p.is_file():
            out.append(p)
    return sorted(dict.fromkeys(f.resolve() for f in out), key=str)


def crd_inputs(
    root: Path,
    crd_paths: Sequence[Path],
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    make_files: Sequence[Path] = (),
) -> list[Path]:
    """Every file besides the Go inputs that a run over the CRDs of `crd_paths` (files or
    directories) reads: those CRDs, the sample objects (`include` / `exclude` as the
    `samples:` setting), the project's top Makefiles (a missing one counts, so that a
    new Makefile is seen) and `make_files` (the make files and scripts read)."""
    crds = yaml_files(crd_paths)
    makes = [*(root / m for m in MAKEFILES), *make_files]
    found = [*crds, *sample_files(root, include, exclude, crds), *makes]
    return sorted(dict.fromkeys(found), key=str)
