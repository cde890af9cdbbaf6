"""What every dialect module shares when it forms unions from a struct's fields:
the struct being read, the marker look-ups, the discriminator record."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from markergen.diagnostics import Diagnostic, diag
from markergen.golang.syntax import Position
from markergen.markers import (
    K8S_IF_MODE,
    K8S_MODE_DISCRIMINATOR,
    K8S_OLD_DISCRIMINATOR,
    K8S_OLD_MEMBER,
    K8S_UNION_DISCRIMINATOR,
    K8S_UNION_MEMBER,
    K8S_ZERO_OR_ONE_OF_MEMBER,
    UNION_DEPRECATED,
    UNION_DISCRIMINATED_BY,
    UNION_DISCRIMINATOR,
    UNION_MEMBER,
    Marker,
)
from markergen.model import (
    Discriminator,
    Enum,
    Field,
    NamedType,
    TypeKey,
    TypeRef,
    json_scalar,
    scalar_json_type,
)
from markergen.model.enums import field_enum, underlying_builtin
from markergen.model.lookup import FieldLookup, JSONFields

FAMILY_MARKERS = {
    "kep2019": (UNION_DEPRECATED,),
    "plain": (UNION_MEMBER, UNION_DISCRIMINATED_BY),
    "k8s": (
        K8S_UNION_DISCRIMINATOR,
        K8S_UNION_MEMBER,
        K8S_ZERO_OR_ONE_OF_MEMBER,
        # mode unions (markergen/model/dialects/k8s_modes.py) are k8s too
        K8S_MODE_DISCRIMINATOR,
        K8S_IF_MODE,
        K8S_OLD_DISCRIMINATOR,
        K8S_OLD_MEMBER,
    ),
}


_ANY_FAMILY_MARKER = frozenset(m for ms in FAMILY_MARKERS.values() for m in ms)


FAMILY_NAMES = {
    "kep2019": "+unionDeprecated",
    "plain": "+unionMember",
    "k8s": "+k8s: union markers",
}


@dataclass(frozen=True)
class StructInput:
    key: TypeKey
    name: str
    markers: tuple[Marker, ...]
    fields: tuple[Field, ...]
    pos: Position


@dataclass
class Ctx:
    struct: StructInput
    enums: Mapping[TypeKey, Enum]
    types: Mapping[TypeKey, NamedType]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # the JSON fields of every struct of the inputs (promotion through embedded structs);
    # without it, the struct's own fields only
    lookup: FieldLookup | None = None

    def subject(self, f: Field) -> str:
        return f"{self.struct.name}.{f.go_name}"

    def json_fields(self) -> JSONFields:
        """The struct's JSON fields, as encoding/json finds them."""
        lookup = self.lookup
        if lookup is None:
            lookup = FieldLookup({self.struct.key: self.struct.fields}, self.types)
        return lookup.of(self.struct.key)


def families(f: Field) -> list[str]:
    # Most fields carry no union marker at all: a test per marker answers them.
    for m in f.markers:
        if m.name in _ANY_FAMILY_MARKER:
            break
    else:
        return []
    names = {m.name for m in f.markers}
    return [fam for fam, ms in FAMILY_MARKERS.items() if names.intersection(ms)]


def marker_of(f: Field, *names: str) -> Marker | None:
    for m in f.markers:
        if m.name in names:
            return m
    return None


def pos_of(f: Field, *names: str) -> Position:
    """Where a diagnostic about `f`'s union markers points: the first of those markers,
    else the field."""
    marker = marker_of(f, *names)
    return marker.pos if marker is not None else f.pos


def enum_of(ref: TypeRef, ctx: Ctx) -> tuple[TypeKey | None, tuple[str, ...]]:
    """The enum behind a discriminator's type (through pointers and aliases)."""
    ref = ref.deref()
    seen: set[TypeKey] = set()
    while ref.kind in ("named", "external") and ref.type_key not in seen:
        key = ref.type_key
        seen.add(key)
        if key in ctx.enums:
            return key, ctx.enums[key].value_set
        named = ctx.types.get(key)
        if named is None or not named.alias:
            break
        ref = named.underlying.deref()
    return None, ()


