"""The comparable "API surface" of unions and enums.

One `TypeSurface` per definition: its identity (Go package path and type name, which
also give the OpenAPI definition name), the JSON properties of the type with their Go
names and source positions, its unions (with those of inlined embedded structs, as the
schema lists them) and the enum values of its non-discriminator properties. The three
sources (a Go model, an OpenAPI document, the runtime table) carry different amounts of
detail; `Surface.carries` says which optional facts a source knows, so the comparison
never reports a difference that is only a difference of sources.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from markergen import markers as names
from markergen.accept import compare as accept
from markergen.accept.space import ABSENT
from markergen.emit.naming import Naming, key_definition_name
from markergen.markers import Marker
from markergen.model import Field, Model, Struct, TypeRef, Union
from markergen.model.enums import field_enum, field_list, type_enum_of

# Optional facts a source may carry.
Fact = Literal["enums", "defaults", "dialect", "mode", "fields", "markers"]
ALL_FACTS: frozenset[Fact] = frozenset(
    {"enums", "defaults", "dialect", "mode", "fields", "markers"}
)

# kep2022, kep1027 and k8s unions share the current KEP's run-time behaviour; only the 2019
# design behaves differently for clients, so dialects are compared by family.
SemanticFamily = Literal["kep2019", "kep1027"]
Stage = Literal["alpha", "beta", "ga"]

_VERSION = re.compile(r"^v\d+(?:(alpha|beta)\d*)?$")


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


def version_stage(package: str) -> Stage:
    """The stage of an API version from the last element of its package path
    (`.../v1alpha2` alpha, `.../v2beta1` beta); anything else counts as GA, the
    conservative choice (a GA change is held to the strictest rules)."""
    last = re.split(r"[./]", package)[-1]
    m = _VERSION.match(last)
    if m is None or m.group(1) is None:
        return "ga"
    return "alpha" if m.group(1) == "alpha" else "beta"


# Markers that take part in unions and enums; `marker_gate` and `unmodelled_markers`
# are the two places that read markers, so a change of the marker syntax is made there.
_MODELLED = frozenset(
    {
        names.ENUM,
        names.UNION,
        names.UNION_DEPRECATED,
        names.UNION_DISCRIMINATED_BY,
        names.UNION_DISCRIMINATOR,
        names.UNION_MEMBER,
        names.K8S_ENUM,
        names.K8S_UNION_DISCRIMINATOR,
        names.K8S_UNION_MEMBER,
        names.K8S_ZERO_OR_ONE_OF_MEMBER,
        names.KUBEBUILDER_ENUM,
    }
)
_UNION_OR_ENUM = re.compile(r"union|enum|discriminator|member|mode|oneof", re.IGNORECASE)
_GATED_FACTS = _MODELLED | {"k8s:required", "k8s:optional", "k8s:default"}


def marker_gate(markers: Iterable[Marker]) -> str:
    """How a field (or type) is gated, "" when it is not: a `+featureGate=`, a
    `+k8s:ifEnabled(Gate)=` prefix, or a `+k8s:alpha`/`+k8s:beta` stage prefix on one of
    the union, enum or requiredness markers the diff compares."""
    for m in markers:
        if m.name == "featureGate" and m.value:
            return f"featureGate={m.value}"
        if m.gate and not m.gate_disabled:
            return f"k8s:ifEnabled({m.gate})"
    for m in markers:
        if m.stage and m.name in _GATED_FACTS:
            return f"k8s:{m.stage}"
    return ""


def unmodelled_markers(markers: Iterable[Marker]) -> tuple[tuple[str, Where], ...]:
    """Union- and enum-related markers the model does not read (`+k8s:modeDiscriminator`,
    `+k8s:ifMode`, a future tag), as (text, position): the diff lists their changes as
    "not compared" instead of dropping them."""
    out = []
    for m in markers:
        if m.name in _MODELLED or not _UNION_OR_ENUM.search(m.name):
            continue
        out.append((m.raw.strip(), Where(m.pos.file, m.pos.line)))
    return tuple(sorted(set(out), key=lambda t: t[0]))


def json_value(value: object) -> str:
    """An enum value as JSON text (`"Card"`, `true`, `3`): values are compared and shown
    with their JSON type, whatever Go type declared them."""
    return json.dumps(value, sort_keys=True)


def json_values(texts: Iterable[str]) -> tuple[Any, ...]:
    """Enum values (JSON texts) as the JSON values an object holds."""
    return tuple(json.loads(t) for t in texts)


def default_value(text: str | None) -> Any:
    """The string a discriminator's default sets (ABSENT: none)."""
    value = names.default_string(text)
    return ABSENT if value is None else value


