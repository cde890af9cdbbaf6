"""Walk a CRD's OpenAPI schema and the Go type graph together, to find where unions live.

A union's rules go on the schema of the object that holds its fields: the struct's own
node, or the node of the struct that inlines it (`json:",inline"`, also through a
pointer). From a struct the walk follows each property to the field's type: pointers and
named non-struct types are looked through, slices and arrays continue at `items`, maps
at `additionalProperties`. External types end the walk (their schema is not ours).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from markergen.model import Field, Model, Struct, TypeKey, TypeRef, Union
from markergen.model.lookup import FieldLookup, JSONField, model_lookup
from markergen.yamlio import PathKey

_MAX_HOPS = 64  # type aliases / named types chained this deep are a cycle


@dataclass(frozen=True)
class UnionSite:
    path: PathKey  # of the object schema node in the CRD document
    node: dict[str, Any]  # that node (part of the document being patched)
    struct: Struct  # the struct that declares the union
    union: Union


@dataclass(frozen=True)
class MissingSite:
    """A Go field that leads to unions but has no property in the CRD's schema: the CRD
    was generated before the field was added (or the field's type changed)."""

    path: PathKey  # of the object schema node that lacks the property
    owner: Struct  # the struct whose field it is
    field: Field
    unions: tuple[tuple[Struct, Union], ...]  # the unions the field's type reaches


# Markers and doc phrases that leave a field out of some generated CRDs on purpose: a
# feature-gated field (openshift), an experimental-channel field (gateway-api).
_GATE_MARKERS = ("openshift:enable:FeatureGate", "openshift:enable:FeatureSets")
_GATE_PHRASES = ("<gateway:experimental>",)


def resolve(model: Model, ref: TypeRef) -> TypeRef:
    """Look through pointers and named non-struct types (`type Items []Item`)."""
    for _ in range(_MAX_HOPS):
        if ref.kind == "pointer" and ref.elem is not None:
            ref = ref.elem
        elif ref.kind == "named" and ref.type_key not in model.structs:
            named = model.types.get(ref.type_key)
            if named is None:
                return ref
            ref = named.underlying
        else:
            return ref
    return ref


def _inlined_struct(model: Model, f: Field) -> Struct | None:
    if not f.inline:
        return None
    ref = resolve(model, f.type)
    return model.structs.get(ref.type_key) if ref.kind == "named" else None


def flat_fields(model: Model, struct: Struct, lookup: FieldLookup) -> tuple[JSONField, ...]:
    """The fields that appear as properties of the struct's schema: its JSON fields as
    encoding/json finds them (markergen/model/lookup.py), promoted ones included."""
    return lookup.of(struct.key).fields


def _with_inlined(
    model: Model, struct: Struct, seen: frozenset[TypeKey] = frozenset()
) -> Iterator[Struct]:
    """The struct, then the structs it inlines, in field order (each once per path)."""
    seen = seen | {struct.key}
    yield struct
    for f in struct.fields:
        inner = _inlined_struct(model, f)
        if inner is not None and inner.key not in seen:
            yield from _with_inlined(model, inner, seen)


def unions_at(model: Model, struct: Struct) -> Iterator[tuple[Struct, Union]]:
    """The struct's own unions, then those of inlined structs in field order."""
    for s in _with_inlined(model, struct):
        for u in s.unions:
            yield s, u


def wrapped_at(model: Model, struct: Struct) -> Iterator[tuple[Struct, Union]]:
    """The k8s unions written through path wrappers (`Union.at`) on the struct's fields,
    then on those of inlined structs."""
    for s in _with_inlined(model, struct):
        for u in s.wrapped:
            yield s, u


def _below(node: Any, path: PathKey, at: tuple[str, ...]) -> Iterator[tuple[PathKey, Any]]:
    """The schema node at `at` below an object's node: a JSON name is a property, "*" the
    items of a list or the values of a map."""
    if not at:
        if isinstance(node, dict):
            yield path, node
        return
    if not isinstance(node, dict):
        return
    step, rest = at[0], at[1:]
    if step == "*":
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                yield from _below(node[key], (*path, key), rest)
        return
    props = node.get("properties")
    if isinstance(props, dict) and isinstance(props.get(step), dict):
        yield from _below(props[step], (*path, "properties", step), rest)


def union_sites(
    model: Model,
    root: Struct,
    schema: Any,
    path: PathKey,
    lookup: FieldLookup | None = None,
    missing: list[MissingSite] | None = None,
) -> list[UnionSite]:
    """Every (schema node, union) pair below `schema`, the schema of type `root`.
    `lookup`: the model's (`model_lookup`), when a run walks many CRDs with one model.
    `missing` is given each field that reaches unions in Go but has no property in the
    schema (see MissingSite)."""
    out: list[UnionSite] = []
    found = model_lookup(model) if lookup is None else lookup
    _walk_struct(model, found, root, schema, path, frozenset(), out, missing)
    return out


def reached_unions(
    model: Model, ref: TypeRef, skip: frozenset[TypeKey] = frozenset()
) -> tuple[tuple[Struct, Union], ...]:
    """The unions a value of type `ref` holds at any depth of the Go types, each once
    (structs in `skip` and those already seen are not entered again)."""
    found: list[tuple[Struct, Union]] = []
    seen: set[TypeKey] = set(skip)
    todo = [ref]
    while todo:
        current = resolve(model, todo.pop())
        if current.kind in ("slice", "array", "map") and current.elem is not None:
            todo.append(current.elem)
            continue
        struct = model.structs.get(current.type_key) if current.kind == "named" else None
        if struct is None or struct.key in seen:
            continue
        seen.add(struct.key)
        found.extend(
            (s, u) for s, u in unions_at(model, struct) if not (u.enforced_by or u.documentation)
        )
        for s in _with_inlined(model, struct):
            todo.extend(f.type for f in reversed(s.fields) if not f.inline and not f.json.skip)
    once: dict[tuple[TypeKey, int], tuple[Struct, Union]] = {}
    for s, u in found:
        once.setdefault((s.key, id(u)), (s, u))
    return tuple(once.values())


def _gated(f: Field) -> bool:
    """Whether some generated CRDs leave the field out on purpose."""
    if any(m.name.startswith(_GATE_MARKERS) for m in f.markers):
        return True
    return any(p in f.description for p in _GATE_PHRASES)


def _walk_struct(
    model: Model,
    lookup: FieldLookup,
    struct: Struct,
    node: Any,
    path: PathKey,
    active: frozenset[TypeKey],
    out: list[UnionSite],
    missing: list[MissingSite] | None = None,
) -> None:
    if not isinstance(node, dict) or struct.key in active:
        return  # not an object schema, or a recursive type (controller-gen cannot inline it)
    active = active | {struct.key}
    for owner, union in unions_at(model, struct):
        if union.enforced_by:
            continue  # controller-gen already wrote this union's rule into the CRD
        if union.documentation:
            continue  # `check` reported it once (MG360); nothing enforces it
        out.append(UnionSite(path, node, owner, union))
    for owner, union in wrapped_at(model, struct):
        for at_path, at_node in _below(node, path, union.at):
            out.append(UnionSite(at_path, at_node, owner, union))
    props = node.get("properties")
    if not isinstance(props, dict):
        return
    for jf in flat_fields(model, struct, lookup):
        child = props.get(jf.name)
        if child is not None:
            path_to = (*path, "properties", jf.name)
            _walk_type(model, lookup, jf.field.type, child, path_to, active, out, missing)
        elif missing is not None and not node.get("x-kubernetes-preserve-unknown-fields"):
            if _gated(jf.field):
                continue
            held = reached_unions(model, jf.field.type, active)
            if held:
                missing.append(MissingSite(path, struct, jf.field, held))


def _walk_type(
    model: Model,
    lookup: FieldLookup,
    ref: TypeRef,
    node: Any,
    path: PathKey,
    active: frozenset[TypeKey],
    out: list[UnionSite],
    missing: list[MissingSite] | None = None,
) -> None:
    if not isinstance(node, dict):
        return
    ref = resolve(model, ref)
    if ref.kind == "named":
        struct = model.structs.get(ref.type_key)
        if struct is not None:
            _walk_struct(model, lookup, struct, node, path, active, out, missing)
    elif ref.kind in ("slice", "array") and ref.elem is not None:
        if "items" in node:
            items = node["items"]
            _walk_type(model, lookup, ref.elem, items, (*path, "items"), active, out, missing)
    elif ref.kind == "map" and ref.elem is not None and "additionalProperties" in node:
        extra = node["additionalProperties"]
        at = (*path, "additionalProperties")
        _walk_type(model, lookup, ref.elem, extra, at, active, out, missing)
