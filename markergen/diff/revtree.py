"""The files of a git revision that one side of `markergen diff` reads, and no others.

A revision is listed with `git ls-tree` (names and object ids: trees only, no file
contents), and only the blobs a side needs are read, in one `git cat-file --batch`:
the project files that say where things are (go.mod, markergen.yaml, PROJECT, the
Makefiles and the scripts they run), the Go files of the API packages (those declaring
`+groupName=` and the packages of the module their types import, or the configured
inputs), and the CRD files. The rest of the tree is never read: a mid-size project's
thousands of files cost nothing, and a blob missing from a partial clone (or deleted)
outside those files does not matter.

The files read are written below a temporary directory with the revision's layout, so
the readers of a working tree (configuration, package loading, CRD discovery) run on it
unchanged.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from markergen.diff.errors import DiffInputError

# Files that say where the inputs and outputs are; read whatever their directory.
_PROJECT_FILES = frozenset({"go.mod", "markergen.yaml", "PROJECT"})
_MAKE_SUFFIXES = (".mk", ".sh")
_MAKEFILES = frozenset({"GNUmakefile", "makefile", "Makefile"})
_SKIP = frozenset({"vendor", "testdata", "node_modules"})
_VERSION_DIR = re.compile(r"^v\d+((alpha|beta)\d+)?$")
# Files that hold a package's `+groupName=` in the layouts controller-gen and
# kubernetes use; read in every package so a group package in a directory not named
# like a version is still found.
_GROUP_FILES = frozenset({"doc.go", "groupversion_info.go", "register.go"})
_GROUP_NAME = re.compile(rb"^\s*//\s*\+groupName=", re.MULTILINE)
_IMPORT_BLOCK = re.compile(rb"^import\s*\(([^)]*)\)", re.MULTILINE)
_IMPORT_LINE = re.compile(rb'^import\s+(?:[A-Za-z_.][\w]*\s+)?"([^"]+)"', re.MULTILINE)
_QUOTED = re.compile(rb'"([^"]+)"')
_MODULE = re.compile(rb"^\s*module\s+\"?([^\s\"]+)\"?", re.MULTILINE)


@dataclass(frozen=True)
class Entry:
    path: str  # from the repository's top
    oid: str


def _skipped(path: str) -> bool:
    """A file in a directory `...` does not walk (vendor, testdata, `.x`, `_x`)."""
    parts = path.split("/")[:-1]
    return any(p in _SKIP or p.startswith((".", "_")) for p in parts)


class RevisionTree:
    """One revision's listing, and the blobs read from it."""

    def __init__(self, top: Path, commit: str, side: str, spec: str) -> None:
        self.top = top
        self.commit = commit
        self.side = side
        self.spec = spec
        proc = subprocess.run(
            ["git", "-C", str(top), "ls-tree", "-r", "-z", "--full-tree", commit],
            capture_output=True,
            check=False,
        )
        if proc.returncode != 0:
            err = proc.stderr.decode(errors="replace").strip()
            raise DiffInputError(side, spec, f"cannot list the revision's files: {err}")
        self.files: dict[str, Entry] = {}
        for record in proc.stdout.split(b"\0"):
            if not record:
                continue
            meta, _, name = record.partition(b"\t")
            mode, kind, oid = meta.split(b" ")[:3]
            if kind != b"blob" or mode == b"120000":  # symbolic links are not followed
                continue
            path = name.decode("utf-8", errors="surrogateescape")
            self.files[path] = Entry(path, oid.decode())
        self.dirs: dict[str, list[str]] = {}
        for path in self.files:
            parent = posixpath_parent(path)
            self.dirs.setdefault(parent, []).append(path)

    def below(self, directory: str) -> Iterable[str]:
        """Files at or below a directory ("" the top), sorted."""
        if not directory:
            return sorted(self.files)
        prefix = directory.rstrip("/") + "/"
        return sorted(p for p in self.files if p.startswith(prefix))

    def read(self, paths: Sequence[str], *, required: bool = True) -> dict[str, bytes]:
        """The contents of `paths`. A blob the repository lacks (a partial clone whose
        remote cannot send it, an object deleted) is an error naming the file when
        `required`, else left out."""
        wanted = [p for p in dict.fromkeys(paths) if p in self.files]
        if not wanted:
            return {}
        request = b"".join(self.files[p].oid.encode() + b"\n" for p in wanted)
        try:
            proc = subprocess.run(
                ["git", "-C", str(self.top), "cat-file", "--batch"],
                input=request,
                capture_output=True,
                check=False,
                timeout=300,
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            raise DiffInputError(self.side, self.spec, f"cannot run git cat-file: {e}") from None
        out: dict[str, bytes] = {}
        data = proc.stdout
        at = 0
        for path in wanted:
            end = data.find(b"\n", at)
            header = b"" if end < 0 else data[at:end]
            fields = header.split(b" ")
            if len(fields) != 3 or fields[1] != b"blob":
                if required:
                    err = proc.stderr.decode(errors="replace").strip().splitlines()
                    why = f" ({err[-1]})" if err else ""
                    raise DiffInputError(
                        self.side,
                        self.spec,
                        f"{path}: the revision's file is not in the repository (object "
                        f"{self.files[path].oid} missing{why})",
                    )
                at = end + 1 if end >= 0 else len(data)
                continue
            size = int(fields[2])
            out[path] = data[end + 1 : end + 1 + size]
            at = end + 1 + size + 1
        return out

    def write(self, contents: dict[str, bytes], dest: Path) -> None:
        for path, data in contents.items():
            target = dest / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)

    def skeleton(self, under: str, dest: Path, *, every_dir: bool = False) -> None:
        """The project files below `under` (go.mod, markergen.yaml, PROJECT, Makefiles and
        the make includes and scripts they may run), the directories one level below it
        (kubebuilder's `api/` is found by its presence), and with `every_dir` every
        directory (CRD outputs a Makefile names are checked for existence)."""
        wanted = []
        depth = len(PurePosixPath(under).parts) if under else 0
        made: set[str] = set()
        for path in self.below(under):
            if _skipped(path):
                continue
            parent, _, name = path.rpartition("/")
            if parent not in made and (every_dir or (parent and parent.count("/") <= depth)):
                made.add(parent)
                (dest / parent).mkdir(parents=True, exist_ok=True)
            if name in _PROJECT_FILES or name in _MAKEFILES or name.endswith(_MAKE_SUFFIXES):
                wanted.append(path)
        self.write(self.read(wanted, required=False), dest)

    def has_dir(self, directory: str) -> bool:
        """Whether the revision has files at or below `directory` ("" the top)."""
        if not directory:
            return bool(self.files)
        prefix = directory.rstrip("/") + "/"
        return any(p.startswith(prefix) for p in self.files)

    # -- Go packages ---------------------------------------------------------------------

    def go_files(self, directory: str) -> list[str]:
        """The Go files a load of one package directory reads (no tests)."""
        return sorted(
            p
            for p in self.dirs.get(directory, [])
            if p.endswith(".go") and not p.endswith("_test.go")
        )

    def package_dirs(self, module: str) -> list[str]:
        """The package directories of the module at `module` and the modules below it
        (`...`'s walk: no vendor, testdata, `.x` or `_x` directories)."""
        out = []
        for directory in sorted(self.dirs):
            inside = (
                not module or directory == module or directory.startswith(module.rstrip("/") + "/")
            )
            if inside and not _skipped(directory + "/x") and self.go_files(directory):
                out.append(directory)
        return out

    def modules(self, module: str) -> dict[str, str]:
        """Module path → directory, for the module at `module` and those below it."""
        mods = [p for p in self.below(module) if PurePosixPath(p).name == "go.mod"]
        found: dict[str, str] = {}
        for path, data in self.read(mods, required=False).items():
            m = _MODULE.search(data)
            if m is not None:
                found[m.group(1).decode()] = posixpath_parent(path)
        return found

    def api_packages(self, module: str) -> list[str] | None:
        """The directories of the API packages: those with a `+groupName=` and the
        packages of the modules here that their types import, transitively (as
        `markergen check` picks its inputs in a project without configuration). None when
        no package declares a group."""
        dirs = self.package_dirs(module)
        probes = [
            p
            for d in dirs
            for p in self.go_files(d)
            if _VERSION_DIR.match(PurePosixPath(d).name) or PurePosixPath(p).name in _GROUP_FILES
        ]
        heads = self.read(probes, required=False)
        starts = sorted(
            {posixpath_parent(p) for p, data in heads.items() if _GROUP_NAME.search(data[:8192])}
        )
        return self.reach(module, starts) if starts else None

    def reach(self, module: str, starts: Sequence[str]) -> list[str]:
        """`starts` and the package directories of the modules at or below `module` that
        their types import, transitively."""
        modules = self.modules(module)
        seen: dict[str, None] = {}
        stack = list(reversed(starts))
        while stack:
            here = stack.pop()
            if here in seen:
                continue
            seen[here] = None
            contents = self.read(self.go_files(here))
            for imported in sorted(_imports(contents.values())):
                target = _local_dir(imported, modules)
                if target is not None and target not in seen and self.go_files(target):
                    stack.append(target)
        return sorted(seen)


def posixpath_parent(path: str) -> str:
    """The directory of a repository path ("" at the top); plain string work, as it runs
    for every file of a large tree."""
    return path.rpartition("/")[0]


def _imports(files: Iterable[bytes]) -> set[str]:
    """What the types of a package can reach: the imports of its files that declare
    types (functions-only files import code, not API types)."""
    out: set[str] = set()
    for data in files:
        if b"Code generated" in data[:4096] and b"DO NOT EDIT" in data[:4096]:
            continue
        if re.search(rb"^type\s", data, re.MULTILINE) is None:
            continue
        for block in _IMPORT_BLOCK.findall(data):
            out.update(m.decode() for m in _QUOTED.findall(block))
        out.update(m.decode() for m in _IMPORT_LINE.findall(data))
    return out


def _local_dir(import_path: str, modules: dict[str, str]) -> str | None:
    best = ""
    for path in modules:
        if (import_path == path or import_path.startswith(path + "/")) and len(path) > len(best):
            best = path
    if not best:
        return None
    rest = import_path[len(best) :].lstrip("/")
    if any(part in _SKIP for part in rest.split("/")):
        return None
    base = modules[best]
    return os.path.join(base, rest).replace(os.sep, "/").strip("/") if rest else base
