"""Go package patterns to parsed packages.

Pattern rules, as the go command reads them:
- `dir/...` is `dir` and every directory below it; below the root, directories named
  `testdata` or `vendor`, starting with `.` or `_`, or holding their own `go.mod` (another
  module, unless a go.work at or above `dir` uses it) are skipped;
- a directory is just that directory;
- a `.go` file is that file alone, loaded whatever its name, build constraint or
  generated header say (as `go run file.go` does).
Files of a directory: `*.go` except `_test.go`; files with an `ignore` build constraint
and (unless asked) generated files are skipped and their paths recorded.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from markergen.golang.header import ignored, scan_header
from markergen.golang.imports import GoMod, _directives, parse_gomod
from markergen.golang.records import RecordStore, read_records
from markergen.golang.source import DecodeError, prepare
from markergen.golang.syntax import FileProblem, GoFile, GoPackage

if TYPE_CHECKING:
    from markergen.golang.parser import GoParser
    from markergen.progress import Progress

_SKIP_DIRS = frozenset({"testdata", "vendor"})
_GROUP_NAME = re.compile(rb"^\s*//\s*\+groupName=", re.MULTILINE)
_HEAD = 8192  # `+groupName` is in the package comment, at the top of its file


@dataclass(frozen=True)
class PatternError:
    """A pattern that names nothing: a missing path, or no Go files where it points."""

    pattern: str
    message: str


@dataclass(frozen=True)
class LoadResult:
    packages: tuple[GoPackage, ...]
    errors: tuple[PatternError, ...]


@dataclass
class _Dir:
    """What the patterns selected in one directory (mutable only while loading)."""

    path: Path  # lexical absolute path of the first visit
    all_files: bool = False
    files: set[str] = field(default_factory=set)  # explicitly named files


def _may_hold_go(d: _Dir) -> bool:
    """Whether `_Loader.load` reads the directory as a package (it has files to read)."""
    return bool(d.files or _names(d))


class PackageSink(Protocol):
    """Takes the packages one at a time (markergen.model.builder.ModelBuilder)."""

    def expect(self, import_paths: Iterable[str]) -> None: ...

    def add(self, pkg: GoPackage) -> None: ...


def load_packages(
    patterns: Sequence[str],
    cwd: Path,
    include_generated: bool = False,
    progress: Progress | None = None,
    sink: PackageSink | None = None,
    records: RecordStore | None = None,
) -> LoadResult:
    """Parse the packages the patterns select. Never raises for bad input.
    With `records`, a file whose bytes were read before is not parsed: its syntax
    records come from there (and a parsed file's are kept there).

    With `sink`, it is first told the import paths of every selected directory, then
    given each package as soon as it is read, in the order of `LoadResult.packages`,
    and the result lists none: the caller keeps what it needs of a package and its
    syntax records are freed before the next one is read."""
    cwd = Path(os.path.abspath(cwd))
    dirs: dict[str, _Dir] = {}  # keyed by real path, so a directory is read once
    selected: list[tuple[str, list[str]]] = []
    errors: list[PatternError] = []
    for pattern in patterns:
        error, keys = _select(pattern, cwd, dirs)
        if error:
            errors.append(PatternError(pattern, error))
        else:
            selected.append((pattern, keys))
    loader = _Loader(cwd, include_generated, records)
    if progress is not None:
        # Packages, not directories: a `./...` walk also selects directories without Go
        # files, which are no work and would make the count look wrong.
        total = sum(1 for d in dirs.values() if _may_hold_go(d))
        progress.stage(f"reading {total} package{'' if total == 1 else 's'}", total)
    # Packages are read in the order they are listed (by directory), so that a sink
    # sees them in that order too.
    identity = {key: loader.identity(d) for key, d in dirs.items()}
    if sink is not None:
        sink.expect(ident[1] for ident in identity.values())
    order = sorted(dirs, key=lambda key: identity[key][0])
    found: dict[str, tuple[bool, bool]] = {}  # key -> (any Go file, any file or problem)
    packages: list[GoPackage] = []
    for key in order:
        pkg = loader.load(dirs[key], identity[key])
        found[key] = (pkg is not None, pkg is not None and bool(pkg.files or pkg.problems))
        if pkg is not None and (pkg.files or pkg.problems):
            if sink is not None:
                sink.add(pkg)
            else:
                packages.append(pkg)
        if progress is not None and pkg is not None:
            progress.advance()
        del pkg
    for pattern, keys in selected:
        if not any(found[key][0] for key in keys):
            errors.append(PatternError(pattern, "matched no Go files"))
        elif not any(found[key][1] for key in keys):
            errors.append(
                PatternError(
                    pattern, "every Go file it matched is excluded (build constraint or generated)"
                )
            )
    return LoadResult(tuple(packages), tuple(errors))


@dataclass(frozen=True)
class InputFile:
    """One file a load would read, for fingerprinting the inputs without parsing."""

    path: str  # absolute, as the load reads it
    explicit: bool  # named by a pattern (then never skipped)
    module: tuple[str, str] | None  # (module root, module path) of its directory


def input_files(patterns: Sequence[str], cwd: Path) -> tuple[InputFile, ...] | None:
    """Every file `load_packages(patterns, cwd)` would read, or None when a pattern
    names nothing (the load itself then reports it)."""
    cwd = Path(os.path.abspath(cwd))
    dirs: dict[str, _Dir] = {}
    for pattern in patterns:
        error, _ = _select(pattern, cwd, dirs)
        if error:
            return None
    modules = _Modules()
    out: list[InputFile] = []
    for d in dirs.values():
        found = modules.module_of(d.path)
        module = (found[0].as_posix(), found[1]) if found else None
        base = str(d.path)
        out.extend(
            InputFile(os.path.join(base, name), name in d.files, module)
            for name in sorted(_names(d))
        )
    return tuple(out)


def _new_parser() -> GoParser:
    # Imported here: tree-sitter is only needed when something is parsed, and a cached
    # run never parses.
    from markergen.golang.parser import GoParser

    return GoParser()


def _names(d: _Dir) -> set[str]:
    """The file names of a selected directory that a load reads."""
    names = set(d.files)
    if d.all_files:
        try:
            listing = os.listdir(d.path)
        except OSError:
            listing = []
        names |= {
            n
            for n in listing
            if n.endswith(".go")
            and not n.endswith("_test.go")
            and not os.path.isdir(os.path.join(d.path, n))  # a dangling link: FileProblem
        }
    return names


def _select(pattern: str, cwd: Path, dirs: dict[str, _Dir]) -> tuple[str | None, list[str]]:
    """Record the directories/files `pattern` selects: (error message or None, dir keys)."""
    recursive = pattern == "..." or pattern.endswith("/...")
    base = pattern[: -len("...")].rstrip("/") if recursive else pattern
    if "..." in base:
        return "only a trailing `/...` wildcard is supported", []
    path = Path(os.path.normpath(cwd / (base or ".")))
    if not os.path.exists(path):
        return f"no such file or directory: {base or '.'}", []
    if os.path.isfile(path):
        if recursive or path.suffix != ".go":
            return "not a directory or a .go file", []
        key = os.path.realpath(path.parent)
        dirs.setdefault(key, _Dir(path.parent)).files.add(path.name)
        return None, [key]
    if not os.path.isdir(path):
        return "not a directory or a .go file", []
    keys = []
    for sub in _walk(path) if recursive else [path]:
        key = os.path.realpath(sub)
        dirs.setdefault(key, _Dir(sub)).all_files = True
        keys.append(key)
    return None, keys


def _workspace_modules(root: Path) -> frozenset[str]:
    """The real paths of the `use` modules of the go.work that applies at `root` (the
    nearest one at or above it; none with GOWORK=off). In a workspace, `./...` matches
    the packages of every workspace module below, as for the go command."""
    if os.environ.get("GOWORK") == "off":
        return frozenset()
    given = os.environ.get("GOWORK", "")
    found = (
        Path(given)
        if given
        else next(
            (d / "go.work" for d in (root, *root.parents) if os.path.isfile(d / "go.work")), None
        )
    )
    if found is None:
        return frozenset()
    try:
        text = found.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return frozenset()
    return frozenset(
        os.path.realpath(found.parent / words[0])
        for verb, words in _directives(text)
        if verb == "use" and words
    )


def _walk(root: Path) -> list[Path]:
    """`root` and the directories below it that a `...` pattern matches.

    Symbolic links to directories are followed (the go command ignores them; API repos
    sometimes link a shared types directory in), but each real directory is entered
    once, so a link loop ends. Links are followed only after every plain directory has
    been seen, so a directory reached both ways is shown under its real path.
    """
    out: list[Path] = []
    seen: set[str] = set()
    stack = [root]
    links: list[Path] = []
    workspace = _workspace_modules(root)
    while stack or links:
        current = stack.pop() if stack else links.pop(0)
        real = os.path.realpath(current)
        if real in seen:
            continue
        seen.add(real)
        out.append(current)
        try:
            names = sorted(os.listdir(current))
        except OSError:
            continue
        subdirs = []
        for name in names:
            if name in _SKIP_DIRS or name.startswith((".", "_")):
                continue
            child = current / name
            # A directory with its own go.mod is another module, as for the go command
            # (unless go.work makes it one of the workspace's modules).
            # os.path answers False for paths it cannot inspect (EACCES) instead of raising.
            if not os.path.isdir(child) or (
                os.path.isfile(child / "go.mod") and os.path.realpath(child) not in workspace
            ):
                continue
            if os.path.islink(child):
                links.append(child)
            else:
                subdirs.append(child)
        stack.extend(reversed(subdirs))
    return out


class _Loader:
    """Reads the selected files of one directory into a GoPackage."""

    def __init__(self, cwd: Path, include_generated: bool, records: RecordStore | None) -> None:
        self.cwd = cwd
        self.include_generated = include_generated
        self.records = records
        self._parser: GoParser | None = None  # made at the first parse: a kept file needs none
        self.modules = _Modules()

    def parse(self, path: str, data: bytes, struct_fields: bool) -> GoFile:
        if self._parser is None:
            self._parser = _new_parser()
        return self._parser.parse_prepared(path, data, struct_fields)

    def display(self, path: Path) -> str:
        """Relative to cwd when below it, else absolute; posix either way."""
        try:
            return path.relative_to(self.cwd).as_posix() or "."
        except ValueError:
            return path.as_posix()

    def identity(self, d: _Dir) -> tuple[str, str, str | None]:
        """(directory as shown, import path, module root as shown) of a directory."""
        module = self.modules.module_of(d.path)
        shown_dir = self.display(d.path)
        if module is None:
            return shown_dir, shown_dir, None
        root, module_path = module
        rel = d.path.relative_to(root).as_posix()
        return shown_dir, module_path if rel == "." else f"{module_path}/{rel}", self.display(root)

    def load(self, d: _Dir, identity: tuple[str, str, str | None]) -> GoPackage | None:
        names = _names(d)
        if not names and not d.files:
            return None
        files: list[GoFile] = []
        problems: list[FileProblem] = []
        skipped: list[str] = []
        for name in sorted(names):
            shown = self.display(d.path / name)
            explicit = name in d.files
            try:
                data = (d.path / name).read_bytes()
            except OSError as exc:
                problems.append(FileProblem(shown, f"cannot read file: {exc.strerror or exc}"))
                continue
            try:
                data = prepare(shown, data)
            except DecodeError as exc:
                problems.append(FileProblem(shown, exc.message, exc.line, exc.column))
                continue
            if not explicit and self.skip_unparsed(data):
                skipped.append(shown)
                continue
            gofile = read_records(self.parse, self.records, shown, data)
            if not explicit and (
                ignored(gofile.build_constraint)
                or (gofile.generated and not self.include_generated)
            ):
                skipped.append(shown)
                continue
            files.append(gofile)
        shown_dir, import_path, module_root = identity
        owner = self.modules.module_of(d.path)
        return GoPackage(
            dir=shown_dir,
            import_path=import_path,
            module_root=module_root,
            go_version=self.modules.go.get(owner[0], "") if owner is not None else "",
            files=tuple(files),
            problems=tuple(problems),
            skipped=tuple(skipped),
        )

    def skip_unparsed(self, data: bytes) -> bool:
        """True when the raw header alone says the file is skipped (no parse needed)."""
        header = scan_header(data)
        return header is not None and (
            ignored(header.build_constraint) or (header.generated and not self.include_generated)
        )


class _Modules:
    """The go.mod that owns each directory, looked up once per directory per load."""

    def __init__(self) -> None:
        self.found: dict[Path, tuple[Path, str] | None] = {}
        self.go: dict[Path, str] = {}  # module root -> its `go` directive

    def module_of(self, directory: Path) -> tuple[Path, str] | None:
        """(directory of the nearest go.mod, its module path), or None without one."""
        for candidate in (directory, *directory.parents):
            if candidate in self.found:
                return self.found[candidate]
            gomod = candidate / "go.mod"
            if os.path.isfile(gomod):
                mod = _gomod(gomod)
                module_path = mod.module
                self.go[candidate] = mod.go
                found = (candidate, module_path) if module_path else None
                self.found[candidate] = found
                return found
        return None


def _gomod(gomod: Path) -> GoMod:
    """A go.mod file's directives (its `module` "" when it cannot be read)."""
    try:
        text = gomod.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    return parse_gomod(gomod.parent, text)


def nested_api_patterns(root: Path) -> tuple[str, ...]:
    """Package patterns (relative to `root`, `./x/...`) for the API packages that sit
    in modules nested below `root`, which `./...` does not reach (as for the go command,
    a directory with its own go.mod is another module).

    An API package is one whose files declare `+groupName=`. A nested module named
    `api` or `apis` (kubebuilder's layout for an API module of its own) is read whole;
    in other nested modules, the directory above each API version package is."""
    root = Path(os.path.abspath(root))
    out: list[str] = []
    workspace = _workspace_modules(root)
    for module in _nested_modules(root):
        if os.path.realpath(module) in workspace:
            continue  # `./...` reaches it: go.work uses it
        parents = sorted({d.parent for d in _api_dirs(module)})
        if not parents:
            continue
        if module.name in ("api", "apis"):
            parents = [module]
        kept = [p for p in parents if not any(q in p.parents for q in parents)]
        out.extend(f"./{p.relative_to(root).as_posix()}/..." for p in kept)
    return tuple(out)


def _dirs_below(top: Path, stop_at_modules: bool) -> Iterable[tuple[Path, list[str]]]:
    """(directory, file names) below `top` as `...` walks them: no testdata, vendor,
    `.x` or `_x` directories; with `stop_at_modules`, not into nested modules."""
    for dirpath, dirnames, filenames in os.walk(top):
        here = Path(dirpath)
        if stop_at_modules and here != top and "go.mod" in filenames:
            dirnames[:] = []
            continue
        dirnames[:] = sorted(
            d for d in dirnames if d not in _SKIP_DIRS and not d.startswith((".", "_"))
        )
        yield here, filenames


def _nested_modules(root: Path) -> list[Path]:
    """The directories below `root` holding a go.mod of their own (not inside another)."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        if here != root and "go.mod" in filenames:
            found.append(here)
            dirnames[:] = []
            continue
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in _SKIP_DIRS and d != "node_modules" and not d.startswith((".", "_"))
        )
    return sorted(found)


def _api_dirs(module: Path) -> list[Path]:
    """The package directories of `module` with a file declaring `+groupName=`."""
    out: list[Path] = []
    for here, names in _dirs_below(module, stop_at_modules=True):
        for name in sorted(names):
            if not name.endswith(".go") or name.endswith("_test.go"):
                continue
            try:
                with open(here / name, "rb") as f:
                    head = f.read(_HEAD)
            except OSError:
                continue
            if b"+groupName" in head and _GROUP_NAME.search(head):
                out.append(here)
                break
    return out


_IMPORT_BLOCK = re.compile(rb"^import\s*\(([^)]*)\)", re.MULTILINE)
_IMPORT_LINE = re.compile(rb'^import\s+(?:[A-Za-z_.][\w]*\s+)?"([^"]+)"', re.MULTILINE)
_QUOTED = re.compile(rb'"([^"]+)"')


_TYPE_DECL = re.compile(rb"^type\s|^type\s*\(", re.MULTILINE)


def _imports(directory: Path) -> set[str]:
    """The import paths of the Go files of a package directory that declare types: what
    its types can reach. Files of functions only (validation, defaulting, helpers) and
    generated files (conversions, clients) import code, not API types; tests are left
    out too."""
    out: set[str] = set()
    for go in sorted(directory.glob("*.go")):
        if go.name.endswith("_test.go"):
            continue
        try:
            data = go.read_bytes()
        except OSError:
            continue
        header = scan_header(data[:_HEAD].replace(b"\r\n", b"\n"))
        if header is not None and header.generated:
            continue
        if _TYPE_DECL.search(data) is None:
            continue
        for block in _IMPORT_BLOCK.findall(data):
            out.update(m.decode() for m in _QUOTED.findall(block))
        out.update(m.decode() for m in _IMPORT_LINE.findall(data))
    return out


def api_reach_patterns(root: Path) -> tuple[str, ...] | None:
    """The packages the API types reach, as patterns naming each package directory
    (`./operator/api/v1`, `./operator/pkg/apis/shared`): the packages declaring
    `+groupName=` in the module of `root` (or in the modules below it, when `root` is a
    directory above them) and, transitively, the packages of those modules they import.
    Run from a repository's top or from its module's directory, the same packages: a
    package of shared API types that two CRDs use is read, the module's internal code is
    not. None when no package declares a group (then markergen reads `./...`)."""
    root = Path(os.path.abspath(root))
    modules = ([root] if (root / "go.mod").is_file() else []) + _nested_modules(root)
    by_path: dict[str, Path] = {}
    for module in modules:
        path = _gomod(module / "go.mod").module
        if path:
            by_path[path] = module
    starts = [d for module in by_path.values() for d in _api_dirs(module)]
    if not starts:
        return None
    seen: dict[Path, None] = {}
    stack = list(reversed(starts))
    while stack:
        here = stack.pop()
        if here in seen:
            continue
        seen[here] = None
        for imported in sorted(_imports(here)):
            target = _local_dir(imported, by_path)
            if target is not None and target not in seen and target.is_dir():
                stack.append(target)
    # a package of generated files only (a client's informers) is never read as input
    rels = sorted(os.path.relpath(d, root).replace(os.sep, "/") for d in seen if _has_source(d))
    return tuple("." if r == "." else f"./{r}" for r in rels)


def _local_dir(import_path: str, modules: dict[str, Path]) -> Path | None:
    """The directory of a package of one of `modules` (module path → directory), by the
    longest module path that prefixes the import path; None for other modules'."""
    best = ""
    for path in modules:
        if (import_path == path or import_path.startswith(path + "/")) and len(path) > len(best):
            best = path
    if not best:
        return None
    rest = import_path[len(best) :].lstrip("/")
    target = modules[best] / rest if rest else modules[best]
    if any(part in _SKIP_DIRS for part in Path(rest).parts):
        return None
    return target


def _has_source(directory: Path) -> bool:
    """Whether a package directory has a Go file a load reads as input: not a test, not
    generated, not excluded by `//go:build ignore`."""
    for go in sorted(directory.glob("*.go")):
        if go.name.endswith("_test.go"):
            continue
        try:
            with open(go, "rb") as f:
                head = f.read(_HEAD).replace(b"\r\n", b"\n").removeprefix(b"\xef\xbb\xbf")
        except OSError:
            continue
        header = scan_header(head)
        if header is None or not (header.generated or ignored(header.build_constraint)):
            return True
    return False
