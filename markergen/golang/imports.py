"""Import paths to directories, as the go command finds them, without a Go toolchain.

Order, for an import made from a directory of a module (go help modules, go help
gopath): the main module and the `use` modules of a go.work workspace (found upward
from the importing directory, or named by GOWORK; GOWORK=off disables it); then the
module's `vendor/` directory when it has one (not in workspace mode); then the
module that provides the path per the go.mod's `replace` (a local directory, or
another module version) and `require` lines, read from the module cache
(GOMODCACHE, default GOPATH/pkg/mod, GOPATH default ~/go), where upper-case letters
of module paths and versions are written `!` + lower case. A directory without a
go.mod is in GOPATH mode: each GOPATH entry's `src/<import path>`.

Imported packages are parsed only when a constant of theirs is needed, are never
emitted nor checked, and every file read is recorded for the cache key.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from markergen.golang.header import ignored, scan_header
from markergen.golang.records import RecordStore, read_records
from markergen.golang.source import DecodeError, prepare
from markergen.golang.syntax import GoFile

if TYPE_CHECKING:
    from markergen.golang.parser import GoParser


@dataclass(frozen=True, slots=True)
class GoMod:
    """What import resolution needs from a go.mod file."""

    root: Path
    module: str
    requires: tuple[tuple[str, str], ...]  # (module path, version)
    # (old path, old version or "", new path or directory, new version or "")
    replaces: tuple[tuple[str, str, str, str], ...]
    go: str = ""  # the `go` directive's language version ("1.22"), "" without one


@dataclass(frozen=True, slots=True)
class Found:
    """Where an import path was found (directory None: nowhere) and what was searched."""

    directory: Path | None
    searched: tuple[str, ...]


def escape_module_path(path: str) -> str:
    """The module cache's case encoding: `Azure` → `!azure` (go help module-cache)."""
    return "".join("!" + c.lower() if c.isupper() else c for c in path)


def is_standard(import_path: str) -> bool:
    """Standard library paths have no dot in their first element (the go command's rule)."""
    return "." not in import_path.split("/", 1)[0]


def _unquote(word: str) -> str:
    if len(word) >= 2 and word[0] == word[-1] and word[0] in '"`':
        return word[1:-1]
    return word


def _directives(text: str) -> list[tuple[str, list[str]]]:
    """(verb, words) for each directive line, blocks `verb ( ... )` flattened."""
    out: list[tuple[str, list[str]]] = []
    block: str | None = None
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        if block is not None:
            if line == ")":
                block = None
            else:
                out.append((block, [_unquote(w) for w in line.split()]))
            continue
        words = line.split()
        if len(words) == 2 and words[1] == "(":
            block = words[0]
            continue
        out.append((words[0], [_unquote(w) for w in words[1:]]))
    return out


def parse_gomod(root: Path, text: str) -> GoMod:
    module = ""
    go = ""
    requires: list[tuple[str, str]] = []
    replaces: list[tuple[str, str, str, str]] = []
    for verb, words in _directives(text):
        if verb == "module" and words:
            module = words[0]
        elif verb == "go" and words:
            go = words[0]
        elif verb == "require" and len(words) >= 2:
            requires.append((words[0], words[1]))
        elif verb == "replace" and "=>" in words:
            arrow = words.index("=>")
            old, new = words[:arrow], words[arrow + 1 :]
            if old and new:
                replaces.append(
                    (old[0], old[1] if len(old) > 1 else "", new[0], new[1] if len(new) > 1 else "")
                )
    return GoMod(root, module, tuple(requires), tuple(replaces), go)


def _under(import_path: str, module: str) -> str | None:
    """The path below `module` ("" for the module itself), None when not inside it."""
    if import_path == module:
        return ""
    if module and import_path.startswith(module + "/"):
        return import_path[len(module) + 1 :]
    return None


def _is_local(path: str) -> bool:
    return path.startswith(("./", "../", "/")) or path in (".", "..")


