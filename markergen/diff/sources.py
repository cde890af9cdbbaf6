"""Reading one side of `markergen diff`: a git revision, a directory, a generated JSON
document (a file, or `REV:PATH` inside a revision), or the working tree.

A revision is read with git alone (markergen.diff.revtree: `git ls-tree` lists it, one
`git cat-file --batch` reads the files a side needs), so the working tree, the index and
the checked-out branch are never touched.
"""

from __future__ import annotations

import json
import os
import posixpath
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from markergen.diff.crdsource import (
    YAML_SUFFIXES,
    CrdReadError,
    CrdSet,
    collect,
    files_of,
    is_crd_directory,
    is_crd_file,
    no_crd_reason,
    read_paths,
)
from markergen.diff.documents import DocumentError, surface_from_document
from markergen.diff.errors import DiffInputError
from markergen.diff.modulemove import module_path
from markergen.diff.revtree import RevisionTree
from markergen.diff.surface import ALL_FACTS, Surface, surface_from_model
from markergen.emit.naming import Naming
from markergen.model import Model
from markergen.project.outputs import MAKEFILES, find_crd_outputs


def _git(cwd: Path, args: Sequence[str]) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["git", "-C", str(cwd), *args], capture_output=True, check=False, timeout=300
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise OSError(f"cannot run git: {e}") from None


def _git_out(cwd: Path, args: Sequence[str]) -> str | None:
    proc = _git(cwd, args)
    if proc.returncode != 0:
        return None
    return proc.stdout.decode("utf-8", errors="replace").strip()


def git_prefix(cwd: Path) -> str:
    """The path of `cwd` from its repository's top ("" at the top or outside git)."""
    try:
        return _git_out(cwd, ["rev-parse", "--show-prefix"]) or ""
    except OSError:
        return ""


def _document(side: str, spec: str, data: bytes) -> Side:
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise DiffInputError(side, spec, f"not a JSON document: {e}") from None
    try:
        return Side(surface_from_document(doc, spec), "document")
    except DocumentError as e:
        raise DiffInputError(side, spec, str(e)) from None


@dataclass(frozen=True)
class Side:
    surface: Surface
    origin_kind: Literal["go", "document", "crd"]
    # The CRDs of the side: a CRD side, or the CRD directories of a kubebuilder project
    # read beside its Go types (None: the side has none).
    crds: CrdSet | None = None
    model: Model | None = None  # the Go model of a Go side, to map CRD nodes to Go types
    naming: Naming = "openapi-gen"
    module: str = ""  # the Go module path of a Go side ("" when unknown)
    shown: str = ""  # put before the model's file names to show them from the user's cwd
    # read from the cache without its Go model: read the revision again when the model
    # is needed (a CRD change at a node gone from the head)
    reread: bool = False


def is_side_directory(path: Path) -> bool:
    """Whether a directory given after the base is the head side rather than a package
    pattern: a module or configured project (go.mod, markergen.yaml) or a folder of CRDs
    (`diff DIR DIR`, the obvious invocation with two folders of CRDs)."""
    if (path / "go.mod").is_file() or (path / "markergen.yaml").is_file():
        return True
    return is_crd_directory(path)


def _crd_side(side: str, spec: str, files: Sequence[tuple[str, str]]) -> Side:
    """A side of CRD files; one with no CRD version in them is an error (compared, every
    version of the other side would be added or removed)."""
    crds = collect(files, spec)
    if not crds.versions:
        raise DiffInputError(side, spec, f"{no_crd_reason(files)}; {_NO_CRD_HINT}")
    return Side(Surface(types={}, carries=ALL_FACTS, origin=spec), "crd", crds)


_NO_CRD_HINT = (
    "give CustomResourceDefinition documents (apiextensions.k8s.io/v1), one per document, "
    "as `kubectl get crd NAME -o yaml` writes one"
)


