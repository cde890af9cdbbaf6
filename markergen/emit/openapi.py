"""OpenAPI v2 and v3 schemas of the model's structs, as openapi-gen writes them.

One definition per struct, with properties typed as kube-openapi maps Go types,
`required` in field order, descriptions and enum paragraphs, patch and list
extensions, inlined embedded structs merged in, and the unions:
openapi-gen's list form on the struct for kep2019 and undiscriminated unions, the current KEP's
`fieldMembers` on the discriminator's property for the others.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from markergen.emit.describe import add_enum_paragraph, enum_paragraph, typed_enum_values
from markergen.emit.naming import key_definition_name, ref_v2, ref_v3
from markergen.emit.options import EmitOptions
from markergen.emit.resolve import (
    MAX_INLINE_DEPTH,
    META_V1,
    inline_struct_key,
    is_byte_slice,
    unwrap,
)
from markergen.model import Field, Model, Struct, TypeRef, Union
from markergen.model.enums import field_enum

Version = Literal[2, 3]
Schema = dict[str, Any]
UNIONS_KEY = "x-kubernetes-unions"

# kube-openapi's Go type -> (type, format) table (pkg/common).
TYPE_FORMATS: dict[str, tuple[str, str]] = {
    "uint": ("integer", "int32"),
    "uint8": ("integer", "byte"),
    "uint16": ("integer", "int32"),
    "uint32": ("integer", "int64"),
    "uint64": ("integer", "int64"),
    "int": ("integer", "int32"),
    "int8": ("integer", "byte"),
    "int16": ("integer", "int32"),
    "int32": ("integer", "int32"),
    "int64": ("integer", "int64"),
    "byte": ("integer", "byte"),
    "rune": ("integer", "int32"),
    "float64": ("number", "double"),
    "float32": ("number", "float"),
    "bool": ("boolean", ""),
    "string": ("string", ""),
    "any": ("object", ""),
}

_INT_OR_STRING = "x-kubernetes-int-or-string"
_RESOURCE = "k8s.io/apimachinery/pkg/api/resource"
_INTSTR = "k8s.io/apimachinery/pkg/util/intstr"
_APIEXT = "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"

# Well-known external types: (v2 schema, v3 schema), from the OpenAPIDefinition that
# apimachinery gives each (OpenAPISchemaType/Format, OpenAPIV3OneOfTypes), plus the
# int-or-string extension the API server's structural schemas use.
WELL_KNOWN: dict[tuple[str, str], tuple[Schema, Schema]] = {
    (META_V1, "Time"): ({"type": "string", "format": "date-time"},) * 2,
    (META_V1, "MicroTime"): ({"type": "string", "format": "date-time"},) * 2,
    (META_V1, "Duration"): ({"type": "string"},) * 2,
    ("time", "Time"): ({"type": "string", "format": "date-time"},) * 2,
    ("time", "Duration"): ({"type": "integer", "format": "int64"},) * 2,
    (_RESOURCE, "Quantity"): (
        {"type": "string", _INT_OR_STRING: True},
        {"oneOf": [{"type": "string"}, {"type": "number"}], _INT_OR_STRING: True},
    ),
    (_INTSTR, "IntOrString"): (
        {"type": "string", "format": "int-or-string", _INT_OR_STRING: True},
        {"oneOf": [{"type": "integer"}, {"type": "string"}], _INT_OR_STRING: True},
    ),
    ("k8s.io/apimachinery/pkg/runtime", "RawExtension"): ({"type": "object"},) * 2,
    (f"{_APIEXT}/v1", "JSON"): ({"x-kubernetes-preserve-unknown-fields": True},) * 2,
    (f"{_APIEXT}/v1beta1", "JSON"): ({"x-kubernetes-preserve-unknown-fields": True},) * 2,
}

# metav1.TypeMeta is inlined into every root type; its two properties are known.
_TYPE_META_PROPERTIES: dict[str, Schema] = {
    "apiVersion": {"type": "string"},
    "kind": {"type": "string"},
}


def well_known(ref: TypeRef) -> tuple[Schema, Schema] | None:
    if ref.kind != "external":
        return None
    return WELL_KNOWN.get((ref.package, ref.name))


def fieldmembers_union(union: Union, options: EmitOptions) -> bool:
    """Whether the union is written as the current KEP's fieldMembers on its discriminator."""
    return (
        not union.traits.list_form_only
        and union.origin != "struct"  # a `+union` struct's: openapi-gen's list form only
        and union.discriminator is not None
        and options.union_format != "list"
    )