class ImportFinder:
    """Finds import paths' directories; go.mod / go.work files are read once each."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self.env = dict(os.environ if env is None else env)
        self._mods: dict[Path, GoMod | None] = {}
        self._works: dict[Path, tuple[GoMod, ...] | None] = {}
        self.files_read: set[str] = set()

    def gopaths(self) -> list[Path]:
        value = self.env.get("GOPATH", "")
        entries = [Path(p) for p in value.split(os.pathsep) if p]
        if not entries:
            home = self.env.get("HOME") or os.path.expanduser("~")
            entries = [Path(home) / "go"]
        return entries

    def modcache(self) -> Path:
        value = self.env.get("GOMODCACHE", "")
        return Path(value) if value else self.gopaths()[0] / "pkg" / "mod"

    def _read_mod(self, directory: Path) -> GoMod | None:
        if directory not in self._mods:
            gomod = directory / "go.mod"
            mod: GoMod | None = None
            if os.path.isfile(gomod):
                try:
                    text = gomod.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    text = ""
                self.files_read.add(str(gomod))
                mod = parse_gomod(directory, text)
            self._mods[directory] = mod
        return self._mods[directory]

    def module_of(self, directory: Path) -> GoMod | None:
        for candidate in (directory, *directory.parents):
            mod = self._read_mod(candidate)
            if mod is not None:
                return mod
        return None

    def workspace(self, directory: Path) -> tuple[GoMod, ...] | None:
        """The modules of the go.work that applies to `directory`, None outside one."""
        gowork = self.env.get("GOWORK", "")
        if gowork == "off":
            return None
        if gowork:
            path: Path | None = Path(gowork)
        else:
            path = next(
                (c / "go.work" for c in (directory, *directory.parents) if os.path.isfile(c / "go.work")),
                None,
            )
        if path is None or not os.path.isfile(path):
            return None
        if path not in self._works:
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            self.files_read.add(str(path))
            mods = []
            for verb, words in _directives(text):
                if verb == "use" and words:
                    mod = self._read_mod(Path(os.path.normpath(path.parent / words[0])))
                    if mod is not None:
                        mods.append(mod)
            self._works[path] = tuple(mods)
        return self._works[path]

    def find(self, import_path: str, from_dir: Path) -> Found:
        searched: list[str] = []

        def probe(directory: Path) -> Path | None:
            searched.append(directory.as_posix())
            # os.path, not Path.is_dir: a directory we may not read (another user's
            # module cache) is "not found", never an exception.
            return directory if os.path.isdir(directory) else None

        main = self.module_of(from_dir)
        if main is None:
            for gopath in self.gopaths():
                if (hit := probe(gopath / "src" / import_path)) is not None:
                    return Found(hit, tuple(searched))
            return Found(None, tuple(searched))
        work = self.workspace(from_dir)
        mains = work if work else (main,)
        for mod in mains:
            rest = _under(import_path, mod.module)
            if rest is not None and (hit := probe(mod.root / rest)) is not None:
                return Found(hit, tuple(searched))
        if not work and os.path.isdir(main.root / "vendor"):
            hit = probe(main.root / "vendor" / import_path)
            return Found(hit, tuple(searched))
        for mod in mains:
            if (hit := self._from_requirements(mod, import_path, probe, searched)) is not None:
                return Found(hit, tuple(searched))
        return Found(None, tuple(searched))

    def _from_requirements(
        self, mod: GoMod, import_path: str, probe: _Probe, searched: list[str]
    ) -> Path | None:
        # The longest module path that contains the import provides it (go's rule when
        # several required modules nest).
        candidates = sorted(
            ((m, v) for m, v in mod.requires if _under(import_path, m) is not None),
            key=lambda mv: -len(mv[0]),
        )
        replaced = sorted(
            (r for r in mod.replaces if _under(import_path, r[0]) is not None),
            key=lambda r: -len(r[0]),
        )
        if not candidates and not replaced:
            gomod = (mod.root / "go.mod").as_posix()
            searched.append(f"{gomod} (no require or replace line provides {import_path})")
            return None
        for module, version in candidates or [(r[0], "") for r in replaced[:1]]:
            rest = _under(import_path, module) or ""
            for old, old_version, new, new_version in replaced:
                if old == module and old_version in ("", version):
                    if _is_local(new):
                        base = Path(os.path.normpath(mod.root / new))
                    else:
                        base = self.modcache() / f"{escape_module_path(new)}@{escape_module_path(new_version)}"
                    return probe(base / rest)
            if version:
                base = self.modcache() / f"{escape_module_path(module)}@{escape_module_path(version)}"
                if (hit := probe(base / rest)) is not None:
                    return hit
        return None


if TYPE_CHECKING:
    from collections.abc import Callable

    _Probe = Callable[[Path], Path | None]


class ImportedPackages:
    """Imported packages, parsed lazily for the constants the inputs use.

    Only the files of a package that mention a wanted name are parsed (its declaration
    is in one of them); a package's files are read once, parsed at most once.
    """

    def __init__(
        self, cwd: Path, env: Mapping[str, str] | None = None, records: RecordStore | None = None
    ) -> None:
        self.cwd = cwd
        self.finder = ImportFinder(env)
        self.records = records  # the per-file syntax records kept between runs
        self._parser: GoParser | None = None
        self._found: dict[str, Found] = {}
        self._unparsed: dict[Path, list[tuple[Path, bytes]]] = {}
        self._patterns: dict[bytes, re.Pattern[bytes]] = {}

    @property
    def files_read(self) -> tuple[str, ...]:
        return tuple(sorted(self.finder.files_read))

    def find(self, import_path: str, from_dir: str) -> Found:
        """Where `import_path` is, imported from `from_dir` (shown relative to cwd or
        absolute). Standard library packages are not looked for (nothing searched)."""
        base = Path(os.path.normpath(self.cwd / from_dir))
        mod = self.finder.module_of(base)
        key = f"{import_path}\x00{mod.root if mod is not None else base}"
        if key not in self._found:
            self._found[key] = (
                Found(None, ()) if is_standard(import_path) else self.finder.find(import_path, base)
            )
        return self._found[key]

    def load(
        self, import_path: str, from_dir: str, name: str, patterns: tuple[bytes, ...] = ()
    ) -> tuple[tuple[GoFile, ...], Found]:
        """The not yet returned files of `import_path` that mention `name` (and match
        every regular expression of `patterns`), parsed (struct types without their fields),
        and where the package was found."""
        found = self.find(import_path, from_dir)
        if found.directory is None:
            return (), found
        pending = self._files(found.directory)
        word = name.encode()
        compiled = [self._pattern(p) for p in patterns]
        wanted = [
            (path, data)
            for path, data in pending
            if word in data and all(c.search(data) for c in compiled)
        ]
        if not wanted:
            return (), found
        taken = {path for path, _ in wanted}
        pending[:] = [item for item in pending if item[0] not in taken]
        # Only constants and non-struct type declarations of an imported package are
        # read (markergen.model.enums): its structs' fields are never walked.
        return tuple(
            read_records(self._parse, self.records, path.as_posix(), data, struct_fields=False)
            for path, data in wanted
        ), found

    def _parse(self, path: str, data: bytes, struct_fields: bool) -> GoFile:
        if self._parser is None:
            from markergen.golang.parser import GoParser

            self._parser = GoParser()
        return self._parser.parse_prepared(path, data, struct_fields)

    def _pattern(self, pattern: bytes) -> re.Pattern[bytes]:
        compiled = self._patterns.get(pattern)
        if compiled is None:
            compiled = self._patterns[pattern] = re.compile(pattern)
        return compiled

    def _files(self, directory: Path) -> list[tuple[Path, bytes]]:
        """The package's non-test Go files (build constraint `ignore` excluded), read once."""
        if directory in self._unparsed:
            return self._unparsed[directory]
        out: list[tuple[Path, bytes]] = []
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            names = []
        for name in names:
            path = directory / name
            if not name.endswith(".go") or name.endswith("_test.go") or not os.path.isfile(path):
                continue
            try:
                data = prepare(path.as_posix(), path.read_bytes())
            except (OSError, DecodeError):
                continue
            self.finder.files_read.add(str(path))
            header = scan_header(data)
            # Generated files (deep copies, protobuf, swagger docs) are skipped as they
            # are in the inputs: they declare no API type or enum constant.
            if header is not None and (header.generated or ignored(header.build_constraint)):
                continue
            out.append((path, data))
        self._unparsed[directory] = out
        return out
