"""Hand-built models for the emit tests (no tests here).

They mirror the KEP examples closely enough to check the renderers before (and
independently of) the Go front end: each builder says which KEP example it copies.
"""

from __future__ import annotations

from collections.abc import Iterable

from markergen.golang.syntax import JSONTag, Position
from markergen.model import (
    Discriminator,
    Enum,
    EnumValue,
    Field,
    Member,
    Model,
    NamedType,
    Package,
    Struct,
    TypeRef,
    Union,
)

POS = Position("types.go", 1, 1)
PKG = "example.com/kep/kep000"
META = "k8s.io/apimachinery/pkg/apis/meta/v1"


def builtin(name: str) -> TypeRef:
    return TypeRef("builtin", name=name, text=name)


def named(name: str, pkg: str = PKG) -> TypeRef:
    return TypeRef("named", name=name, package=pkg, text=name)


def external(pkg: str, name: str) -> TypeRef:
    return TypeRef("external", name=name, package=pkg, text=f"x.{name}")


def ptr(elem: TypeRef) -> TypeRef:
    return TypeRef("pointer", elem=elem, text="*" + elem.text)


def slice_(elem: TypeRef) -> TypeRef:
    return TypeRef("slice", elem=elem, text="[]" + elem.text)


def map_(elem: TypeRef) -> TypeRef:
    return TypeRef("map", elem=elem, key=builtin("string"), text="map[string]" + elem.text)


def fld(
    go_name: str,
    type_: TypeRef,
    json_name: str | None = None,
    *,
    optional: bool = False,
    omitempty: bool = False,
    inline: bool = False,
    description: str = "",
    patch_strategy: str = "",
    patch_merge_key: str = "",
    list_type: str = "",
    list_map_keys: tuple[str, ...] = (),
    default: str | None = None,
    enum_values: tuple[str, ...] = (),
    required_marker: bool = False,
    json_string: bool = False,
    exported: bool = True,
    skip: bool = False,
) -> Field:
    name = "" if inline else (go_name if json_name is None else json_name)
    options = tuple(o for o, on in (("omitempty", omitempty), ("inline", inline),
                                     ("string", json_string)) if on)
    tag = JSONTag(present=True, name=name, omitempty=omitempty, inline=inline, skip=skip,
                  string=json_string, options=options)
    return Field(
        go_name=go_name, json_name=name, type=type_, embedded=inline, inline=inline,
        json=tag, exported=exported, optional=optional or omitempty,
        required_marker=required_marker, markers=(), description=description,
        patch_strategy=patch_strategy, patch_merge_key=patch_merge_key, list_type=list_type,
        list_map_keys=list_map_keys, default=default, enum_values=enum_values, pos=POS,
    )


def disc(go_name: str, json_name: str, *, values: tuple[str, ...] = (), required: bool = False,
         enum: str | None = None, type_: TypeRef | None = None) -> Discriminator:
    return Discriminator(go_name, json_name, type_ or builtin("string"), enum,
                         tuple(sorted(set(values))), required, not required, None, POS)


def member(go_name: str, json_name: str, value: str | None = None,
           optional: bool = False) -> Member:
    return Member(go_name, json_name, go_name if value is None else value, optional, POS)


def union(struct_key: str, *, dialect: str = "kep2019", origin: str = "struct",
          discriminator: Discriminator | None = None, members: Iterable[Member] = (),
          empty: tuple[str, ...] = (), mode: str = "at-most-one",
          semantics: str | None = None) -> Union:
    sem = semantics or ("kep2019" if dialect == "kep2019" else "kep1027")
    return Union(struct_key, dialect, origin, discriminator.go_name if discriminator else "",  # type: ignore[arg-type]
                 discriminator, tuple(members), empty, mode, sem, POS)  # type: ignore[arg-type]


def struct(name: str, fields: Iterable[Field], unions: Iterable[Union] = (),
           description: str = "", pkg: str = PKG) -> Struct:
    return Struct(f"{pkg}.{name}", name, pkg, tuple(fields), tuple(unions), (), description, POS)


