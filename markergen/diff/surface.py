"""The comparable "API surface" of unions and enums (DESIGN section 8).

One `TypeSurface` per definition name: the JSON properties of the type, its unions (with
those of inlined embedded structs, as the schema lists them) and the enum values of its
non-discriminator properties. The three sources (a Go model, an OpenAPI document, the
runtime table) carry different amounts of detail; `Surface.carries` says which optional
facts a source knows, so the comparison never reports a difference that is only a
difference of sources.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from markergen.emit.naming import Naming, key_definition_name
from markergen.model import Field, Model, Struct, TypeRef, Union

# Optional facts a source may carry.
Fact = Literal["enums", "defaults", "dialect", "mode", "fields"]
ALL_FACTS: frozenset[Fact] = frozenset({"enums", "defaults", "dialect", "mode", "fields"})

# kep2022, kep1027 and k8s unions share kep/004's run-time behaviour; only the 2019
# design behaves differently for clients, so dialects are compared by family.
SemanticFamily = Literal["kep2019", "kep1027"]


def family_of(dialect: str | None) -> SemanticFamily | None:
    if dialect is None:
        return None
    return "kep2019" if dialect == "kep2019" else "kep1027"


def type_name(type_key: str, naming: Naming = "openapi-gen") -> str:
    """The one place that turns a model type key into the name changes are reported under.

    It is the definition name of the generated documents, so a Go model and a generated
    document of the same API give the same names.
    """
    return key_definition_name(type_key, naming)


@dataclass(frozen=True)
class MemberSurface:
    field: str  # JSON name
    value: str  # discriminator value selecting it (kep2019: the Go field name)
    optional: bool


@dataclass(frozen=True)
class DiscriminatorSurface:
    field: str  # JSON name
    required: bool
    values: tuple[str, ...]  # sorted enum values; () when the discriminator has no enum
    default: str | None


@dataclass(frozen=True)
class UnionSurface:
    discriminator: DiscriminatorSurface | None
    members: tuple[MemberSurface, ...]  # sorted by field
    mode: str  # exactly-one / at-most-one (meaningful without a discriminator)
    dialect: str | None  # None when the source cannot tell

    @property
    def identity(self) -> str:
        """How a union is recognised across versions before any pairing by overlap."""
        if self.discriminator is not None:
            return "discriminator:" + self.discriminator.field
        return "members:" + ",".join(m.field for m in self.members)

    @property
    def empty_values(self) -> tuple[str, ...]:
        if self.discriminator is None:
            return ()
        used = {m.value for m in self.members}
        return tuple(v for v in self.discriminator.values if v not in used)

    def member(self, json_name: str) -> MemberSurface | None:
        for m in self.members:
            if m.field == json_name:
                return m
        return None

    def describe(self) -> str:
        if self.discriminator is not None:
            return f'union discriminated by "{self.discriminator.field}"'
        return "union of " + ", ".join(f'"{m.field}"' for m in self.members)


@dataclass(frozen=True)
class TypeSurface:
    name: str
    fields: frozenset[str]  # JSON property names
    unions: tuple[UnionSurface, ...]
    enums: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # property → values

    def discriminators(self) -> frozenset[str]:
        return frozenset(u.discriminator.field for u in self.unions if u.discriminator)


@dataclass(frozen=True)
class Surface:
    types: Mapping[str, TypeSurface]
    carries: frozenset[Fact]
    origin: str  # what was read, for messages


def make_union(
    discriminator: DiscriminatorSurface | None,
    members: list[MemberSurface],
    mode: str,
    dialect: str | None,
) -> UnionSurface:
    return UnionSurface(
        discriminator=discriminator,
        members=tuple(sorted(members, key=lambda m: (m.field, m.value))),
        mode=mode,
        dialect=dialect,
    )


def _union(u: Union) -> UnionSurface:
    d = u.discriminator
    disc = (
        DiscriminatorSurface(
            field=d.json_name,
            required=d.required,
            values=tuple(sorted(set(d.values))),
            default=d.default,
        )
        if d is not None
        else None
    )
    members = [MemberSurface(m.json_name, m.value, m.optional) for m in u.members]
    return make_union(disc, members, u.mode, u.dialect)


def _inlined_struct(model: Model, f: Field) -> Struct | None:
    if not f.inline:
        return None
    target = f.type.deref()
    if target.kind == "named":
        return model.structs.get(target.type_key)
    return None


def _enum_values(model: Model, f: Field) -> tuple[str, ...] | None:
    """The enum of a property, looked up as OpenAPI attaches it: through pointers,
    aliases, array items and map values."""
    if f.enum_values:
        return tuple(sorted(set(f.enum_values)))
    ref: TypeRef | None = f.type
    seen: set[str] = set()
    in_container = False
    while ref is not None:
        if ref.kind == "pointer":
            ref = ref.elem
        elif ref.kind in ("slice", "array", "map") and not in_container:
            in_container = True
            ref = ref.elem
        elif ref.kind == "named" and ref.type_key not in seen:
            key = ref.type_key
            seen.add(key)
            if key in model.enums:
                return model.enums[key].value_set
            named = model.types.get(key)
            ref = named.underlying if named is not None else None
        else:
            return None
    return None


def _collect(
    model: Model,
    struct: Struct,
    seen: frozenset[str],
    fields: set[str],
    unions: list[UnionSurface],
    enums: dict[str, tuple[str, ...]],
) -> None:
    seen = seen | {struct.key}
    unions.extend(_union(u) for u in struct.unions)
    for f in struct.fields:
        if not f.exported or f.json.skip:
            continue
        inner = _inlined_struct(model, f)
        if inner is not None:
            if inner.key not in seen:
                _collect(model, inner, seen, fields, unions, enums)
            continue
        if not f.json_name:
            continue
        fields.add(f.json_name)
        values = _enum_values(model, f)
        if values is not None:
            enums.setdefault(f.json_name, values)


def surface_from_model(model: Model, naming: Naming = "openapi-gen", origin: str = "") -> Surface:
    types: dict[str, TypeSurface] = {}
    for key in sorted(model.structs):
        struct = model.structs[key]
        fields: set[str] = set()
        unions: list[UnionSurface] = []
        enums: dict[str, tuple[str, ...]] = {}
        _collect(model, struct, frozenset(), fields, unions, enums)
        name = type_name(key, naming)
        types[name] = TypeSurface(name, frozenset(fields), tuple(unions), enums)
    return Surface(types=types, carries=ALL_FACTS, origin=origin)
