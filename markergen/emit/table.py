"""The runtime table.

Per struct type (keyed by definition name): its fields by JSON name with their kind,
element struct type and list-map keys, its patch strategies, and its unions with the
data the runtime needs to normalize and validate. Fields and unions of inlined
embedded structs are listed in the parent's entry too, because their JSON lives there.
"""

from __future__ import annotations

import json
from typing import Any

from markergen.emit.naming import key_definition_name
from markergen.emit.options import EmitOptions
from markergen.emit.resolve import MAX_INLINE_DEPTH, inline_struct_key, is_byte_slice, unwrap
from markergen.markers import (
    K8S_ENUM,
    K8S_FORBIDDEN,
    K8S_LIST_TYPE,
    K8S_OPTIONAL,
    K8S_REQUIRED,
    default_string,
)
from markergen.model import Enum, Field, Member, Model, Struct, TypeRef, Union, json_scalar

TABLE_VERSION = 1


def typed_value(text: str, value_type: str) -> Any:
    """A discriminator value as JSON of its type; kept as text when it is not of the
    type (a member value no discriminator value matches, MG303 reports it)."""
    value = json_scalar(text, value_type)
    return text if value is None else value


def typed_values(texts: tuple[str, ...], value_type: str) -> list[Any]:
    values = {typed_value(t, value_type) for t in texts}
    return sorted(values, key=lambda v: (isinstance(v, str), v if not isinstance(v, str) else 0, str(v)))


def _default_value(text: str | None, value_type: str) -> Any:
    """The discriminator's `+default` as JSON of its type, None when there is none or it
    is not of that type (`+kubebuilder:default=Inline` is a bare word, `+default="Inline"`
    JSON: both are the string)."""
    if text is None:
        return None
    if value_type == "string":
        return default_string(text)
    return json_scalar(text, value_type)  # it strips a non-string text itself


