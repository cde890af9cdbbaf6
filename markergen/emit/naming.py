"""Definition names of the OpenAPI documents and the runtime table.

`openapi-gen` naming follows kube-openapi's ToRESTFriendlyName: the Go name
`<import path>.<Type>` is split on `/`, the first element's dot-separated parts are
reversed when it holds a dot (`k8s.io` -> `io.k8s`), and the elements are joined with
`.`; nothing else changes (`-` and `_` stay). `go` naming keeps `<import path>.<Type>`.
"""

from __future__ import annotations

from typing import Literal, get_args

Naming = Literal["openapi-gen", "go"]
NAMINGS: tuple[Naming, ...] = get_args(Naming)


def canonical_go_name(package: str, name: str) -> str:
    """`<import path>.<Type>` with any vendor prefix removed, as kube-openapi does."""
    marker = "/vendor/"
    if marker in package:
        package = package[package.index(marker) + len(marker) :]
    return f"{package}.{name}" if package else name


def rest_friendly(path: str) -> str:
    """Reverse the first `/` element's dot-separated parts, then join elements with `.`.

    Applied to the import path only (not to `path.Type`), so a package path without a
    slash (`example.com`) still reverses its domain without swallowing the type name,
    which kube-openapi's function would do for a bare `pkg.Type`.
    """
    parts = path.split("/")
    if parts and "." in parts[0]:
        parts[0] = ".".join(reversed(parts[0].split(".")))
    return ".".join(parts)


def definition_name(package: str, name: str, naming: Naming = "openapi-gen") -> str:
    go = canonical_go_name(package, name)
    if naming == "go":
        return go
    if naming != "openapi-gen":
        raise ValueError(f"unknown naming {naming!r} (expected one of {', '.join(NAMINGS)})")
    pkg = go[: -len(name) - 1] if go != name else ""
    return f"{rest_friendly(pkg)}.{name}" if pkg else name


def key_definition_name(type_key: str, naming: Naming = "openapi-gen") -> str:
    """Definition name for a model type key `<import path>.<Type>`."""
    package, _, name = type_key.rpartition(".")
    return definition_name(package, name, naming)


def escape_json_pointer(token: str) -> str:
    """RFC 6901 escaping of one reference token (`~` -> `~0`, `/` -> `~1`)."""
    return token.replace("~", "~0").replace("/", "~1")


def ref_v2(def_name: str) -> str:
    return "#/definitions/" + escape_json_pointer(def_name)


def ref_v3(def_name: str) -> str:
    return "#/components/schemas/" + escape_json_pointer(def_name)