def _unreadable(e: CrdReadError, revision: str | None) -> str:
    """The message of a CRD file that cannot be read, with what to do about it."""
    if revision is not None:
        hint = (
            f"the file is so in {revision}: fix it in a new commit and compare with that, "
            "or compare with a revision where it reads"
        )
    elif e.yaml:
        hint = "fix the YAML there (a CRD controller-gen writes: run it again, `make manifests`)"
    else:
        hint = (
            "fix it there: an apiextensions.k8s.io/v1 CustomResourceDefinition has "
            "spec.group, spec.names.kind and spec.versions, a list of versions with a name "
            "(a CRD controller-gen writes: run it again, `make manifests`)"
        )
    return f"{e}; {hint}"


def project_root(cwd: Path) -> Path | None:
    """The kubebuilder project around `cwd`: the nearest directory (up to the repository's
    top) with a `PROJECT` file, else `cwd` itself when it has a Makefile."""
    top = _git_out(cwd, ["rev-parse", "--show-toplevel"])
    here = cwd.resolve()
    stop = Path(top).resolve() if top else here
    for d in (here, *here.parents):
        if (d / "PROJECT").is_file():
            return d
        if d == stop:
            break
    return here if any((here / m).is_file() for m in MAKEFILES) else None


def _from_directory(
    side: str,
    spec: str,
    directory: Path,
    shown_from: Path,
    patterns: Sequence[str],
    found: set[str],
    *,
    with_crds: bool = True,
    crd_from: CrdSet | None = None,
) -> Side:
    """The Go packages `patterns` name (relative to the directory), else those the
    configuration names (`inputs` of markergen.yaml, kubebuilder's defaults), else
    everything below the directory. A pattern that names nothing here contributes
    nothing (the other side may have it). Positions are shown relative to `shown_from`,
    the place the user runs the command from."""
    from markergen.accept.selected import settle_members
    from markergen.config import ConfigError, load_config
    from markergen.emit.naming import NAMINGS
    from markergen.golang.imports import ImportedPackages
    from markergen.golang.packages import load_packages
    from markergen.model.builder import build_model
    from markergen.pipeline import InputError, load_model

    try:
        cfg = load_config(directory)
    except ConfigError as e:
        raise DiffInputError(side, spec, f"bad configuration: {e}") from None
    naming: Naming = next((n for n in NAMINGS if n == cfg.naming), "openapi-gen")
    if patterns:
        root = directory
        loaded = load_packages(list(patterns), root, include_generated=cfg.include_generated)
        missing = {e.pattern for e in loaded.errors}
        found.update(p for p in patterns if p not in missing)
        # issue 18 (branch modules): constants imported from other packages resolved.
        model = settle_members(
            build_model(loaded.packages, imports=ImportedPackages(Path(os.path.abspath(root))))
        )
    else:
        wanted, root = (list(cfg.inputs), cfg.root) if cfg.inputs else (["./..."], directory)
        try:
            model = load_model(wanted, root, include_generated=cfg.include_generated)
        except InputError as e:
            raise DiffInputError(side, spec, f"cannot read Go inputs: {e}") from None
    prefix = Path(os.path.relpath(os.path.abspath(root), os.path.abspath(shown_from)))
    shown = "" if str(prefix) == "." else prefix.as_posix() + "/"
    crds = None
    if crd_from is not None:
        crds = crd_from
    elif with_crds:
        project = project_root(directory)
        dirs = find_crd_outputs(project).dirs if project is not None else ()
        if project is not None and dirs:
            crds = read_paths([project / d for d in dirs], shown_from, spec)
    return Side(
        surface_from_model(model, naming, spec, shown),
        "go",
        crds,
        model,
        naming,
        module_path(model.packages),
        shown,
    )


def _module_dir(cwd: Path, commit: str, prefix: str) -> str:
    """The directory of the revision's go.mod at or above `prefix` ('' is the top)."""
    parts = [p for p in prefix.strip("/").split("/") if p]
    for n in range(len(parts), -1, -1):
        d = "/".join(parts[:n])
        go_mod = f"{d}/go.mod" if d else "go.mod"
        if _git_out(cwd, ["ls-tree", "--name-only", commit, "--", go_mod]):
            return d
    return "/".join(parts)


def _is_revision(cwd: Path, spec: str) -> bool:
    try:
        return bool(_git_out(cwd, ["rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}"]))
    except OSError:
        return False