def listed_union(union: Union, options: EmitOptions) -> bool:
    """Whether the union appears in openapi-gen's list on the struct."""
    if not union.traits.in_openapi:
        return False  # controller-gen's markers: openapi-gen writes nothing for them
    if union.traits.list_form_only or union.discriminator is None:
        return True
    return options.union_format in ("list", "both")


def union_list_entry(union: Union) -> Schema:
    entry: Schema = {
        "fields-to-discriminateBy": {
            m.json_name: m.value for m in (union.listed or union.members)
        },
    }
    if union.discriminator is not None:
        entry["discriminator"] = union.discriminator.json_name
    return entry


def field_members(union: Union) -> dict[str, Any]:
    """The current KEP's map: every discriminator value -> its member, or null."""
    members: dict[str, Any] = {
        m.value: {"name": m.json_name, "optional": m.optional} for m in union.members
    }
    values = set(union.discriminator.values if union.discriminator else ())
    values.update(union.empty_values)
    for v in values:
        members.setdefault(v, None)
    return {"fieldMembers": members}


def parse_default(text: str) -> Any:
    """`+default=` value: JSON when it parses, else the text as a string."""
    try:
        return json.loads(text)
    except ValueError:
        return text


SCALAR_TYPES = ("string", "boolean", "integer", "number")


Pair = tuple[Schema, Schema]


@dataclass
class _Collected:
    # The v2 and v3 properties: one dict object while no property differs between
    # the versions (`differ`), so that most structs have one schema for both.
    properties: dict[str, Schema] = field(default_factory=dict)
    properties_v3: dict[str, Schema] = field(default_factory=dict)
    differ: bool = False
    depth: dict[str, int] = field(default_factory=dict)
    required: list[str] = field(default_factory=list)