def _value_type(f: Field, enum_key: TypeKey | None, ctx: Ctx) -> str:
    """The JSON type of a discriminator's values (an enum's, else its Go type's)."""
    if enum_key is not None and enum_key in ctx.enums:
        return ctx.enums[enum_key].type
    return scalar_json_type(underlying_builtin(f.type.deref(), ctx.types)) or "string"


# Compiled on first use (re keeps it): few projects write `+default=ref(...)`.
_REF = r"^\s*ref\(\s*(?:[\w./-]+\.)?(\w+)\s*\)\s*$"


def _default(text: str | None, enum: Enum | None) -> str | None:
    """openapi-gen's `+default=ref(Const)` names a constant: the default is its value,
    written as JSON like any other `+default=` (a constant the model does not know is
    kept as written)."""
    if text is None or enum is None:
        return text
    match = re.match(_REF, text)
    if match is None:
        return text
    for v in enum.constants or enum.values:
        if v.name == match.group(1):
            return json.dumps(json_scalar(v.value, enum.type))
    return text


def discriminator_of(f: Field, ctx: Ctx) -> Discriminator:
    enum_key, values = enum_of(f.type, ctx)
    # The server's enum (markergen.model.enums.field_enum): the field's own list and its
    # type's enum are both enforced.
    enforced = field_enum(f, ctx.enums.get(enum_key) if enum_key is not None else None)
    if enforced is not None and enforced.field_list is not None:
        values = enforced.values
    base = f.type.deref()
    if enum_key is None and not values and base.kind == "external":
        ctx.diagnostics.append(
            diag(
                "MG104",
                pos_of(f, UNION_DISCRIMINATOR, K8S_UNION_DISCRIMINATOR),
                f"discriminator {ctx.subject(f)} has type {base.name} from package "
                f"{base.package}, which is not among the inputs, so its enum values are unknown",
                hint=f"add the package {base.package} to the patterns markergen reads",
            )
        )
    return Discriminator(
        go_name=f.go_name,
        json_name=f.json_name,
        type=f.type,
        enum=enum_key,
        values=values,
        required=not f.optional,
        omitempty=f.json.omitempty,
        default=_default(f.default, ctx.enums.get(enum_key) if enum_key else None),
        pos=f.pos,
        value_type=_value_type(f, enum_key, ctx),
    )


def plain_discriminators(ctx: Ctx) -> list[Field]:
    found: list[Field] = []
    for f in ctx.struct.fields:  # every field of a tree: no call per field
        for m in f.markers:
            if m.name == UNION_DISCRIMINATOR:
                found.append(f)
                break
    return found


def known_discriminators(discs: Sequence[Field]) -> str:
    if not discs:
        return " (it has none)"
    return " (its discriminators: " + ", ".join(d.go_name for d in discs) + ")"


def named_underlying(ref: TypeRef, types: Mapping[TypeKey, NamedType]) -> TypeRef:
    """Look through named non-struct types (`type Items []Item`, `type Mode string`)."""
    seen: set[TypeKey] = set()
    while ref.kind == "named" and ref.type_key in types and ref.type_key not in seen:
        seen.add(ref.type_key)
        ref = types[ref.type_key].underlying
    return ref


def zero_kind(ref: TypeRef, types: Mapping[TypeKey, NamedType]) -> str:
    """How validation-gen tells a member of this Go type set (its member extractor):
    "nil" for a pointer (or interface), "len" for a list or map, "zero" for a builtin
    compared with its zero value, "struct" for a struct value (which it refuses), ""
    for a type from outside the inputs."""
    ref = named_underlying(ref, types)
    if ref.kind in ("pointer", "interface"):
        return "nil"
    if ref.kind in ("slice", "array", "map"):
        return "len"
    if ref.kind == "builtin":
        return "zero"
    if ref.kind in ("named", "struct"):
        return "struct"
    return ""
