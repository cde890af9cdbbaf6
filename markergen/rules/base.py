"""What every rule module shares: the `Rule` record and small model look-ups.

Rules read the model only; these helpers keep the look-ups (which
struct a union belongs to, whether a type is a struct) in one place so that every
rule answers them the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass

from markergen import hints
from markergen.diagnostics import CATALOG, Diagnostic
from markergen.golang.syntax import Position
from markergen.markers import (
    K8S_UNION_DISCRIMINATOR,
    K8S_UNION_MEMBER,
    K8S_ZERO_OR_ONE_OF_MEMBER,
    UNION_DEPRECATED,
    UNION_DISCRIMINATOR,
    UNION_MEMBER,
)
from markergen.model import Field, Member, Model, Struct, TypeRef, Union
from markergen.model.dialects.base import named_underlying

Check = Callable[[Model], Iterable[Diagnostic]]

# Markers that make a field take part in a union, in any dialect.
MEMBER_MARKERS = frozenset(
    {UNION_MEMBER, UNION_DEPRECATED, K8S_UNION_MEMBER, K8S_ZERO_OR_ONE_OF_MEMBER}
)
DISCRIMINATOR_MARKERS = frozenset({UNION_DISCRIMINATOR, K8S_UNION_DISCRIMINATOR})
UNION_FIELD_MARKERS = MEMBER_MARKERS | DISCRIMINATOR_MARKERS


@dataclass(frozen=True, slots=True)
class Rule:
    """A checker rule: the catalog code it reports, and the check that finds it. What
    the code means (severity, title, docs) is the catalog's, never repeated here."""

    code: str
    check: Check

    def __post_init__(self) -> None:
        if self.code not in CATALOG:
            raise ValueError(f"rule {self.code} is not in markergen.diagnostics.CATALOG")


def unions(model: Model) -> Iterator[tuple[Struct, Union]]:
    """Every union the model enforces, with its struct, in a stable order."""
    for key in sorted(model.structs):
        struct = model.structs[key]
        for union in struct.unions:
            # A documentation `+union` (MG360) is enforced by nothing: the rules about a
            # union's members and discriminator do not apply to it.
            if not union.documentation:
                yield struct, union


def union_label(struct: Struct, union: Union) -> str:
    """How messages name a union: `Struct.<discriminator json>`, else its name."""
    if union.discriminator is not None:
        return f"{struct.name}.{union.discriminator.json_name or union.discriminator.go_name}"
    if union.name:
        return f"{struct.name} union {union.name!r}"
    return f"{struct.name} ({union.origin} union)"


def value_pos(union: Union, member: Member, field: Field | None) -> Position:
    """Where a problem with a member's value is reported: the marker that gives the
    value (`+unionMember=X`, `+k8s:unionMember(memberName: "X")`), else the field."""
    name = union.traits.member_name_marker
    marker = field.marker(name) if field is not None and name else None
    return marker.pos if marker is not None else member.pos


def is_struct(model: Model, ref: TypeRef) -> bool:
    target = named_underlying(ref, model.types)
    return target.kind == "struct" or (target.kind == "named" and target.type_key in model.structs)


def marker_removals(field: Field | None, names: Collection[str]) -> list[str]:
    """The hint edits that remove each marker of `field` named in `names`."""
    if field is None:
        return []
    return [
        hints.remove(hints.marker_line(m.raw), field.go_name)
        for m in field.markers
        if m.name in names
    ]


def quoted(values: Iterable[str]) -> str:
    """`"A", "B"` — values as a user would write them in Go."""
    items = [json.dumps(v, ensure_ascii=False) for v in values]
    return ", ".join(items) if items else "no values"


# Go 1.24's encoding/json is the first to leave out a field tagged `omitzero`; a module
# whose go.mod allows an older Go may be built by one that writes the zero value anyway.
OMITZERO_SINCE = (1, 24)


def honours_omitzero(model: Model, struct: Struct) -> bool:
    """Whether every Go the struct's module allows (its go.mod `go` directive) leaves an
    `omitzero` field's zero value out of the JSON. A module without a `go` line is read
    as go 1.16, as the go command reads it."""
    version = go_version(model, struct)
    found = re.match(r"(\d+)\.(\d+)", version)
    return found is not None and (int(found.group(1)), int(found.group(2))) >= OMITZERO_SINCE


def go_version(model: Model, struct: Struct) -> str:
    """The `go` directive of the struct's module ("1.22"), "" when there is none."""
    for pkg in model.packages:
        if pkg.import_path == struct.package:
            return pkg.go_version
    return ""