class SchemaBuilder:
    """Builds the schemas of the OpenAPI documents; remembers external references.

    With `version` None, each schema is built once for both documents, as a pair (v2,
    v3): the versions differ only where a `$ref` is written (`#/definitions/X` or
    `#/components/schemas/X`), in the well-known external types (`WELL_KNOWN`), and in
    v3's `allOf` around a `$ref` with siblings, so everything else (descriptions, enum
    values, extensions, unions) is computed once, and a part that is the same in both
    is one object in both. With `version` 2 or 3, both halves of every pair are that
    version's schema (`struct_schema`, `schemas`).
    """

    def __init__(self, model: Model, options: EmitOptions, version: Version | None = None) -> None:
        self.model = model
        self.options = options
        self.version = version
        self.external: set[str] = set()
        # The same keys are named over and over (every $ref to a popular type).
        self._names: dict[str, str] = {}
        self._keys_by_name: dict[str, list[str]] = {}
        # Per enum type, computed once: its paragraph and its typed values (sorting
        # them quotes every value the Go way, for every property of the type).
        self._paragraphs: dict[str, str] = {}
        self._enum_values: dict[tuple[str, str], list[object]] = {}
        # Per type expression, by identity: its (v2, v3) schemas and its direct enum.
        # The model shares one TypeRef among the fields of a type (a tenth as many as
        # fields), and resolving one is most of a property's cost. The ref is kept in
        # the entry so that its id is not reused. The schemas are then shared among
        # the properties of that type: nothing changes a schema once it is built.
        self._typed_refs: dict[int, tuple[TypeRef, Schema, Schema, Any]] = {}

    def def_name(self, type_key: str) -> str:
        name = self._names.get(type_key)
        if name is None:
            name = self._names[type_key] = key_definition_name(type_key, self.options.naming)
        return name

    def _ref(self, type_key: str) -> Pair:
        name = self.def_name(type_key)
        if self.version is None:
            return {"$ref": ref_v2(name)}, {"$ref": ref_v3(name)}
        ref = {"$ref": ref_v2(name) if self.version == 2 else ref_v3(name)}
        return ref, ref

    def type_pair(self, ref: TypeRef) -> Pair:
        """The (v2, v3) schemas of a Go type (no description): one object when equal."""
        target, enum = unwrap(self.model, ref)
        schema: Schema
        kind = target.kind
        if kind == "builtin":
            tf = TYPE_FORMATS.get(target.name)
            if tf is None:
                schema = {}
                return schema, schema
            schema = {"type": tf[0]}
            if tf[1]:
                schema["format"] = tf[1]
            # An incomplete enum (MG020) lists no `enum`: the known values alone would
            # reject valid objects; its description says values are missing.
            if enum is not None and not enum.incomplete:
                values = self._enum_values.get((enum.key, tf[0]))
                if values is None:
                    values = typed_enum_values(
                        [v.value for v in enum.values_without_options], tf[0]
                    )
                    self._enum_values[(enum.key, tf[0])] = values
                schema["enum"] = list(values)
            return schema, schema
        if kind == "named":
            if target.type_key in self.model.structs:
                return self._ref(target.type_key)
            schema = {}
            return schema, schema
        if kind == "external":
            known = well_known(target)
            if known is not None:
                if self.version is not None:
                    schema = copy.deepcopy(known[self.version - 2])
                    return schema, schema
                schema = copy.deepcopy(known[0])
                return schema, schema if known[1] is known[0] else copy.deepcopy(known[1])
            self.external.add(self.def_name(target.type_key))
            return self._ref(target.type_key)
        if kind in ("slice", "array") and target.elem is not None:
            if is_byte_slice(self.model, target):
                schema = {"type": "string", "format": "byte"}
                return schema, schema
            items2, items3 = self.type_pair(target.elem)
            schema = {"type": "array", "items": items2}
            return schema, schema if items3 is items2 else {"type": "array", "items": items3}
        if kind == "map" and target.elem is not None:
            values2, values3 = self.type_pair(target.elem)
            schema = {"type": "object", "additionalProperties": values2}
            if values3 is values2:
                return schema, schema
            return schema, {"type": "object", "additionalProperties": values3}
        schema = {"type": "object"} if kind in ("struct", "interface") else {}
        return schema, schema

    def property_pair(self, f: Field, owner: Struct) -> Pair:
        """A field's (v2, v3) property schemas: one object when equal."""
        enum: Any
        if "string" in f.json.options or f.json.string:
            schema2 = schema3 = {"type": "string"}
            enum = None
        else:
            ref = f.type
            known = self._typed_refs.get(id(ref))
            if known is None:
                schema2, schema3 = self.type_pair(ref)
                enum = self._direct_enum(ref)
                self._typed_refs[id(ref)] = (ref, schema2, schema3, enum)
            else:
                _, schema2, schema3, enum = known
        common = self._extensions(f, owner)
        type2 = schema2.get("type")
        plain = enum is None and not f.enum_values and not f.enum_gates
        enum_values: list[object] | None
        if plain:  # most properties: their description as it is, no enum values
            enum_values, description = None, f.description
        else:
            enum_values, description = self._typed(f, type2, enum)
        one = self._property(schema2, enum_values, description, common, self.version == 3)
        if schema3 is schema2:
            return one, one
        type3 = schema3.get("type")
        if type3 != type2 and not plain:  # a well-known type (Quantity: string, oneOf)
            enum_values, description = self._typed(f, type3, enum)
        return one, self._property(schema3, enum_values, description, common, True)

    def _typed(self, f: Field, json_type: Any, enum: Any) -> tuple[list[object] | None, str]:
        """What depends on the property's JSON type: the field's enforced enum values
        (scalars only) and its description (with the enum paragraph, strings only)."""
        description = f.description
        # The paragraph quotes values as Go strings, as openapi-gen: string enums only.
        if enum is not None and json_type == "string":
            paragraph = self._paragraphs.get(enum.key)
            if paragraph is None:
                paragraph = self._paragraphs[enum.key] = enum_paragraph(enum)
            description = add_enum_paragraph(description, paragraph)
        values = None
        if (f.enum_values or f.enum_gates) and json_type in SCALAR_TYPES:
            # The field's own list and its type's enum are both enforced (their
            # intersection; markergen.model.enums.field_enum).
            _, type_enum = unwrap(self.model, f.type)
            enforced = field_enum(f, type_enum)
            if enforced is not None:
                values = typed_enum_values(list(enforced.values), json_type)
        return values, description

    def _extensions(self, f: Field, owner: Struct) -> Schema:
        """The property's keys that do not depend on its type or version."""
        extras: Schema = {}
        if f.default is not None:
            extras["default"] = parse_default(f.default)
        if f.patch_strategy:
            extras["x-kubernetes-patch-strategy"] = f.patch_strategy
        if f.patch_merge_key:
            extras["x-kubernetes-patch-merge-key"] = f.patch_merge_key
        if f.list_type:
            extras["x-kubernetes-list-type"] = f.list_type
        if f.list_map_keys:
            extras["x-kubernetes-list-map-keys"] = list(f.list_map_keys)
        # The first +mapType and the first +structType, found in one pass over the
        # field's markers (this runs for every property).
        map_type = struct_type = None
        for m in f.markers:
            if m.name == "mapType":
                if map_type is None:
                    map_type = m
            elif m.name == "structType" and struct_type is None:
                struct_type = m
        if map_type is not None and map_type.value:
            extras["x-kubernetes-map-type"] = map_type.value
        if struct_type is not None and struct_type.value:
            extras["x-kubernetes-struct-type"] = struct_type.value
        for union in owner.unions:
            d = union.discriminator
            if d is not None and d.go_name == f.go_name and fieldmembers_union(union, self.options):
                extras[UNIONS_KEY] = field_members(union)
                break
        return extras

    @staticmethod
    def _property(
        schema: Schema, enum_values: list[object] | None, description: str, common: Schema, v3: bool
    ) -> Schema:
        # Keys in the order the schema had them, then the field's enum (in the type's
        # place when it had one), then the description and the extensions.
        extras = {"description": description, **common} if description else common
        if v3 and extras and "$ref" in schema:
            # OpenAPI 3.0 ignores siblings of $ref; wrap it as the API server does.
            return {"allOf": [schema], **extras}
        if enum_values is not None:
            return {**schema, "enum": enum_values, **extras}
        return {**schema, **extras}

    def _direct_enum(self, ref: TypeRef) -> Any:
        # openapi-gen's EnumType looks through one pointer only: items and map values
        # get `enum` but the property's description gains no paragraph.
        base = ref.elem if ref.kind == "pointer" and ref.elem is not None else ref
        if base.kind in ("slice", "array", "map"):
            return None
        _, enum = unwrap(self.model, base)
        return enum

    def _collect(self, struct: Struct, out: _Collected, depth: int, seen: set[str]) -> None:
        seen = seen | {struct.key}
        depths, required, pair = out.depth, out.required, self.property_pair
        for f in struct.fields:
            if not f.exported or f.json.skip:
                continue
            if f.inline:
                key = inline_struct_key(self.model, f.type)
                if key is not None and key not in seen:
                    if depth < MAX_INLINE_DEPTH:
                        self._collect(self.model.structs[key], out, depth + 1, seen)
                    continue
                target = f.type.deref()
                if target.kind == "external":
                    if (target.package, target.name) == (META_V1, "TypeMeta"):
                        for name, schema in _TYPE_META_PROPERTIES.items():
                            copied = dict(schema)
                            self._add(out, name, copied, copied, depth + 1)
                        continue
                    # Its fields cannot be merged without its source; say what is missing.
                    self.external.add(self.def_name(target.type_key))
                continue
            name = f.json_name
            if not name:
                continue
            schema2, schema3 = pair(f, struct)
            # `_add`, written out: this runs for every property of the tree
            known = depths.get(name)
            if known is None or known > depth:
                out.properties[name] = schema2
                out.properties_v3[name] = schema3
                if schema3 is not schema2:
                    out.differ = True
                depths[name] = depth
            if (not f.optional or f.required_marker) and name not in required:
                required.append(name)

    @staticmethod
    def _add(out: _Collected, name: str, schema2: Schema, schema3: Schema, depth: int) -> None:
        # Go's rule for promoted fields: the shallowest one wins; ties keep the first.
        if name in out.depth and out.depth[name] <= depth:
            return
        out.properties[name] = schema2
        out.properties_v3[name] = schema3
        if schema3 is not schema2:
            out.differ = True
        out.depth[name] = depth

    def union_list(
        self, struct: Struct, seen: frozenset[str] = frozenset(), depth: int = 0
    ) -> list[Schema]:
        """openapi-gen's order: own `+union`, then inlined structs' unions in field
        order (recursively), then the `+unionDeprecated` member-union. Other dialects'
        unions listed (union-format list/both) follow the struct's own `+union`."""
        seen = seen | {struct.key}
        out = [union_list_entry(u) for u in struct.unions if u.origin == "struct"]
        out += [
            union_list_entry(u)
            for u in struct.unions
            if u.origin == "discriminated" and listed_union(u, self.options)
        ]
        for f in struct.fields:
            if f.inline and f.exported and not f.json.skip:
                key = inline_struct_key(self.model, f.type)
                if key is not None and key not in seen and depth < MAX_INLINE_DEPTH:
                    out += self.union_list(self.model.structs[key], seen, depth + 1)
        out += [union_list_entry(u) for u in struct.unions if u.origin == "deprecated"]
        return out

    def struct_schema(self, struct: Struct) -> Schema:
        """A struct's schema, in the builder's version."""
        return self.struct_pair(struct)[1 if self.version == 3 else 0]

    def struct_pair(self, struct: Struct) -> Pair:
        """A struct's (v2, v3) schemas: one object when no property differs."""
        collected = _Collected()
        self._collect(struct, collected, 0, set())
        schema: Schema = {"type": "object"}
        if struct.description:
            schema["description"] = struct.description
        if collected.properties:
            schema["properties"] = collected.properties
        if collected.required:
            schema["required"] = collected.required
        unions = self.union_list(struct)
        if unions:
            schema[UNIONS_KEY] = unions
        if not collected.differ:
            return schema, schema
        return schema, {**schema, "properties": collected.properties_v3}

    def definitions(self) -> dict[str, Schema]:
        return dict(self.schemas(self.names_in_order()))

    def names_in_order(self) -> list[str]:
        """The definition names, sorted as the document's text lists them."""
        by_name: dict[str, list[str]] = {}
        for key in sorted(self.model.structs):
            by_name.setdefault(self.def_name(key), []).append(key)
        self._keys_by_name = by_name
        return sorted(by_name)

    def pairs(self, names: list[str]) -> Iterator[tuple[str, Schema, Schema]]:
        """(name, v2 schema, v3 schema) of each of `names` (from `names_in_order`),
        built one at a time so that a writer can stream them. Two struct keys may share
        a definition name: the later key's schema is kept, and both are built (both may
        name external references)."""
        for name in names:
            keys = self._keys_by_name[name]
            for key in keys[:-1]:
                self.struct_pair(self.model.structs[key])
            schema2, schema3 = self.struct_pair(self.model.structs[keys[-1]])
            yield name, schema2, schema3

    def schemas(self, names: list[str]) -> Iterator[tuple[str, Schema]]:
        """(name, schema) of each of `names` in the builder's version (`pairs`)."""
        v3 = self.version == 3
        for name, schema2, schema3 in self.pairs(names):
            yield name, schema3 if v3 else schema2


@dataclass(frozen=True)
class OpenAPIDocument:
    """What a template needs: the schemas, info and external references."""

    version: Version
    schemas: dict[str, Schema]
    info: dict[str, str]
    external_references: list[str]


def build_document(model: Model, options: EmitOptions, version: Version) -> OpenAPIDocument:
    builder = SchemaBuilder(model, options, version)
    schemas = builder.definitions()
    return OpenAPIDocument(
        version=version,
        schemas=schemas,
        info={"title": options.title, "version": options.version},
        external_references=sorted(builder.external - set(schemas)),
    )
