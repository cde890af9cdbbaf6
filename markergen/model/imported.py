"""The fields of structs declared in packages that are not inputs, for the field look-up.

An input struct may embed a struct of another package (`shared.SourceFields` from a
package the patterns do not name, or a dependency's type): encoding/json promotes its
fields, and a controller-gen union marker may name them. The package is found as `go`
finds it (markergen.golang.imports), only the files that declare the wanted type are
parsed, with their struct fields, and only when the look-up asks. Nothing of such a
package is checked or emitted; its markers are read and forgotten.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Protocol, runtime_checkable

from markergen.golang.header import ignored, scan_header
from markergen.golang.imports import Found
from markergen.golang.parser import GoParser
from markergen.golang.source import DecodeError, prepare
from markergen.markers import REGISTRY, Registry
from markergen.model import Field, TypeKey
from markergen.model.fields import make_field
from markergen.model.markerread import MarkerReader
from markergen.model.resolve import Resolver


@runtime_checkable
class PackageFinder(Protocol):
    """Where an import path is (markergen.golang.imports.ImportedPackages)."""

    def find(self, import_path: str, from_dir: str) -> Found: ...


class _SamePackage:
    """A resolver index for an imported package: its own unqualified names are its
    types (they become `named` references the look-up asks this loader about again)."""

    def __init__(self, package: str) -> None:
        self.package = package

    def has(self, package: str, name: str) -> bool:
        return package == self.package


class ImportedStructs:
    """Loads `<import path>.<Name>` struct types on demand; each at most once."""

    def __init__(
        self,
        finder: PackageFinder,
        package_dirs: dict[str, str],
        registry: Registry = REGISTRY,
    ) -> None:
        self._finder = finder
        self._dirs = package_dirs  # import path → directory (inputs, then loaded ones)
        self._registry = registry
        self._parser: GoParser | None = None
        self._cache: dict[TypeKey, tuple[Field, ...] | None] = {}
        self.files_read: set[str] = set()

    def fields(self, key: TypeKey, from_package: str) -> tuple[Field, ...] | None:
        """The fields of struct `key` embedded by a struct of `from_package`; None when
        the package or the struct cannot be found (or the type is no struct)."""
        if key in self._cache:
            return self._cache[key]
        self._cache[key] = None  # a cycle of loads answers "unknown"
        package, _, name = key.rpartition(".")
        from_dir = self._dirs.get(from_package)
        if not package or not name or from_dir is None:
            return None
        found = self._finder.find(package, from_dir)
        if found.directory is None:
            return None
        self._dirs.setdefault(package, found.directory.as_posix())
        result = self._load(found.directory, package, name)
        self._cache[key] = result
        return result

    def _load(self, directory: Path, package: str, name: str) -> tuple[Field, ...] | None:
        wanted = re.compile(rb"\b" + re.escape(name.encode()) + rb"\s+struct\b")
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            return None
        for entry in names:
            path = directory / entry
            if not entry.endswith(".go") or entry.endswith("_test.go"):
                continue
            try:
                data = prepare(path.as_posix(), path.read_bytes())
            except (OSError, DecodeError):
                continue
            if wanted.search(data) is None:
                continue
            header = scan_header(data)
            if header is not None and ignored(header.build_constraint):
                continue
            self.files_read.add(path.as_posix())
            if self._parser is None:
                self._parser = GoParser()
            file = self._parser.parse_prepared(path.as_posix(), data)
            for decl in file.types:
                if decl.name != name or decl.alias or decl.type.kind != "struct":
                    continue
                resolver = Resolver(_SamePackage(package), package, file)
                reader = MarkerReader(self._registry)  # its findings are not the user's
                return tuple(
                    make_field(fd, resolver, reader, name, False) for fd in decl.type.fields
                )
        return None