def _from_revision(
    side: str,
    spec: str,
    cwd: Path,
    patterns: Sequence[str],
    found: set[str],
    cache: bool = True,
    places_seen: dict[tuple[str, str], CrdPlaces] | None = None,
) -> Side:
    commit = _git_out(cwd, ["rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}"])
    if not commit:
        raise DiffInputError(
            side,
            spec,
            f"neither a file, a directory nor a git revision of {cwd}",
        )
    prefix = _git_out(cwd, ["rev-parse", "--show-prefix"]) or ""
    top = Path(_git_out(cwd, ["rev-parse", "--show-toplevel"]) or cwd)
    at = (str(cwd.resolve()), str(top.resolve()))
    if places_seen is not None and at in places_seen:
        places = places_seen[at]
    else:
        places = _crd_places(cwd, top)
        if places_seen is not None:
            places_seen[at] = places
    # Only the base is kept: it is the side that stays the same from push to push, and
    # the head's Go model is always needed (it maps the CRD changes to the Go).
    if not cache or side != "base":
        return _read_revision(side, spec, top, commit, prefix, places, patterns, found)[0]
    from markergen.cache import OutputCache, cache_dir
    from markergen.diff import basecache

    options = {"crd-places": places}
    slot = OutputCache.keyed(cache_dir(top), "diff-base", patterns, cwd, options, [commit.encode()])
    kept = basecache.load(slot)
    if kept is not None:
        found.update(kept.found)
        return Side(
            kept.surface,
            "go",
            collect(kept.crd_files, kept.crd_origin) if kept.crd_files is not None else None,
            None,
            "go" if kept.naming == "go" else "openapi-gen",
            kept.module,
            kept.shown,
            reread=True,
        )
    mine: set[str] = set()
    read, crd_files = _read_revision(side, spec, top, commit, prefix, places, patterns, mine)
    found.update(mine)
    basecache.store(
        slot,
        basecache.CachedSide(
            read.surface,
            tuple(crd_files) if crd_files is not None else None,
            spec,
            tuple(sorted(mine)),
            read.naming,
            read.module,
            read.shown,
        ),
    )
    return read


def _read_revision(
    side: str,
    spec: str,
    top: Path,
    commit: str,
    prefix: str,
    places: CrdPlaces,
    patterns: Sequence[str],
    found: set[str],
) -> tuple[Side, list[tuple[str, str]] | None]:
    """The side of a revision, read from git (only the files it needs), and its CRD
    files."""
    # Paths given to ls-tree are relative to git's cwd: use the top.
    module = _module_dir(top, commit, prefix)
    tree = RevisionTree(top, commit, side, spec)
    crd_files = _revision_crds(places, prefix, tree)
    crds = collect(crd_files, spec) if crd_files is not None else None
    with tempfile.TemporaryDirectory(prefix="markergen-diff-") as tmp:
        root = Path(tmp)
        tree.skeleton(module, root)
        directory = root / prefix
        if not tree.has_dir(prefix.rstrip("/")):
            if patterns:
                # The whole directory is new on this side: everything there is added.
                empty = Surface(types={}, carries=ALL_FACTS, origin=spec)
                return Side(empty, "go", crds), crd_files
            raise DiffInputError(side, spec, f"directory {prefix or '.'} does not exist there")
        dirs = _go_dirs(side, spec, tree, module, prefix.rstrip("/"), root, patterns)
        tree.write(tree.read([f for d in dirs for f in tree.go_files(d)]), root)
        directory.mkdir(parents=True, exist_ok=True)
        read = _from_directory(
            side, spec, directory, directory, patterns, found, with_crds=False, crd_from=crds
        )
        return read, crd_files


def _go_dirs(
    side: str,
    spec: str,
    tree: RevisionTree,
    module: str,
    here: str,
    root: Path,
    patterns: Sequence[str],
) -> list[str]:
    """The package directories of a revision whose Go files are read: those the
    patterns name, else the configured inputs (markergen.yaml, kubebuilder's `api/`),
    else the API packages (`+groupName=` and what their types import), else every
    package of the module; with the packages of the module their types import, whose
    constants and types they use. Never the rest of the tree."""
    from markergen.config import ConfigError, load_config

    wanted = list(patterns)
    base = here
    if not wanted:
        try:
            # the skeleton: config files, PROJECT, directories
            cfg = load_config(root / here if here else root)
        except ConfigError as e:
            raise DiffInputError(side, spec, f"bad configuration: {e}") from None
        if cfg.inputs:
            wanted = list(cfg.inputs)
            # the configuration's root (the module, or where markergen.yaml sits) from
            # the top of the revision
            rel = os.path.relpath(cfg.root, root).replace(os.sep, "/")
            base = "" if rel == "." else rel
        else:
            found = tree.api_packages(module)
            if found is not None:
                return found
            return tree.package_dirs(module)
    starts = _pattern_dirs(tree, module, base, wanted)
    return tree.reach(module, starts) if starts else []