@dataclass(frozen=True, slots=True)
class Where:
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class FieldSurface:
    json_name: str
    go_name: str  # "" when the source has no Go names (documents)
    pos: Where | None
    gate: str  # marker_gate of the field
    unmodelled: tuple[tuple[str, Where], ...] = ()


@dataclass(frozen=True, slots=True)
class MemberSurface:
    field: str  # JSON name
    value: str  # discriminator value selecting it (kep2019: the Go field name)
    optional: bool
    kind: str = ""  # the JSON type of its values ("object", "string", ...); "": not known


@dataclass(frozen=True, slots=True)
class DiscriminatorSurface:
    field: str  # JSON name
    required: bool
    values: tuple[str, ...]  # sorted enum values; () when the discriminator has no enum
    default: str | None


@dataclass(frozen=True, slots=True)
class UnionSurface:
    discriminator: DiscriminatorSurface | None
    members: tuple[MemberSurface, ...]  # sorted by field
    mode: str  # exactly-one / at-most-one (meaningful without a discriminator)
    dialect: str | None  # None when the source cannot tell
    pos: Where | None = None  # the marker that founded the union
    gate: str = ""  # stage or feature gate of that marker
    # Declared in a struct this one inlines: that struct's own definition reports its
    # changes, so the embedding types do not repeat them.
    inherited: bool = False

    @property
    def identity(self) -> str:
        """How a union is recognised across versions before any pairing by overlap."""
        if self.discriminator is not None:
            return "discriminator:" + self.discriminator.field
        return "members:" + ",".join(m.field for m in self.members)

    def member(self, json_name: str) -> MemberSurface | None:
        for m in self.members:
            if m.field == json_name:
                return m
        return None

    def engine(self, facts: frozenset[Fact]) -> accept.Union:
        """The union as the union engine judges it, with the facts the source knows."""
        d = self.discriminator
        disc = None
        if d is not None:
            default = default_value(d.default) if "defaults" in facts else ABSENT
            disc = accept.Discriminator(d.field, d.required, d.values or None, default)
        return accept.Union(
            disc,
            tuple(accept.Member(m.field, m.value, m.optional, m.kind) for m in self.members),
            self.mode if "mode" in facts else "at-most-one",
            family_of(self.dialect) or "kep1027",
        )

    def describe(self) -> str:
        if self.discriminator is not None:
            return f'union discriminated by "{self.discriminator.field}"'
        if not self.members:
            return "union with no members"
        return "union of " + ", ".join(f'"{m.field}"' for m in self.members)


@dataclass(frozen=True, slots=True)
class TypeSurface:
    name: str  # the OpenAPI definition name
    fields: frozenset[str]  # JSON property names
    unions: tuple[UnionSurface, ...]
    enums: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # property → JSON values
    package: str = ""  # Go import path; the definition's prefix for documents
    go_name: str = ""  # Go type name; the definition's last element for documents
    pos: Where | None = None
    details: Mapping[str, FieldSurface] = field(default_factory=dict)  # by JSON name
    gate: str = ""
    # property → the marker that declared its enum: "enum", "k8s:enum" or "kubebuilder"
    enum_sources: Mapping[str, str] = field(default_factory=dict)
    # properties that come from inlined structs (reported at the inlined struct)
    inherited: frozenset[str] = frozenset()
    # properties the schema requires (not optional as openapi-gen reads the Go); empty
    # when the source does not say
    required: frozenset[str] = frozenset()

    def discriminators(self) -> frozenset[str]:
        return frozenset(u.discriminator.field for u in self.unions if u.discriminator)

    @property
    def group(self) -> str:
        """The package as every source names it (the definition name's prefix), which
        is what identity compares: a Go tree and its generated document agree on it."""
        return self.name.rpartition(".")[0]

    @property
    def stage(self) -> Stage:
        return version_stage(self.package)


