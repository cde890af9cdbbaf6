"""Enums: `+enum` / `+k8s:enum` / kubebuilder Enum string types and
the constants that are their values."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from markergen.diagnostics import Diagnostic, diag
from markergen.doctext import description
from markergen.golang.imports import Found
from markergen.golang.literals import unquote
from markergen.golang.syntax import ConstSpec, GoFile, Position
from markergen.markers import (
    ENUM,
    K8S_ENUM,
    K8S_ENUM_EXCLUDE,
    KUBEBUILDER_ENUM,
    OPENSHIFT_FEATURE_GATE_AWARE_ENUM,
    Marker,
    split_list,
)
from markergen.model import Enum, EnumExclusion, EnumValue, NamedType, TypeKey, TypeRef

ENUM_MARKERS = (ENUM, K8S_ENUM, KUBEBUILDER_ENUM)
NON_STRING_SCALARS = frozenset(
    {
        "bool", "int", "int8", "int16", "int32", "int64",
        "uint", "uint8", "uint16", "uint32", "uint64", "byte", "rune",
        "float32", "float64",
    }
)  # fmt: skip


@dataclass(frozen=True)
class PackageConsts:
    import_path: str
    file: GoFile
    consts: tuple[ConstSpec, ...]
    dir: str = ""  # the package's directory, where its imports are resolved from


class ImportSource(Protocol):
    """Imported packages' files on demand (markergen.golang.imports.ImportedPackages)."""

    @property
    def files_read(self) -> tuple[str, ...]: ...

    def load(
        self, import_path: str, from_dir: str, name: str
    ) -> tuple[tuple[GoFile, ...], Found]: ...


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


class _ConstValues:
    """(import path, const name) → string value, on demand: references to other
    constants (`ClusterScope ScopeType = v1.ClusterScope`, `AddressType(v1.IPv4Protocol)`)
    are followed across the inputs and, with `imports`, into the packages they import.
    An imported package is loaded only when an enum's constant refers to it."""

    def __init__(self, consts: Sequence[PackageConsts], imports: ImportSource | None) -> None:
        self.index: dict[tuple[str, str], tuple[PackageConsts, ConstSpec]] = {}
        self._add(consts)
        self.inputs = {pc.import_path for pc in consts}
        self.imports = imports
        self.requested: dict[tuple[str, str], Found] = {}
        self.memo: dict[tuple[str, str], str | None] = {}
        # A constant whose value could not be known because a package is missing:
        # (the missing constant's (import path, name), the places searched).
        self.missing: dict[tuple[str, str], tuple[tuple[str, str], tuple[str, ...]]] = {}

    def _add(self, consts: Sequence[PackageConsts]) -> None:
        for pc in consts:
            for spec in pc.consts:
                self.index.setdefault((pc.import_path, spec.name), (pc, spec))

    def value(self, pc: PackageConsts, spec: ConstSpec) -> str | None:
        key = (pc.import_path, spec.name)
        if key not in self.memo:
            self.memo[key] = None  # a reference cycle ends here (go rejects it anyway)
            self.memo[key] = self._evaluate(key, pc, spec)
        return self.memo[key]

    def _evaluate(self, key: tuple[str, str], pc: PackageConsts, spec: ConstSpec) -> str | None:
        if spec.value is not None:
            return spec.value
        if not spec.value_text:
            return None
        # `T(x)` and `T(T2(x))`: a conversion keeps a string constant's value.
        operand = spec.value_text
        while (match := _CONVERSION.match(operand)) is not None:
            operand = match.group(2).strip()
        try:
            return unquote(operand)
        except ValueError:
            pass
        ref = _const_ref(operand, pc)
        if ref is None:
            return None
        target = self._lookup(ref, pc)
        if target is None:
            where = self.requested.get(ref)
            # Nothing searched: a standard library package, nothing to report.
            if where is not None and where.directory is None and where.searched:
                self.missing[key] = (ref, where.searched)
            return None
        result = self.value(*target)
        if result is None and (target[0].import_path, target[1].name) in self.missing:
            self.missing[key] = self.missing[(target[0].import_path, target[1].name)]
        return result

    def _lookup(
        self, ref: tuple[str, str], pc: PackageConsts
    ) -> tuple[PackageConsts, ConstSpec] | None:
        path = ref[0]
        if (
            ref not in self.index
            and self.imports is not None
            and path not in self.inputs
            and ref not in self.requested
        ):
            files, found = self.imports.load(path, pc.dir, ref[1])
            self.requested[ref] = found
            if found.directory is not None:
                shown = found.directory.as_posix()
                self._add([PackageConsts(path, f, f.consts, shown) for f in files])
        return self.index.get(ref)


def _const_ref(text: str, pc: PackageConsts) -> tuple[str, str] | None:
    text = text.strip()
    if text.isidentifier():
        return (pc.import_path, text)
    head, dot, name = text.partition(".")
    if dot and head.isidentifier() and name.isidentifier():
        path = pc.file.import_path(head)
        return (path, name) if path else None
    return None


def _k8s_enum(named: NamedType | None) -> Marker | None:
    if named is None:
        return None
    return next((m for m in named.markers if m.name == K8S_ENUM), None)


