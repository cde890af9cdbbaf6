"""`markergen crd` on a whole project: CRDs where the Makefile's controller-gen runs write
them, the Go types its `paths=` name, and the proof on the project's own objects.

Found without being named, a CRD file is patched only when it belongs to the project:
never under `vendor/`, and only when its API group (`spec.group`) is one a Go package
of the inputs declares with `+groupName=` (or the file sits in the directory of an
input package, openshift's layout). Other projects' CRDs copied into a chart or a
config directory are left byte for byte, with a note naming them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from markergen.crd import runcache
from markergen.crd.outputs import CrdTargets, find_crd_outputs
from markergen.crd.patch import CrdError, CrdResult, crd_files, finish, patch_files
from markergen.crd.samples import sample_files
from markergen.golang.packages import input_files
from markergen.pipeline import load_model

_GROUP_MARKER = re.compile(rb"^\s*//\s*\+groupName=\"?([A-Za-z0-9.-]*)", re.MULTILINE)
# `spec.group: x` (a property named `group` in a schema has no value on its line)
_CRD_GROUP = re.compile(r"^[ \t]+group:[ \t]*['\"]?([A-Za-z0-9.-]+)['\"]?[ \t]*$", re.MULTILINE)
_CRD_KIND = re.compile(r"^kind:\s*['\"]?CustomResourceDefinition\b", re.MULTILINE)

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
    if not paths:
        files, notes = _own_files(root, files, patterns)
        targets = replace(targets, notes=targets.notes + notes)
    key = ""
    if use_cache:
        others = [
            *sample_files(root, samples_include, samples_exclude, files),
            *targets.files,
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


def _declared(root: Path, patterns: Sequence[str]) -> tuple[set[str], set[Path]] | None:
    """(the `+groupName`s the input packages declare, their directories), read from the
    files the load would read, without parsing them; None when a pattern names nothing
    (the load reports it)."""
    groups: set[str] = set()
    dirs: set[Path] = set()
    inputs = input_files(list(patterns), root)
    if inputs is None:
        return None
    for f in inputs:
        path = Path(f.path)
        dirs.add(path.parent.resolve())
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if b"+groupName" in data:
            groups.update(m.decode() for m in _GROUP_MARKER.findall(data))
    return groups, dirs


def _crd_groups(path: Path) -> set[str] | None:
    """The groups of the CRDs in a file; None when it holds no CRD (or cannot be read)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if not _CRD_KIND.search(text):
        return None
    return set(_CRD_GROUP.findall(text))


def _own_files(
    root: Path, files: Sequence[Path], patterns: Sequence[str]
) -> tuple[list[Path], tuple[str, ...]]:
    """The CRD files found without being named that belong to the project, and a note
    for the others."""
    declared = _declared(root, patterns)
    if declared is None:
        return list(files), ()
    groups, dirs = declared
    kept: list[Path] = []
    vendored: list[Path] = []
    foreign: dict[str, list[Path]] = {}
    for f in files:
        rel = f.relative_to(root.resolve()) if f.is_relative_to(root.resolve()) else f
        if "vendor" in rel.parts:
            vendored.append(rel)
            continue
        found = _crd_groups(f)
        if not found or found & groups or f.parent in dirs:
            kept.append(f)
            continue
        for g in sorted(found):
            foreign.setdefault(g, []).append(rel)
    notes: list[str] = []
    if vendored:
        notes.append(f"{len(vendored)} CRD file(s) under vendor/ left alone")
    for group, paths in sorted(foreign.items()):
        shown = ", ".join(p.as_posix() for p in paths[:3]) + (", ..." if len(paths) > 3 else "")
        notes.append(
            f"{len(paths)} CRD file(s) of group {group} left alone: no input package declares "
            f"+groupName={group} ({shown}); name them on the command line to patch them"
        )
    return kept, tuple(notes)
