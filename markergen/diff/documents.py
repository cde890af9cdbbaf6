"""Surfaces of generated documents: an OpenAPI v3 (or v2) document or the JSON runtime
table.

OpenAPI holds unions in two forms: openapi-gen's list on the struct schema
(`[{discriminator, fields-to-discriminateBy}]`) and the current KEP's `fieldMembers` map on the
discriminator's property. With `union-format: both` a discriminated union appears in both;
the `fieldMembers` form wins because it is the richer one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from markergen.diff.surface import (
    DiscriminatorSurface,
    Fact,
    MemberSurface,
    Surface,
    TypeSurface,
    UnionSurface,
    json_value,
    make_union,
)

UNIONS_KEY = "x-kubernetes-unions"


class DocumentError(ValueError):
    """The document does not have the shape of an OpenAPI document or runtime table."""


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DocumentError(f"{where}: expected an object")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise DocumentError(f"{where}: expected a string")
    return value


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DocumentError(f"{where}: expected a list of strings")
    return tuple(sorted(set(value)))


def _enum_of(prop: dict[str, Any]) -> tuple[str, ...] | None:
    """`enum` of a property, its array items or its map values, as emitted for enums."""
    for candidate in (prop, prop.get("items"), prop.get("additionalProperties")):
        if isinstance(candidate, dict) and isinstance(candidate.get("enum"), list):
            return tuple(sorted({json_value(v) for v in candidate["enum"] if v is not None}))
    return None


def _plain(values: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """Discriminator values as the strings they are (enum values are kept as JSON)."""
    if values is None:
        return None
    return tuple(sorted(str(json.loads(v)) for v in values))


def _field_members_union(
    disc_name: str, prop: dict[str, Any], required: bool, where: str
) -> UnionSurface:
    spec = _obj(prop[UNIONS_KEY], f"{where}.{UNIONS_KEY}")
    fm = _obj(spec.get("fieldMembers"), f"{where}.{UNIONS_KEY}.fieldMembers")
    members = []
    for value, entry in fm.items():
        if entry is None:
            continue
        e = _obj(entry, f"{where}.{UNIONS_KEY}.fieldMembers.{value}")
        name = _str(e.get("name"), f"{where}.{UNIONS_KEY}.fieldMembers.{value}.name")
        members.append(MemberSurface(name, value, bool(e.get("optional", False))))
    values = _plain(_enum_of(prop)) or ()
    default = prop.get("default")
    disc = DiscriminatorSurface(
        field=disc_name,
        required=required,
        values=values,
        default=default if isinstance(default, str) else None,
    )
    return make_union(
        disc,
        members,
        "exactly-one" if required else "at-most-one",
        "kep1027" if values else "kep2022",
    )


def _list_union(
    entry: Any, properties: Mapping[str, Any], required: frozenset[str], where: str
) -> UnionSurface:
    e = _obj(entry, where)
    by = _obj(e.get("fields-to-discriminateBy", {}), f"{where}.fields-to-discriminateBy")
    members = [
        MemberSurface(_str(k, where), _str(v, f"{where}.fields-to-discriminateBy.{k}"), False)
        for k, v in by.items()
    ]
    disc_name = e.get("discriminator")
    if disc_name is None:
        # Without a discriminator the list form does not say whether exactly one or at
        # most one member may be set, nor which design wrote it.
        return make_union(None, members, "at-most-one", None)
    disc_name = _str(disc_name, f"{where}.discriminator")
    prop = properties.get(disc_name)
    values = _plain(_enum_of(prop)) if isinstance(prop, dict) else None
    default = prop.get("default") if isinstance(prop, dict) else None
    disc = DiscriminatorSurface(
        field=disc_name,
        required=disc_name in required,
        values=values or (),
        default=default if isinstance(default, str) else None,
    )
    # openapi-gen's list with a plain-string discriminator is the 2019 design; a
    # discriminator with an enum in the list form (union-format: list) is a newer one.
    dialect = None if values else "kep2019"
    return make_union(disc, members, "exactly-one" if disc.required else "at-most-one", dialect)


def _openapi_type(name: str, schema: dict[str, Any]) -> TypeSurface:
    where = name
    properties = _obj(schema.get("properties", {}), f"{where}.properties")
    required = frozenset(_strings(schema.get("required", []), f"{where}.required"))
    unions: list[UnionSurface] = []
    enums: dict[str, tuple[str, ...]] = {}
    for pname in sorted(properties):
        prop = _obj(properties[pname], f"{where}.properties.{pname}")
        if UNIONS_KEY in prop:
            unions.append(_field_members_union(pname, prop, pname in required, f"{where}.{pname}"))
            continue
        values = _enum_of(prop)
        if values is not None:
            enums[pname] = values
    seen = {u.discriminator.field for u in unions if u.discriminator}
    listed = schema.get(UNIONS_KEY, [])
    if not isinstance(listed, list):
        raise DocumentError(f"{where}.{UNIONS_KEY}: expected a list")
    for i, entry in enumerate(listed):
        u = _list_union(entry, properties, required, f"{where}.{UNIONS_KEY}[{i}]")
        if u.discriminator is not None and u.discriminator.field in seen:
            continue
        unions.append(u)
    for u in unions:
        if u.discriminator is not None:
            enums.pop(u.discriminator.field, None)
    package, _, short = name.rpartition(".")
    return TypeSurface(
        name, frozenset(properties), tuple(unions), enums, package=package, go_name=short
    )


def surface_from_openapi(doc: Mapping[str, Any], origin: str) -> Surface:
    if "openapi" in doc:
        components = _obj(doc.get("components", {}), "components")
        schemas = _obj(components.get("schemas", {}), "components.schemas")
    else:
        schemas = _obj(doc.get("definitions", {}), "definitions")
    types = {name: _openapi_type(name, _obj(schemas[name], name)) for name in sorted(schemas)}
    carries: frozenset[Fact] = frozenset({"enums", "defaults", "dialect", "fields"})
    return Surface(types=types, carries=carries, origin=origin)


def _table_union(entry: Any, where: str) -> UnionSurface:
    e = _obj(entry, where)
    raw_members = e.get("members", [])
    if not isinstance(raw_members, list):
        raise DocumentError(f"{where}.members: expected a list")
    members = []
    for i, m in enumerate(raw_members):
        mo = _obj(m, f"{where}.members[{i}]")
        members.append(
            MemberSurface(
                _str(mo.get("field"), f"{where}.members[{i}].field"),
                _str(mo.get("value"), f"{where}.members[{i}].value"),
                bool(mo.get("optional", False)),
            )
        )
    disc_name = e.get("discriminator")
    disc = None
    if disc_name:
        disc = DiscriminatorSurface(
            field=_str(disc_name, f"{where}.discriminator"),
            required=bool(e.get("discriminatorRequired", False)),
            values=_strings(e.get("values", []), f"{where}.values"),
            default=None,
        )
    dialect = e.get("dialect")
    return make_union(
        disc,
        members,
        _str(e.get("mode", "at-most-one"), f"{where}.mode"),
        dialect if isinstance(dialect, str) else None,
    )


def surface_from_table(doc: Mapping[str, Any], origin: str) -> Surface:
    if doc.get("version") != 1:
        raise DocumentError(f"version: expected 1, found {doc.get('version')!r}")
    raw = _obj(doc.get("types"), "types")
    types = {}
    for name in sorted(raw):
        t = _obj(raw[name], f"types.{name}")
        fields = _obj(t.get("fields", {}), f"types.{name}.fields")
        unions = t.get("unions", [])
        if not isinstance(unions, list):
            raise DocumentError(f"types.{name}.unions: expected a list")
        package, _, short = name.rpartition(".")
        types[name] = TypeSurface(
            name,
            frozenset(fields),
            tuple(_table_union(u, f"types.{name}.unions[{i}]") for i, u in enumerate(unions)),
            package=package,
            go_name=short,
        )
    carries: frozenset[Fact] = frozenset({"dialect", "mode", "fields"})
    return Surface(types=types, carries=carries, origin=origin)


def surface_from_document(doc: Any, origin: str) -> Surface:
    """Either kind of generated document, recognised by its top-level keys."""
    d = _obj(doc, "document")
    if "openapi" in d or "swagger" in d:
        return surface_from_openapi(d, origin)
    if "types" in d and "version" in d:
        return surface_from_table(d, origin)
    raise DocumentError(
        "not an OpenAPI document (no 'openapi' or 'swagger' key) nor a markergen "
        "unions table (no 'version' and 'types' keys)"
    )
