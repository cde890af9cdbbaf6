"""`markergen crd` on a whole project: CRDs where the Makefile's controller-gen runs write
them, the Go types its `paths=` name, and the proof on the project's own objects."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from markergen.crd import runcache
from markergen.crd.outputs import MAKEFILES, CrdTargets, find_crd_outputs
from markergen.crd.patch import CrdError, CrdResult, crd_files, finish, patch_files
from markergen.crd.samples import sample_files
from markergen.pipeline import load_model

DEFAULT_TYPES = ("./api/...", "./apis/...")


@dataclass(frozen=True)
class ProjectRun:
    result: CrdResult
    targets: CrdTargets  # the directories used and where they were found
    types: tuple[str, ...]  # the Go package patterns read


def _default_types(root: Path) -> tuple[str, ...]:
    found = tuple(p for p in DEFAULT_TYPES if (root / p.split("/")[1]).is_dir())
    return found or ("./...",)


def run_project(
    root: Path,
    *,
    paths: Sequence[Path] = (),
    types: Sequence[str] = (),
    verify: bool = False,
    include_generated: bool = False,
    samples_include: Sequence[str] = (),
    samples_exclude: Sequence[str] = (),
    strict: bool = False,
    use_cache: bool = True,
) -> ProjectRun:
    """Patch the project's CRDs. Without `paths`, the Makefile's CRD output directories
    (else config/crd/bases); without `types`, the Makefile's `paths=` (else ./api/...,
    ./apis/..., else ./...). Raises CrdError when no CRD directory is found. With
    `use_cache`, a run whose inputs are byte-identical to an earlier one reuses its
    result (`markergen.crd.runcache`)."""
    targets = find_crd_outputs(root)
    dirs = [Path(p) for p in paths] or [root / d for d in targets.dirs]
    if not dirs:
        raise CrdError(
            "no CRD files given and none found: no controller-gen `output:crd:...` in the "
            "Makefile and no config/crd/bases; pass files or directories"
        )
    patterns = tuple(types) or targets.types or _default_types(root)
    files = crd_files(dirs)
    key = ""
    if use_cache:
        others = [
            *sample_files(root, samples_include, samples_exclude, files),
            *(root / m for m in MAKEFILES),
        ]
        options = {
            "patterns": patterns,
            "include_generated": include_generated,
            "samples": [list(samples_include), list(samples_exclude)],
            "strict": strict,
            "cwd": str(Path.cwd()),
        }
        key = runcache.run_key(root, files, others, options)
        hit = runcache.load(root, key)
        if hit is not None:
            return ProjectRun(finish(files, *hit, verify), targets, patterns)
    model = load_model(list(patterns), root, include_generated)
    outputs, diagnostics = patch_files(
        files,
        model,
        root=root,
        samples_include=samples_include,
        samples_exclude=samples_exclude,
        strict=strict,
    )
    if use_cache:
        runcache.store(root, key, outputs, diagnostics)
    result = finish(files, outputs, diagnostics, verify)
    return ProjectRun(result, targets, patterns)
