"""A Go module renamed between the two sides of `markergen diff`.

Definition names start with the module path (`a.example/x/api/v1.T` is
`example.a.x.api.v1.T`), so a module that moves (`module a.example/x` to
`module b.example/x`) would make every package look removed and added again, hiding the
changes inside. A package is the same package when its path inside the module is the
same: the base side's names are moved onto the head's module before the two are compared.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace

from markergen.diff.surface import Surface
from markergen.emit.naming import Naming, definition_name
from markergen.model import Package


def module_path(packages: Iterable[Package]) -> str:
    """The module path of a side's packages: their import path less their directory
    inside the module ("" when they name none, or more than one module)."""
    found: set[str] = set()
    for p in packages:
        if p.module_root is None:
            continue
        rel = os.path.relpath(p.dir, p.module_root).replace(os.sep, "/")
        if rel == ".":
            found.add(p.import_path)
        elif p.import_path.endswith("/" + rel):
            found.add(p.import_path[: -len(rel) - 1])
    return found.pop() if len(found) == 1 else ""


def moved_package(package: str, old: str, new: str) -> str:
    """`package` of module `old` as the same path inside module `new`."""
    if package == old or package.startswith(old + "/"):
        return new + package[len(old) :]
    return package


def moved_key(key: str, old: str, new: str) -> str:
    """A model type key (`<import path>.<Type>`) moved from module `old` to `new`."""
    package, _, name = key.rpartition(".")
    return f"{moved_package(package, old, new)}.{name}"


def move_surface(surface: Surface, old: str, new: str, naming: Naming) -> Surface:
    """The surface with the types of module `old` named as if it were module `new`."""
    if not old or not new or old == new:
        return surface
    types = {}
    for name, t in surface.types.items():
        package = moved_package(t.package, old, new)
        if package == t.package:
            types[name] = t
            continue
        moved = definition_name(package, t.go_name, naming)
        types[moved] = replace(t, name=moved, package=package)
    return replace(surface, types=types)