def enum(name: str, values: Iterable[tuple[str, str, str]], pkg: str = PKG) -> Enum:
    return Enum(f"{pkg}.{name}", name, pkg,
                tuple(EnumValue(n, v, d, POS) for n, v, d in values), "enum", POS)


def named_type(name: str, underlying: TypeRef, pkg: str = PKG) -> NamedType:
    return NamedType(f"{pkg}.{name}", name, pkg, underlying, False, (), "", POS)


def model(structs: Iterable[Struct], enums: Iterable[Enum] = (),
          types: Iterable[NamedType] = ()) -> Model:
    pkgs = sorted({s.package for s in structs} | {PKG})
    return Model(
        packages=tuple(Package(p, p.rsplit("/", 1)[-1], p, None, (), ()) for p in pkgs),
        structs={s.key: s for s in structs},
        types={t.key: t for t in types},
        enums={e.key: e for e in enums},
    )


def key(name: str, pkg: str = PKG) -> str:
    return f"{pkg}.{name}"


def kep000_model() -> Model:
    """The 2019 KEP "Go tags": TopLevelUnion, Union, Union2, InlinedUnion, as in the KEP."""
    union_s = struct("Union", [
        fld("UnionType", builtin("string"), "unionType", optional=True),
        fld("FieldA", builtin("int"), "fieldA", optional=True),
        fld("FieldB", builtin("int"), "fieldB", optional=True),
    ], [union(key("Union"), origin="struct", discriminator=disc("UnionType", "unionType"),
              members=[member("FieldA", "fieldA"), member("FieldB", "fieldB")])])
    union2 = struct("Union2", [
        fld("Type", builtin("string"), "type"),
        fld("Alpha", builtin("int"), "alpha", optional=True),
        fld("Beta", builtin("int"), "beta", optional=True),
    ], [union(key("Union2"), origin="deprecated", discriminator=disc("Type", "type"),
              members=[member("Alpha", "alpha"), member("Beta", "beta")])])
    top = struct("TopLevelUnion", [
        fld("Name", builtin("string"), "name"),
        fld("Union", named("Union"), inline=True),
    ])
    inlined = struct("InlinedUnion", [
        fld("Name", builtin("string"), "name"),
        fld("Field1", ptr(builtin("int")), "field1", omitempty=True, optional=True),
        fld("Field2", ptr(builtin("int")), "field2", omitempty=True, optional=True),
        fld("Union", named("Union"), inline=True),
        fld("Union2", named("Union2"), inline=True),
    ], [union(key("InlinedUnion"), origin="deprecated",
              members=[member("Field1", "field1"), member("Field2", "field2")])])
    return model([top, union_s, union2, inlined])


KEP004 = "example.com/kep/kep004"


def kep004_model() -> Model:
    """The current KEP "Examples"/"OpenAPI": Union with an enum discriminator, empty members
    FieldC, FieldD and "" (FieldNone), FieldB `+unionMember,optional`."""
    values = [("FieldA", "FieldA", "FieldA selects fieldA."),
              ("FieldB", "FieldB", "FieldB selects fieldB."),
              ("FieldC", "FieldC", ""), ("FieldD", "FieldD", ""),
              ("FieldNone", "", "FieldNone means no member.")]
    ut = enum("UnionType", values, KEP004)
    d = disc("UnionType", "unionType", values=tuple(v for _, v, _ in values), required=True,
             enum=ut.key, type_=named("UnionType", KEP004))
    u = struct("Union", [
        fld("UnionType", named("UnionType", KEP004), "unionType", description="The member."),
        fld("FieldA", builtin("int"), "fieldA", optional=True),
        fld("FieldB", builtin("int"), "fieldB", optional=True),
    ], [union(key("Union", KEP004), dialect="kep1027", origin="discriminated",
              discriminator=d,
              members=[member("FieldA", "fieldA"), member("FieldB", "fieldB", optional=True)],
              empty=("", "FieldC", "FieldD"), mode="exactly-one")], pkg=KEP004)
    top = struct("TopLevelUnion", [
        fld("Name", builtin("string"), "name"),
        fld("Union", named("Union", KEP004), inline=True),
    ], pkg=KEP004)
    return model([u, top], enums=[ut],
                 types=[named_type("UnionType", builtin("string"), KEP004)])
