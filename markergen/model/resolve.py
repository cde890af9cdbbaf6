"""Resolution of Go type expressions to `TypeRef`s across the input packages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from markergen.golang.syntax import GoFile, TypeExpr
from markergen.model import TypeRef

# Go's predeclared types; anything else unqualified is declared in the package itself.
PREDECLARED = frozenset(
    {
        "bool", "string", "byte", "rune", "error", "any",
        "int", "int8", "int16", "int32", "int64",
        "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
        "float32", "float64", "complex64", "complex128",
    }
)  # fmt: skip


@dataclass(frozen=True)
class TypeIndex:
    """Which type names each input package declares: the resolver's whole world."""

    declared: frozenset[tuple[str, str]]  # (import path, type name)

    def has(self, package: str, name: str) -> bool:
        return (package, name) in self.declared


class DeclaredNames(Protocol):
    """What the resolver asks: does input package `package` declare type `name`?"""

    def has(self, package: str, name: str) -> bool: ...


class Resolver:
    """Resolves the type expressions of one file (its imports decide qualified names)."""

    def __init__(self, index: DeclaredNames, package: str, file: GoFile) -> None:
        self._index = index
        self._package = package
        self._file = file
        # The TypeRef of each type expression record already resolved. The front end
        # shares one record among the equal type expressions of a tree (a file repeats
        # its field types), and within one file the answer depends on the record alone
        # (the file's imports and the index do not change while it is read). Keyed by
        # text, kept with the record, and taken only for that very record.
        self._done: dict[str, tuple[TypeExpr, TypeRef]] = {}

    def resolve(self, expr: TypeExpr) -> TypeRef:
        done = self._done.get(expr.text)
        if done is not None and done[0] is expr:
            return done[1]
        found = self._resolve(expr)
        if done is None:
            self._done[expr.text] = (expr, found)
        return found

    def _resolve(self, expr: TypeExpr) -> TypeRef:
        # Iterative over the elem chain would be nicer, but expressions are shallow in
        # practice and each level is a distinct syntax node; depth is bounded by the
        # parser's own recursion, which already succeeded.
        kind = expr.kind
        if kind in ("ident", "generic") and not expr.package:
            if expr.name in PREDECLARED:
                return TypeRef("builtin", name=expr.name, text=expr.text)
            if self._index.has(self._package, expr.name):
                return TypeRef("named", name=expr.name, package=self._package, text=expr.text)
            return TypeRef("unknown", name=expr.name, text=expr.text)
        if kind in ("qualified", "generic"):
            path = self._file.import_path(expr.package)
            if path is None:
                return TypeRef("unknown", name=expr.name, text=expr.text)
            if self._index.has(path, expr.name):
                return TypeRef("named", name=expr.name, package=path, text=expr.text)
            return TypeRef("external", name=expr.name, package=path, text=expr.text)
        if kind == "pointer" and expr.elem is not None:
            return TypeRef("pointer", elem=self.resolve(expr.elem), text=expr.text)
        if kind in ("slice", "array") and expr.elem is not None:
            # Go arrays and slices are both JSON arrays; the model does not tell them apart.
            return TypeRef(
                "slice" if kind == "slice" else "array",
                elem=self.resolve(expr.elem),
                text=expr.text,
            )
        if kind == "map" and expr.elem is not None and expr.key is not None:
            return TypeRef(
                "map", key=self.resolve(expr.key), elem=self.resolve(expr.elem), text=expr.text
            )
        if kind == "struct":
            return TypeRef("struct", text=expr.text)
        if kind == "interface":
            return TypeRef("interface", text=expr.text)
        return TypeRef("unknown", text=expr.text)