@dataclass(frozen=True)
class Surface:
    types: Mapping[str, TypeSurface]
    carries: frozenset[Fact]
    origin: str  # what was read, for messages


# Identity: which definition, and which union of it, is the same in both versions.


def pair_renamed(base: Surface, head: Surface) -> dict[str, str]:
    """Definitions that disappeared and reappeared in the same Go package under another
    name with the same properties (a Go type renamed). Only unambiguous candidates pair;
    a definition that left its package is a removal, whatever its namesakes elsewhere."""
    removed = sorted(set(base.types) - set(head.types))
    added = sorted(set(head.types) - set(base.types))
    pairs: dict[str, str] = {}
    taken: set[str] = set()
    for r in removed:
        b = base.types[r]
        if not b.fields:
            continue
        candidates = [
            a
            for a in added
            if a not in taken
            and head.types[a].fields == b.fields
            and head.types[a].group == b.group
        ]
        if len(candidates) == 1:
            pairs[r] = candidates[0]
            taken.add(candidates[0])
    return pairs


def namesake(b: TypeSurface, head: Surface) -> str:
    """Where a removed type lives on, for the reader: a type of the same name and the
    same properties in another package (never used to hide the removal)."""
    for t in head.types.values():
        if t.go_name == b.go_name and t.fields == b.fields and t.group != b.group:
            return t.package
    return ""


def _union_score(b: UnionSurface, h: UnionSurface) -> int:
    shared = len({m.field for m in b.members} & {m.field for m in h.members})
    if b.discriminator is not None and h.discriminator is not None:
        shared += len(set(b.discriminator.values) & set(h.discriminator.values))
    return shared


def pair_unions(
    base: TypeSurface, head: TypeSurface
) -> tuple[list[tuple[UnionSurface, UnionSurface]], list[UnionSurface], list[UnionSurface]]:
    """Unions pair by identity (discriminator JSON name, else member set); the rest pair
    by the members and discriminator values they share, which recognises a renamed
    discriminator (also of a union whose members are not marked), a discriminator added
    to or removed from a union, and members added to undiscriminated unions. A last
    discriminated union whose discriminator field is gone pairs with a last one whose
    discriminator field is new: that is a rename too."""
    pairs: list[tuple[UnionSurface, UnionSurface]] = []
    left = list(base.unions)
    right = list(head.unions)
    for b in list(left):
        match = next((h for h in right if h.identity == b.identity), None)
        if match is not None:
            pairs.append((b, match))
            left.remove(b)
            right.remove(match)
    scored = sorted(
        (-_union_score(b, h), i, j) for i, b in enumerate(left) for j, h in enumerate(right)
    )
    used_l: set[int] = set()
    used_r: set[int] = set()
    for score, i, j in scored:
        if score == 0 or i in used_l or j in used_r:
            continue
        pairs.append((left[i], right[j]))
        used_l.add(i)
        used_r.add(j)
    rest_l = [u for i, u in enumerate(left) if i not in used_l]
    rest_r = [u for j, u in enumerate(right) if j not in used_r]
    if len(rest_l) == 1 and len(rest_r) == 1:
        bd, hd = rest_l[0].discriminator, rest_r[0].discriminator
        if (
            bd is not None
            and hd is not None
            and bd.field not in head.fields
            and hd.field not in base.fields
        ):
            pairs.append((rest_l[0], rest_r[0]))
            rest_l, rest_r = [], []
    return pairs, rest_l, rest_r