def _pattern_dirs(tree: RevisionTree, module: str, base: str, patterns: Sequence[str]) -> list[str]:
    """The package directories `patterns` (`./x/...`, `./x`, relative to `base`) name in
    the revision; a pattern of another form reads the whole module."""
    all_dirs = tree.package_dirs(module)
    out: dict[str, None] = {}
    for pattern in patterns:
        if not pattern.startswith((".", "/")) and "/" in pattern and "." in pattern.split("/")[0]:
            return all_dirs  # an import path: resolved by the loader, from every package
        rest = pattern.removesuffix("...").rstrip("/")
        recursive = pattern.endswith("...")
        at = posixpath.normpath(posixpath.join(base, rest)) if rest else (base or ".")
        at = "" if at == "." else at
        for d in all_dirs:
            if d == at or (recursive and (not at or d.startswith(at + "/"))):
                out.setdefault(d, None)
    return list(out)


# the working tree's project (from the top) and its CRD directories (from the top)
CrdPlaces = tuple[str, tuple[str, ...]] | None


def _crd_places(cwd: Path, top: Path) -> CrdPlaces:
    """The working tree's project (from the top) and its CRD directories (from the top),
    or None outside a project: where a revision's CRDs are looked for."""
    project = project_root(cwd)
    if project is None:
        return None
    at = Path(os.path.relpath(project.resolve(), top.resolve())).as_posix()
    dirs = find_crd_outputs(project).dirs
    rel = [Path(os.path.relpath((project / d).resolve(), top.resolve())).as_posix() for d in dirs]
    return at, tuple(rel)


def _revision_crds(
    places: CrdPlaces, prefix: str, tree: RevisionTree
) -> list[tuple[str, str]] | None:
    """The CRD files of the revision where the working tree's project keeps them (its
    CRD directories, found as `markergen crd` finds them), or None outside such a
    project. Only the YAML files of those directories are read."""
    if places is None:
        return None
    at, rel = places
    found = _tree_crds(tree, rel, prefix) if rel else None
    if found is not None and collect(found, "").versions:
        return found
    # The project kept its CRDs elsewhere in that revision (a release before the chart
    # moved them): find them as `markergen crd` would in that revision's own tree (its
    # directories and Makefiles; no other file is read).
    with tempfile.TemporaryDirectory(prefix="markergen-diff-tree-") as tmp:
        root = Path(tmp)
        tree.skeleton("" if at == "." else at, root, every_dir=True)
        there = root / at
        if not there.is_dir():
            return found
        old = find_crd_outputs(there).dirs
        if not old:
            return found
        inside = [posixpath.normpath(posixpath.join(at, d.as_posix())) for d in old]
        return _tree_crds(tree, inside, prefix)


def _tree_crds(tree: RevisionTree, paths: Sequence[str], prefix: str) -> list[tuple[str, str]]:
    """The YAML files at or below repository paths of a revision, as (shown path, text),
    shown from `prefix` (the current directory's path in the repository)."""
    files: list[str] = []
    for p in paths:
        p = "" if p in (".", "") else p.rstrip("/")
        if p in tree.files:
            files.append(p)
            continue
        files += [f for f in tree.below(p) if f.endswith(YAML_SUFFIXES) and not _hidden_below(f, p)]
    texts = tree.read(files)
    here = prefix.rstrip("/")
    pairs = [
        (posixpath.relpath(f, here) if here else f, texts[f].decode("utf-8", errors="replace"))
        for f in files
        if f in texts
    ]
    return pairs


