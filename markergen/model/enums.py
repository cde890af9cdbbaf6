"""Enums (DESIGN section 4): `+enum` / `+k8s:enum` / kubebuilder Enum string types and
the constants that are their values."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from markergen.diagnostics import Diagnostic, diag
from markergen.doctext import description
from markergen.golang.literals import unquote
from markergen.golang.syntax import ConstSpec, GoFile, Position
from markergen.markers import (
    ENUM,
    K8S_ENUM,
    KUBEBUILDER_ENUM,
    OPENSHIFT_FEATURE_GATE_AWARE_ENUM,
    Marker,
    split_list,
)
from markergen.model import Enum, EnumValue, NamedType, TypeKey, TypeRef

ENUM_MARKERS = (ENUM, K8S_ENUM, KUBEBUILDER_ENUM)


@dataclass(frozen=True)
class PackageConsts:
    import_path: str
    file: GoFile
    consts: tuple[ConstSpec, ...]


def enum_marker(named: NamedType) -> str | None:
    for m in named.markers:
        if m.name in ENUM_MARKERS:
            return m.name
        if _gate_aware(m):
            return KUBEBUILDER_ENUM  # one kubebuilder Enum per feature gate
    return None


def _gate_aware(m: Marker) -> bool:
    return m.name.startswith(OPENSHIFT_FEATURE_GATE_AWARE_ENUM + ":")


def gate_aware_values(m: Marker) -> tuple[str, ...]:
    """The `enum=a;b` items of a FeatureGateAwareEnum line (() when there are none)."""
    _, found, rest = m.raw.partition(",enum=")
    if not found:
        return ()
    try:
        return split_list(rest.strip())
    except Exception:  # split_list's parse error is internal to markers: no values then
        return ()


def underlying_builtin(ref: TypeRef, types: Mapping[TypeKey, NamedType]) -> str | None:
    """The predeclared type behind a chain of named non-struct types, if any."""
    seen: set[TypeKey] = set()
    while ref.kind == "named":
        key = ref.type_key
        named = types.get(key)
        if named is None or key in seen:
            return None
        seen.add(key)
        ref = named.underlying
    return ref.name if ref.kind == "builtin" else None


_CONVERSION = re.compile(r"^\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\s*\((.*)\)\s*$", re.DOTALL)


def _conversion(spec: ConstSpec) -> tuple[str, str] | None:
    """`PathType("Exact")` / `AddressType(v1.IPv4Protocol)`: (type text, operand text)."""
    if spec.type is not None or not spec.value_text:
        return None
    match = _CONVERSION.match(spec.value_text)
    return (match.group(1), match.group(2).strip()) if match else None


def _type_text_key(text: str, pc: PackageConsts) -> TypeKey | None:
    head, dot, name = text.partition(".")
    if not dot:
        return f"{pc.import_path}.{text}"
    path = pc.file.import_path(head)
    return f"{path}.{name}" if path else None


def _const_type_key(spec: ConstSpec, pc: PackageConsts) -> TypeKey | None:
    if spec.type is None:
        conv = _conversion(spec)
        return _type_text_key(conv[0], pc) if conv else None
    if spec.type.kind == "ident":
        return f"{pc.import_path}.{spec.type.name}"
    if spec.type.kind == "qualified":
        path = pc.file.import_path(spec.type.package)
        return f"{path}.{spec.type.name}" if path else None
    return None


def _canonical(key: TypeKey, types: Mapping[TypeKey, NamedType]) -> TypeKey:
    """The type an alias chain ends at (`type ScopeType = v1.ScopeType` → v1.ScopeType)."""
    seen: set[TypeKey] = set()
    while key not in seen:
        seen.add(key)
        named = types.get(key)
        if named is None or not named.alias or named.underlying.kind != "named":
            break
        key = named.underlying.type_key
    return key


def _const_values(consts: Sequence[PackageConsts]) -> dict[tuple[str, str], str]:
    """(import path, const name) → string value, following references to other
    constants (`ClusterScope ScopeType = v1.ClusterScope`) across the inputs."""
    known: dict[tuple[str, str], str] = {}
    pending: list[tuple[PackageConsts, ConstSpec]] = []
    for pc in consts:
        for spec in pc.consts:
            if spec.value is not None:
                known[(pc.import_path, spec.name)] = spec.value
            elif spec.value_text:
                conv = _conversion(spec)
                operand = conv[1] if conv else spec.value_text
                try:
                    known[(pc.import_path, spec.name)] = unquote(operand)
                except ValueError:
                    pending.append((pc, spec))
    # Each pass resolves one more level of indirection; stop when a pass adds nothing.
    while pending:
        left = []
        for pc, spec in pending:
            conv = _conversion(spec)
            ref = _const_ref(conv[1] if conv else spec.value_text, pc)
            if ref is not None and ref in known:
                known[(pc.import_path, spec.name)] = known[ref]
            else:
                left.append((pc, spec))
        if len(left) == len(pending):
            break
        pending = left
    return known


def _const_ref(text: str, pc: PackageConsts) -> tuple[str, str] | None:
    text = text.strip()
    if text.isidentifier():
        return (pc.import_path, text)
    head, dot, name = text.partition(".")
    if dot and head.isidentifier() and name.isidentifier():
        path = pc.file.import_path(head)
        return (path, name) if path else None
    return None


def build_enums(
    types: Mapping[TypeKey, NamedType], consts: Sequence[PackageConsts]
) -> tuple[dict[TypeKey, Enum], list[Diagnostic]]:
    candidates = {
        key: named
        for key, named in types.items()
        if enum_marker(named) is not None and underlying_builtin(named.underlying, types) == "string"
    }
    const_values = _const_values(consts)
    # Values are collected per canonical type, so an alias of an enum type (a package
    # re-exporting another's enum) and the enum itself share their values.
    values: dict[TypeKey, list[EnumValue]] = defaultdict(list)
    diagnostics: list[Diagnostic] = []
    for pc in consts:
        blocks: dict[Position, list[ConstSpec]] = defaultdict(list)
        for spec in pc.consts:
            blocks[spec.block_pos].append(spec)
            key = _const_type_key(spec, pc)
            if key is None:
                continue
            value = const_values.get((pc.import_path, spec.name))
            if value is not None:
                values[_canonical(key, types)].append(
                    EnumValue(spec.name, value, description(spec.doc), spec.pos)
                )
        for specs in blocks.values():
            diagnostics.extend(_untyped_in_enum_block(specs, pc, candidates))
    enums: dict[TypeKey, Enum] = {}
    for key, named in sorted(candidates.items()):
        found = list(values.get(_canonical(key, types), ()))
        for m in named.markers:
            if _gate_aware(m):
                found.extend(EnumValue("", v, "", m.pos) for v in gate_aware_values(m))
            if m.name == KUBEBUILDER_ENUM:
                found.extend(EnumValue("", v, "", m.pos) for v in m.values)
        seen: set[str] = set()
        unique: list[EnumValue] = []
        for v in found:
            if v.value not in seen:
                seen.add(v.value)
                unique.append(v)
        source = enum_marker(named)
        enums[key] = Enum(
            key=key,
            name=named.name,
            package=named.package,
            values=tuple(unique),
            source="kubebuilder" if source == KUBEBUILDER_ENUM else
            (K8S_ENUM if source == K8S_ENUM else ENUM),
            pos=named.pos,
        )
    return enums, diagnostics


def _untyped_in_enum_block(
    specs: list[ConstSpec], pc: PackageConsts, enums: Mapping[TypeKey, NamedType]
) -> list[Diagnostic]:
    """MG103: kep/004's `Beta = "BETA"` next to `Alpha Union2Type = "ALPHA"`."""
    block_enums = [
        enums[k] for s in specs if (k := _const_type_key(s, pc)) is not None and k in enums
    ]
    if not block_enums:
        return []
    enum = block_enums[0]
    out = []
    for spec in specs:
        if spec.type is None and spec.value is not None:
            out.append(
                diag(
                    "MG103",
                    spec.pos,
                    f"constant {spec.name} = {spec.value_text} is untyped, so it is not a value "
                    f"of enum {enum.name} declared in the same const block",
                    hint=f"declare it as `{spec.name} {enum.name} = {spec.value_text}`",
                )
            )
    return out