def make_union(
    discriminator: DiscriminatorSurface | None,
    members: list[MemberSurface],
    mode: str,
    dialect: str | None,
    pos: Where | None = None,
    gate: str = "",
) -> UnionSurface:
    return UnionSurface(
        discriminator=discriminator,
        members=tuple(sorted(members, key=lambda m: (m.field, m.value))),
        mode=mode,
        dialect=dialect,
        pos=pos,
        gate=gate,
    )


def _where(pos: object, prefix: str) -> Where:
    file = getattr(pos, "file", "")
    return Where(f"{prefix}{file}" if prefix else file, int(getattr(pos, "line", 0)))


def _union(u: Union, prefix: str, kinds: Mapping[str, str]) -> UnionSurface:
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
    members = [
        MemberSurface(m.json_name, m.value, m.optional, kinds.get(m.json_name, ""))
        for m in u.members
    ]
    gate = u.gate and f"k8s:ifEnabled({u.gate})"
    if not gate and u.stage:
        gate = f"k8s:{u.stage}"
    return make_union(disc, members, u.mode, u.dialect, _where(u.pos, prefix), gate)


def _inlined_struct(model: Model, f: Field) -> Struct | None:
    if not f.inline:
        return None
    target = f.type.deref()
    if target.kind == "named":
        return model.structs.get(target.type_key)
    return None


_INTS = frozenset(
    {"int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64"}
)


# A builtin of each enum JSON type, for `_typed`.
_BUILTIN_OF = {"string": "string", "boolean": "bool", "integer": "int64", "number": "float64"}


def _builtin_of(model: Model, ref: TypeRef | None) -> str:
    """The Go builtin behind pointers, containers and named types ("" when none)."""
    seen: set[str] = set()
    while ref is not None:
        if ref.kind == "builtin":
            return ref.name
        if ref.kind in ("pointer", "slice", "array", "map"):
            ref = ref.elem
        elif ref.kind == "named" and ref.type_key not in seen:
            seen.add(ref.type_key)
            named = model.types.get(ref.type_key)
            ref = named.underlying if named is not None else None
        else:
            return ""
    return ""


def json_kind(model: Model, ref: TypeRef | None) -> str:
    """The JSON type of a field's values ("" when not known): what a set member holds in
    the union engine's objects, so that a witness is of the member's type."""
    seen: set[str] = set()
    while ref is not None:
        if ref.kind == "pointer":
            ref = ref.elem
        elif ref.kind in ("slice", "array", "map"):
            return "array" if ref.kind != "map" else "object"
        elif ref.kind == "builtin":
            return _JSON_OF_BUILTIN.get(ref.name, "integer" if ref.name in _INTS else "")
        elif ref.kind == "named" and ref.type_key not in seen:
            seen.add(ref.type_key)
            if ref.type_key in model.structs:
                return "object"
            named = model.types.get(ref.type_key)
            ref = named.underlying if named is not None else None
        else:
            return ""
    return ""


_JSON_OF_BUILTIN = {"string": "string", "bool": "boolean", "float32": "number", "float64": "number"}


def _typed(value: object, builtin: str) -> object:
    """A value written as text (`+kubebuilder:validation:Enum=301;302`) with the JSON type
    of the Go type it constrains, so `301` on an int field is the number 301."""
    if not isinstance(value, str):
        return value
    if builtin == "bool" and value in ("true", "false"):
        return value == "true"
    if builtin in _INTS and re.fullmatch(r"[+-]?\d+", value):
        return int(value)
    if builtin in ("float32", "float64") and re.fullmatch(r"[+-]?\d+(\.\d+)?", value):
        return float(value)
    return value