def _hidden_below(path: str, under: str) -> bool:
    """A file in a hidden or vendored directory below `under` (yaml_files' rule)."""
    rest = path[len(under) + 1 :] if under else path
    parts = rest.split("/")[:-1]
    return any(x.startswith(".") or x in ("vendor", "node_modules") for x in parts)


def _blob_tree(side: str, spec: str, cwd: Path) -> Side | None:
    """`REV:PATH` naming a CRD file or a directory of CRDs in a revision."""
    rev, _, path = spec.partition(":")
    kind = _git_out(cwd, ["cat-file", "-t", spec])
    if kind not in ("tree", "blob"):
        return None
    commit = _git_out(cwd, ["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"])
    if not commit:
        return None
    prefix = _git_out(cwd, ["rev-parse", "--show-prefix"]) or ""
    top = Path(_git_out(cwd, ["rev-parse", "--show-toplevel"]) or cwd)
    # `REV:./x` is relative to the current directory, `REV:x` to the top (git's rule).
    full = posixpath.normpath(prefix + path[2:]) if path.startswith("./") else path
    tree = RevisionTree(top, commit, side, spec)
    return _crd_side(side, spec, _tree_crds(tree, [full.rstrip("/") or "."], prefix))


def _from_blob(side: str, spec: str, cwd: Path) -> Side | None:
    """`REV:PATH`, git's own syntax for a file of a revision."""
    if ":" not in spec:
        return None
    proc = _git(cwd, ["cat-file", "blob", spec])
    if proc.returncode != 0:
        return _blob_tree(side, spec, cwd)
    if spec.endswith((".yaml", ".yml")):
        return _blob_tree(side, spec, cwd)
    return _document(side, spec, proc.stdout)


def read_side(
    side: str,
    spec: str | None,
    cwd: Path,
    patterns: Sequence[str] = (),
    found: set[str] | None = None,
    cache: bool = True,
    places_seen: dict[tuple[str, str], CrdPlaces] | None = None,
) -> Side:
    """The surface of one side; `spec` None is the working tree at `cwd`. The patterns
    that name something on this side are added to `found`. A git revision's side is kept
    in the cache directory and read from it next time, unless `cache` is False.
    `places_seen` keeps, across the sides of one run, where the working tree's project
    keeps its CRDs (its Makefiles are read once)."""
    found = set() if found is None else found
    if spec is None:
        try:
            return _from_directory(side, "working tree", cwd, cwd, patterns, found)
        except CrdReadError as e:
            raise DiffInputError(side, "working tree", _unreadable(e, None)) from None
    if not spec:
        raise DiffInputError(side, spec, "empty")
    path = Path(spec) if Path(spec).is_absolute() else cwd / spec
    explicit = spec.startswith(("./", "../", "/")) or spec in (".", "..")
    if not explicit and path.exists() and _is_revision(cwd, spec):
        # git refuses ambiguous arguments too; guessing could compare the wrong thing.
        raise DiffInputError(
            side,
            spec,
            f"both a path and a git revision; write ./{spec} for the path or "
            f"{spec}^{{commit}} for the revision",
        )
    # a file that is not there: a revision's, or `REV:PATH` (the CRDs as committed)
    revision = None if path.exists() else spec.partition(":")[0]
    try:
        if is_crd_file(path) or is_crd_directory(path) or _yaml_file(path):
            return _crd_side(side, spec, files_of([path], cwd))
        if path.is_file():
            try:
                data = path.read_bytes()
            except OSError as e:
                raise DiffInputError(side, spec, f"cannot read: {e.strerror or e}") from None
            return _document(side, spec, data)
        if path.is_dir():
            return _from_directory(side, spec, path, cwd, patterns, found)
        blob = _from_blob(side, spec, cwd)
        if blob is not None:
            return blob
        return _from_revision(side, spec, cwd, patterns, found, cache, places_seen)
    except CrdReadError as e:
        raise DiffInputError(side, spec, _unreadable(e, revision)) from None
    except OSError as e:
        raise DiffInputError(side, spec, str(e)) from None


def _yaml_file(path: Path) -> bool:
    """A YAML file given as a side: CRDs, since the generated documents are JSON."""
    return path.suffix in YAML_SUFFIXES and path.is_file()