class TableBuilder:
    def __init__(self, model: Model, options: EmitOptions) -> None:
        self.model = model
        self.options = options
        # `+k8s:enum` types met on fields, checked by the runtime as validation-gen does
        self.k8s_enums: dict[str, Enum] = {}
        # the files of packages that run validation-gen (`+k8s:validation-gen=...` in
        # their doc comment): there an unset enum field is its Go zero value, checked
        self.validation_gen_files = frozenset(
            f
            for p in model.packages
            if any(m.name.startswith("k8s:validation-gen") for m in p.markers)
            for f in p.files
        )
        # The same keys are named over and over (every field of a popular type).
        self._names: dict[str, str] = {}
        self._facts: dict[int, tuple[TypeRef, str, str | None, str | None]] = {}

    def def_name(self, type_key: str) -> str:
        name = self._names.get(type_key)
        if name is None:
            name = self._names[type_key] = key_definition_name(type_key, self.options.naming)
        return name

    def _opaque(self, ref: TypeRef) -> bool:
        """Whether the value's JSON is a type's own (custom marshalling): any JSON value
        is then valid for it, and the runtime must not look inside."""
        seen: set[str] = set()
        while ref.kind in ("pointer", "named", "external"):
            if ref.kind == "pointer":
                if ref.elem is None:
                    return False
                ref = ref.elem
                continue
            key = ref.type_key
            if self.model.is_opaque(key):
                return True
            named = self.model.types.get(key)
            if ref.kind == "external" or named is None or key in seen:
                return False
            seen.add(key)
            ref = named.underlying
        return False

    def _struct_name(self, ref: TypeRef) -> str | None:
        if self._opaque(ref):
            return None
        target, _ = unwrap(self.model, ref)
        if target.kind == "named" and target.type_key in self.model.structs:
            return self.def_name(target.type_key)
        return None

    def field_entry(self, f: Field) -> dict[str, Any]:
        """The field's entry. A list or map of a `+k8s:enum` type: validation-gen calls
        the type's validation for each item (`f[i]`) or value (`f[key]`). On update an
        item is not checked again when the old object has it: a map value under the same
        key, a list item of a `+k8s:listType=set` list anywhere in the old list (other
        lists: never)."""
        kind, name, enum = self._type_facts(f.type)
        entry: dict[str, Any]
        if kind == "list":
            entry = {"kind": "list"}
            if name is not None:
                entry["type"] = name
            keys = list(f.list_map_keys) or ([f.patch_merge_key] if f.patch_merge_key else [])
            if keys:
                entry["listMapKeys"] = keys
            if enum is not None:
                entry["enum"] = enum
                if any(m.name == K8S_LIST_TYPE and m.value == "set" and not m.gate for m in f.markers):
                    entry["setItems"] = True
        elif kind == "map":
            entry = {"kind": "map"}
            if name is not None:
                entry["type"] = name
            elif enum is not None:
                entry["enum"] = enum
        elif kind == "object":
            entry = {"kind": "object", "type": name} if name is not None else {"kind": "object"}
        else:
            entry = {"kind": "scalar"}
            if enum is not None:
                self._k8s_enum_field(f, enum, entry)
        return entry

    def _type_facts(self, ref: TypeRef) -> tuple[str, str | None, str | None]:
        """What a field's entry takes from its type alone: its kind, the struct it (or
        its items) holds, and the `+k8s:enum` type of its value (scalar) or items (list,
        map). By identity of the TypeRef (the model shares one among the fields of a
        type; the ref is kept so that its id is not reused)."""
        known = self._facts.get(id(ref))
        if known is None:
            known = self._facts[id(ref)] = (ref, *self._resolve_facts(ref))
        return known[1], known[2], known[3]

    def _resolve_facts(self, ref: TypeRef) -> tuple[str, str | None, str | None]:
        if self._opaque(ref):
            return "opaque", None, None
        target, _ = unwrap(self.model, ref)
        if target.kind == "named" and target.type_key in self.model.structs:
            return "object", self.def_name(target.type_key), None
        if target.kind == "struct":
            return "object", None, None
        if target.kind in ("slice", "array") and target.elem is not None:
            if is_byte_slice(self.model, target):
                return "bytes", None, None
            elem = self._struct_name(target.elem)
            if elem is not None:
                return "list", elem, None
            return "list", None, self._k8s_enum_name(target.elem)
        if target.kind == "map" and target.elem is not None:
            elem = self._struct_name(target.elem)
            if elem is not None:
                return "map", elem, None
            return "map", None, self._k8s_enum_name(target.elem)
        # Builtins, well-known and other external types: the runtime treats them
        # as opaque values and never descends into them.
        return "scalar", None, self._k8s_enum_name(ref)

    def _k8s_enum_name(self, ref: TypeRef) -> str | None:
        """The table name of the `+k8s:enum` type `ref` names (itself or an alias of it,
        through pointers), recorded in the table's enums; None for any other type."""
        target, enum = unwrap(self.model, ref)
        if enum is None or target.kind != "builtin" or enum.incomplete or enum.type != "string":
            return None
        named = self.model.types.get(enum.key)
        if named is None or not any(m.name == K8S_ENUM for m in named.markers):
            return None
        # validation-gen validates a value of the enum type itself (or an alias of it);
        # `type NotEnum Enum2` is a type of its own, whose values are not checked
        ref = ref.deref()
        seen: set[str] = set()
        while ref.kind == "named" and ref.type_key != enum.key and ref.type_key not in seen:
            seen.add(ref.type_key)
            alias = self.model.types.get(ref.type_key)
            if alias is None or not alias.alias:
                return None
            ref = alias.underlying.deref()
        if ref.kind != "named" or ref.type_key != enum.key:
            return None
        name = self.def_name(enum.key)
        self.k8s_enums[name] = enum
        return name

    def _k8s_enum_field(self, f: Field, name: str, entry: dict[str, Any]) -> None:
        """A field of a `+k8s:enum` type (`name`): validation-gen checks its value
        (NotSupported). An unset pointer is not checked; an unset value is, unless
        `+k8s:optional` or `+k8s:required` stops the checks of an unset field first.
        Outside validation-gen (controller-gen's CRD enum) an absent field is not
        checked."""
        entry["enum"] = name
        if f.type.kind == "pointer":
            entry["pointer"] = True
        if any(m.name in (K8S_OPTIONAL, K8S_REQUIRED) and not m.gate for m in f.markers):
            entry["unsetNotChecked"] = True
        elif f.pos.file not in self.validation_gen_files and not any(
            m.name == K8S_FORBIDDEN and not m.gate for m in f.markers
        ):
            # No requiredness tag (validation-gen's lint requires one on a field with
            # validation) in a package that does not run validation-gen: the enum is
            # served as controller-gen's schema `enum`, which the API server checks
            # only on a value present (an absent or null field is not checked).
            entry["absentNotChecked"] = True

    def enums_entry(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in sorted(self.k8s_enums):
            enum = self.k8s_enums[name]
            entry: dict[str, Any] = {"values": list(enum.value_set)}
            exclusions = [
                {"value": v.value, "option": x.option, "whenEnabled": x.when_enabled}
                for v in sorted(enum.values, key=lambda v: v.value)
                for x in v.exclusions
            ]
            if exclusions:
                entry["exclusions"] = exclusions
            if enum.stage:
                entry["stage"] = enum.stage
            out[name] = entry
        return out

    def union_entry(self, union: Union, def_name: str) -> dict[str, Any]:
        # a union under a field (`+k8s:item`, `+k8s:subfield`, ...) is validation-gen's only
        semantics = union.semantics if union.at else self.options.semantics_for(union, def_name)
        d = union.discriminator
        value_type = d.value_type if d is not None else "string"
        entry: dict[str, Any] = {
            "dialect": union.dialect,
            "semantics": semantics,
            "discriminator": d.json_name if d else None,
            "discriminatorRequired": bool(d and d.required),
            "values": typed_values(d.values, value_type) if d else [],
            "members": [self._member(m, semantics, value_type) for m in union.members],
            "mode": union.mode,
            "deduceInvalidDiscriminator": bool(
                semantics == "smd" and d is not None and self.options.deduce_invalid_discriminator
            ),
        }
        default = _default_value(d.default, value_type) if d is not None else None
        if default is not None:
            # The API server fills the default in before it validates; only written when
            # there is one, so that other tables stay as they were.
            entry["discriminatorDefault"] = default
        if value_type != "string":
            # A discriminator of `type Mode int32` holds numbers (booleans for bool):
            # the runtime compares JSON values of this type. Only written when not a
            # string, so that existing tables stay as they were.
            entry["valueType"] = value_type
        if union.gate:
            # only when wrapped, so that tables without gates stay as they were
            entry["gate"] = union.gate
            entry["gateDisabled"] = union.gate_disabled
        if union.at:
            entry["at"] = list(union.at)
            if union.at_value:
                entry["atValue"] = True
        if union.stage:
            entry["stage"] = union.stage  # validation-gen marks the union's errors so
        if union.modes:
            entry["modes"] = [
                {"field": r.json_name, "value": r.value, "rule": r.rule}
                | ({"stage": r.stage} if r.stage else {})
                for r in union.modes
            ]
            if d is not None and unwrap(self.model, d.type)[0].name == "bool":
                entry["discriminatorType"] = "bool"
        return entry

    @staticmethod
    def _member(m: Member, semantics: str, value_type: str) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "field": m.json_name,
            "value": typed_value(m.value, value_type),
            "optional": m.optional,
        }
        if m.selector:
            entry["selector"] = {k: json.loads(v) for k, v in m.selector}
        elif semantics == "k8s" and m.zero:
            # validation-gen's test of "set" depends on the Go type, which JSON does not
            # carry: a `*string` holding "" is set, a `string` holding "" is not
            entry["zero"] = m.zero
        return entry

    def _collect(
        self,
        struct: Struct,
        def_name: str,
        fields: dict[str, tuple[int, dict[str, Any]]],
        patch: dict[str, tuple[int, str]],
        unions: list[dict[str, Any]],
        depth: int,
        seen: frozenset[str],
    ) -> None:
        seen = seen | {struct.key}
        if struct.unions:
            # A documentation `+union` (MG360) is not enforced by anyone: not by the runtime.
            own = [u for u in struct.unions if u.origin != "deprecated" and not u.documentation]
            unions += [self.union_entry(u, def_name) for u in own]
        if struct.wrapped:
            unions += [self.union_entry(u, def_name) for u in struct.wrapped]
        for f in struct.fields:
            if not f.exported or f.json.skip:
                continue
            if f.inline:
                key = inline_struct_key(self.model, f.type)
                if key is not None and key not in seen and depth < MAX_INLINE_DEPTH:
                    sub = self.model.structs[key]
                    self._collect(sub, def_name, fields, patch, unions, depth + 1, seen)
                continue
            name = f.json_name
            if not name:
                continue
            # Go's promoted-field rule: the shallowest field wins; ties keep the first.
            known = fields.get(name)
            if known is None or known[0] > depth:
                fields[name] = (depth, self.field_entry(f))
                if f.patch_strategy:
                    patch[name] = (depth, f.patch_strategy)
                elif name in patch:
                    del patch[name]
        if struct.unions:
            unions += [
                self.union_entry(u, def_name) for u in struct.unions if u.origin == "deprecated"
            ]

    def type_entry(self, struct: Struct) -> dict[str, Any]:
        def_name = self.def_name(struct.key)
        fields: dict[str, tuple[int, dict[str, Any]]] = {}
        patch: dict[str, tuple[int, str]] = {}
        unions: list[dict[str, Any]] = []
        self._collect(struct, def_name, fields, patch, unions, 0, frozenset())
        return {
            "fields": {name: entry for name, (_, entry) in fields.items()},
            "patchStrategies": {name: value for name, (_, value) in patch.items()},
            "unions": unions,
        }

    def table(self) -> dict[str, Any]:
        types = {
            self.def_name(key): self.type_entry(self.model.structs[key])
            for key in sorted(self.model.structs)
        }
        out: dict[str, Any] = {"version": TABLE_VERSION, "types": types}
        enums = self.enums_entry()
        if enums:
            out["enums"] = enums  # only when a `+k8s:enum` field exists: older tables stay
        return out


def build_table(model: Model, options: EmitOptions) -> dict[str, Any]:
    return TableBuilder(model, options).table()