def enum_values(model: Model, f: Field) -> tuple[tuple[str, ...], str] | None:
    """The enum of a property (as JSON texts) and the marker that declared it, looked up
    as OpenAPI attaches it: through pointers, aliases, array items and map values. A
    field's own list and its type's enum are both enforced: their intersection, as the
    API server sees it (markergen.model.enums.field_enum)."""
    builtin = _builtin_of(model, f.type)
    own = field_list(f)
    if own is not None:
        enforced = field_enum(f, type_enum_of(f.type, model.types, model.enums))
        values = {json_value(_typed(v, builtin)) for v in (enforced.values if enforced else ())}
        return tuple(sorted(values)), "kubebuilder"
    ref: TypeRef | None = f.type
    seen: set[str] = set()
    in_container = False
    while ref is not None:
        if ref.kind == "pointer":
            ref = ref.elem
        elif ref.kind in ("slice", "array", "map") and not in_container:
            in_container = True
            ref = ref.elem
        elif ref.kind in ("named", "external") and ref.type_key not in seen:
            key = ref.type_key
            seen.add(key)
            if key in model.enums:
                # The enum's own JSON type (an imported enum's builtin is not in the
                # model's types), so a number is compared as a number.
                enum = model.enums[key]
                values = {
                    json_value(_typed(v.value, _BUILTIN_OF.get(enum.type, builtin)))
                    for v in enum.values
                }
                return tuple(sorted(values)), enum.source
            named = model.types.get(key) if ref.kind == "named" else None
            ref = named.underlying if named is not None else None
        else:
            return None
    return None


@dataclass
class _Collected:
    """What one struct contributes, with its inlined structs (mutable while collecting)."""

    fields: set[str] = field(default_factory=set)
    unions: list[UnionSurface] = field(default_factory=list)
    enums: dict[str, tuple[str, ...]] = field(default_factory=dict)
    details: dict[str, FieldSurface] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    inherited: set[str] = field(default_factory=set)
    required: set[str] = field(default_factory=set)


def _collect(
    model: Model,
    struct: Struct,
    seen: frozenset[str],
    out: _Collected,
    prefix: str,
    inherited: bool = False,
) -> None:
    seen = seen | {struct.key}
    kinds = {f.json_name: json_kind(model, f.type) for f in struct.fields if f.json_name}
    out.unions.extend(replace(_union(u, prefix, kinds), inherited=inherited) for u in struct.unions)
    for f in struct.fields:
        if not f.exported or f.json.skip:
            continue
        inner = _inlined_struct(model, f)
        if inner is not None:
            if inner.key not in seen:
                _collect(model, inner, seen, out, prefix, True)
            continue
        if not f.json_name:
            continue
        out.fields.add(f.json_name)
        if not f.optional:
            out.required.add(f.json_name)
        if inherited:
            out.inherited.add(f.json_name)
        out.details.setdefault(
            f.json_name,
            FieldSurface(
                f.json_name,
                f.go_name,
                _where(f.pos, prefix),
                marker_gate(f.markers),
                unmodelled_markers(f.markers),
            ),
        )
        found = enum_values(model, f)
        if found is not None:
            out.enums.setdefault(f.json_name, found[0])
            out.sources.setdefault(f.json_name, found[1])


def surface_from_model(
    model: Model, naming: Naming = "openapi-gen", origin: str = "", prefix: str = ""
) -> Surface:
    """`prefix` is put before every file name, so positions read from where the user
    runs the command."""
    types: dict[str, TypeSurface] = {}
    declared: list[tuple[str, Struct, object, tuple[Marker, ...]]] = [
        (key, s, s.pos, s.markers) for key, s in model.structs.items()
    ]
    for key, named in model.types.items():
        # `type GRPCRoute v1.GRPCRoute` (or an alias): the version keeps a definition
        # with the other type's properties, so it is neither removed nor empty.
        target = named.underlying
        if target.kind == "named" and target.type_key in model.structs:
            declared.append((key, model.structs[target.type_key], named.pos, named.markers))
    for key, struct, pos, markers in sorted(declared, key=lambda d: d[0]):
        got = _Collected()
        _collect(model, struct, frozenset(), got, prefix)
        name = type_name(key, naming)
        types[name] = TypeSurface(
            name,
            frozenset(got.fields),
            tuple(got.unions),
            got.enums,
            package=key.rpartition(".")[0],
            go_name=key.rpartition(".")[2],
            pos=_where(pos, prefix),
            details=got.details,
            gate=marker_gate(markers),
            enum_sources=got.sources,
            inherited=frozenset(got.inherited),
            required=frozenset(got.required),
        )
    return Surface(types=types, carries=ALL_FACTS, origin=origin)