def _exclusions(
    markers: Sequence[Marker],
) -> tuple[bool, tuple[EnumExclusion, ...]]:
    """validation-gen's reading of a constant's `+k8s:enumExclude` tags: excluded always
    (a bare tag), or under the conditions of the `ifEnabled` / `ifDisabled` around it."""
    always = False
    conditions: list[EnumExclusion] = []
    for m in markers:
        if m.name != K8S_ENUM_EXCLUDE or m.stage:
            continue  # validation-gen reads only a bare or option-wrapped enumExclude
        if m.gate:
            conditions.append(EnumExclusion(m.gate, not m.gate_disabled))
        else:
            always = True
    return always, tuple(conditions)


def build_enums(
    types: Mapping[TypeKey, NamedType],
    consts: Sequence[PackageConsts],
    imports: ImportSource | None = None,
    const_markers: Mapping[tuple[str, str], tuple[Marker, ...]] | None = None,
) -> tuple[dict[TypeKey, Enum], list[Diagnostic]]:
    """`const_markers`: the markers of the inputs' constants, by (import path, name);
    `+k8s:enumExclude` there takes a constant out of its `+k8s:enum` type."""
    const_markers = const_markers or {}
    candidates = {
        key: named
        for key, named in types.items()
        if (marker := enum_marker(named)) is not None
        and (
            (builtin := underlying_builtin(named.underlying, types)) == "string"
            # kubebuilder's Enum lists JSON values of any scalar type (`Enum=1;2;4`).
            or (marker == KUBEBUILDER_ENUM and builtin in NON_STRING_SCALARS)
        )
    }
    const_values = _ConstValues(consts, imports)
    wanted = {_canonical(key, types) for key in candidates}
    # Values are collected per canonical type, so an alias of an enum type (a package
    # re-exporting another's enum) and the enum itself share their values.
    values: dict[TypeKey, list[EnumValue]] = defaultdict(list)
    diagnostics: list[Diagnostic] = []
    incomplete: set[TypeKey] = set()
    for pc in consts:
        blocks: dict[Position, list[ConstSpec]] = defaultdict(list)
        for spec in pc.consts:
            blocks[spec.block_pos].append(spec)
            key = _const_type_key(spec, pc)
            marks = const_markers.get((pc.import_path, spec.name), ())
            excluded, exclusions = _exclusions(marks)
            if excluded or exclusions:
                canon = _canonical(key, types) if key is not None else None
                if canon is None or _k8s_enum(types.get(canon)) is None:
                    diagnostics.append(_exclude_without_enum(spec, marks, key, types))
                    excluded, exclusions = False, ()
            if key is None or (canonical := _canonical(key, types)) not in wanted:
                continue
            value = const_values.value(pc, spec)
            if value is not None:
                if not excluded:
                    values[canonical].append(
                        EnumValue(spec.name, value, description(spec.doc), spec.pos, exclusions)
                    )
                continue
            miss = const_values.missing.get((pc.import_path, spec.name))
            if miss is None:
                continue
            incomplete.add(canonical)
            (path, name), searched = miss
            diagnostics.append(
                diag(
                    "MG020",
                    spec.pos,
                    f"constant {spec.name} refers to {path}.{name}, but package {path} was "
                    f"not found (searched: {', '.join(searched)}), so enum "
                    f"{key.rsplit('.', 1)[-1]} is incomplete",
                    hint=f"make {path} available: `go mod vendor`, `go mod download`, or a "
                    "`replace` directive to a local copy in go.mod",
                )
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
            incomplete=_canonical(key, types) in incomplete,
            stage=k8s.stage if (k8s := _k8s_enum(named)) is not None else "",
        )
    return enums, diagnostics


def _exclude_without_enum(
    spec: ConstSpec,
    marks: Sequence[Marker],
    key: TypeKey | None,
    types: Mapping[TypeKey, NamedType],
) -> Diagnostic:
    """MG325: validation-gen reads `+k8s:enumExclude` only for a `+k8s:enum` type."""
    marker = next(m for m in marks if m.name == K8S_ENUM_EXCLUDE)
    named = types.get(key) if key is not None else None
    if named is not None:
        hint = (
            f"write `// +{K8S_ENUM}` above `type {named.name}`, or remove "
            f"`{marker.raw}` if {named.name} is no enum"
        )
        what = f"type {named.name} has no `+{K8S_ENUM}`"
    else:
        hint = f"give {spec.name} a `+{K8S_ENUM}` string type, or remove `{marker.raw}`"
        what = f"{spec.name} is no constant of a named type"
    return diag(
        "MG325",
        marker.pos,
        f"`+{K8S_ENUM_EXCLUDE}` on constant {spec.name} has no effect: {what}",
        hint=hint,
    )


def _untyped_in_enum_block(
    specs: list[ConstSpec], pc: PackageConsts, enums: Mapping[TypeKey, NamedType]
) -> list[Diagnostic]:
    """MG103: the current KEP's `Beta = "BETA"` next to `Alpha Union2Type = "ALPHA"`."""
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
