"""Enums: `+enum` / `+k8s:enum` / kubebuilder Enum string types and their values, as
the API server enforces them.

The one rule (docs/openapi.md, "Enums"): a `+kubebuilder:validation:Enum` list (or
openshift's `+openshift:validation:FeatureGateAwareEnum` lines, the union of their values)
is the type's enum whatever constants exist, since controller-gen writes the list and
the API server enforces the CRD; a `+enum` / `+k8s:enum` type's values are its constants.
A field's own list and its type's enum are both enforced (controller-gen writes the
type's under `allOf`): `field_enum` gives their intersection. Every output reads these.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from markergen import hints
from markergen.diagnostics import Diagnostic, diag
from markergen.doctext import description
from markergen.golang.constexpr import BASIC, Const, declared, evaluate
from markergen.golang.imports import Found, is_standard
from markergen.golang.syntax import (
    CommentGroup,
    ConstSpec,
    GoFile,
    Position,
    TypeDecl,
    TypeExpr,
)
from markergen.markers import (
    ENUM,
    K8S_ENUM,
    K8S_ENUM_EXCLUDE,
    KUBEBUILDER_ENUM,
    OPENSHIFT_FEATURE_GATE_AWARE_ENUM,
    Marker,
    parse_group,
    split_list,
)
from markergen.model import (
    OPAQUE_TYPES,
    Enum,
    EnumExclusion,
    EnumValue,
    Field,
    GatedValues,
    NamedType,
    TypeKey,
    TypeRef,
    json_scalar,
    scalar_json_type,
)

ENUM_MARKERS = (ENUM, K8S_ENUM, KUBEBUILDER_ENUM)


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
        self, import_path: str, from_dir: str, name: str, patterns: tuple[bytes, ...] = ()
    ) -> tuple[tuple[GoFile, ...], Found]: ...


def enum_marker(named: NamedType) -> str | None:
    for m in named.markers:
        if _controller_gen_only(m) and m.in_block:
            continue  # controller-gen reads no marker in a `/* */` comment
        if m.name in ENUM_MARKERS:
            return m.name
        if _gate_aware(m):
            return KUBEBUILDER_ENUM  # one kubebuilder Enum per feature gate
    return None


def _controller_gen_only(m: Marker) -> bool:
    """A marker only controller-gen (and generators built on it) reads."""
    return m.name == KUBEBUILDER_ENUM or _gate_aware(m)


def _listed(named: NamedType) -> bool:
    """The type's values are a list (controller-gen's or openshift's), not its constants."""
    return any(_controller_gen_only(m) and not m.in_block for m in named.markers)


def _gate_aware(m: Marker) -> bool:
    return m.name.startswith(OPENSHIFT_FEATURE_GATE_AWARE_ENUM + ":")


def gate_lines(markers: Iterable[Marker]) -> tuple[GatedValues, ...]:
    """openshift's `+openshift:validation:FeatureGateAwareEnum:featureGate=G,enum=a;b` (or
    `requiredFeatureGate=A;B,enum=...`) lines, on a type or a field, in order. The
    marker's name ends at `featureGate`; its value is `G,enum=a;b`."""
    out: list[GatedValues] = []
    for m in markers:
        if not _gate_aware(m) or m.in_block:
            continue
        gate, found, rest = (m.value or "").partition(",enum=")
        if not found:
            continue
        try:
            values = split_list(rest.strip())
        except Exception:  # split_list's parse error is internal to markers: no values then
            continue
        gate = gate.strip()
        if gate in ('""', "``"):
            gate = ""
        required = m.name.endswith(":requiredFeatureGate")
        out.append(GatedValues(gate, required, values, m.pos))
    return tuple(out)


# gateway-api's own CRD generator (tools/generator) reads doc-comment tags
# `<gateway:experimental:validation:Enum=A;B>` and replaces the field's enum with them in
# that channel's CRDs: a gate whose name is the channel.
_CHANNEL_ENUM = re.compile(r"<gateway:(\w+):validation:Enum=([A-Za-z;]*)>")


def channel_lines(doc: CommentGroup | None) -> tuple[GatedValues, ...]:
    """gateway-api's channel enum tags in a field's doc comment, as gated values."""
    if doc is None:
        return ()
    texts = doc.texts
    if "<gateway:" not in "\n".join(texts):
        return ()  # nearly every doc: one search of the whole comment
    out: list[GatedValues] = []
    for index, text in enumerate(texts):
        if "<gateway:" not in text:
            continue
        line = doc.line(index)
        for m in _CHANNEL_ENUM.finditer(line.text):
            values = tuple(v for v in m.group(2).split(";") if v)
            out.append(GatedValues(f"gateway:{m.group(1)}", False, values, line.pos))
    return tuple(out)


def detached_enum_markers(
    extra: CommentGroup | None, markers: Sequence[Marker]
) -> tuple[Marker, ...]:
    """The enum markers (Enum, FeatureGateAwareEnum) of the comment group one blank line
    above a field's doc, which controller-gen reads as the field's (hypershift writes
    `+kubebuilder:validation:Enum` there); only when the doc has none of its own. Other
    markers of that group are not taken: openapi-gen reads the doc alone."""
    if extra is None or any(_controller_gen_only(m) for m in markers):
        return ()
    found, _ = parse_group(extra)
    return tuple(m for m in found if _controller_gen_only(m) and not m.in_block)


def gated_union(gates: Sequence[GatedValues]) -> tuple[str, ...]:
    """Every value of any line, in first-seen order: the enum of a CRD variant with
    every gate enabled."""
    return tuple(dict.fromkeys(v for g in gates for v in g.values))


def gated_floor(gates: Sequence[GatedValues]) -> tuple[str, ...]:
    """The values of the ungated lines: what a variant with no gate enabled accepts."""
    return tuple(dict.fromkeys(v for g in gates if not g.gate for v in g.values))


def list_marker(markers: Iterable[Marker]) -> Marker | None:
    """The `+kubebuilder:validation:Enum` list in force: the last one, as controller-gen
    keeps the last value of a marker written twice."""
    found = None
    for m in markers:
        if m.name == KUBEBUILDER_ENUM and not m.via and not m.in_block:
            found = m
    return found


@dataclass(frozen=True, slots=True)
class FieldEnum:
    """The enum the API server enforces at one field: the type's enum, the field's own
    list, or both. controller-gen writes a field list and its type's list both (the
    second under `allOf`), so a value must be in each: their intersection."""

    values: tuple[str, ...]  # sorted; accepted with every feature gate enabled
    floor: tuple[str, ...]  # sorted; accepted with no feature gate enabled (== values ungated)
    field_list: tuple[str, ...] | None  # the field's own list, when it has one
    type_values: tuple[str, ...] | None  # the type's enum values, when it has an enum
    gated: bool  # FeatureGateAwareEnum lines decide some values

    @property
    def outside_type(self) -> tuple[str, ...]:
        """Values the field's list names that its type's enum rejects (never accepted)."""
        if self.field_list is None or self.type_values is None:
            return ()
        return tuple(sorted(set(self.field_list) - set(self.type_values)))


def field_list(f: Field) -> tuple[tuple[str, ...], tuple[str, ...], bool] | None:
    """The field's own enum (values, floor, gated), from its Enum list and its gated
    lines; None without either. A generator that reads gated lines writes, per variant,
    the values of the lines whose gates it enables in place of the field's list (openshift,
    gateway-api's channels), so the list and the ungated lines are the floor and the
    values are the union of all."""
    if not f.enum_gates:
        return (f.enum_values, f.enum_values, False) if f.enum_values else None
    floor = tuple(dict.fromkeys((*f.enum_values, *gated_floor(f.enum_gates))))
    values = tuple(dict.fromkeys((*floor, *gated_union(f.enum_gates))))
    return values, floor, True


def field_enum(f: Field, type_enum: Enum | None) -> FieldEnum | None:
    """The server's enum at field `f` whose type's enum (through pointers and named
    types) is `type_enum`; None when neither says anything (an incomplete type enum,
    MG020, says nothing: its known values alone would reject valid objects)."""
    own = field_list(f)
    if type_enum is not None and type_enum.incomplete:
        type_enum = None
    if own is None and type_enum is None:
        return None
    type_values = tuple(v.value for v in type_enum.values) if type_enum else None
    type_floor = enum_floor(type_enum) if type_enum else None
    if own is None:
        assert type_values is not None and type_floor is not None
        return FieldEnum(
            tuple(sorted(set(type_values))),
            tuple(sorted(set(type_floor))),
            None,
            type_values,
            bool(type_enum and type_enum.gates),
        )
    values, floor, gated = own
    if type_values is not None and type_floor is not None:
        values = tuple(v for v in values if v in type_values)
        floor = tuple(v for v in floor if v in type_floor)
        gated = gated or bool(type_enum and type_enum.gates)
    return FieldEnum(
        tuple(sorted(set(values))), tuple(sorted(set(floor))), own[0], type_values, gated
    )


def enum_floor(enum: Enum) -> tuple[str, ...]:
    """The values of `enum` accepted with no feature gate enabled: those of its Enum list
    and its ungated lines (a value only a gated line names is not)."""
    values = tuple(v.value for v in enum.values)
    if not enum.gates:
        return values
    ungated = set(gated_floor(enum.gates))
    gated = {v for g in enum.gates if g.gate for v in g.values}
    return tuple(v for v in values if v in ungated or v not in gated)


def type_enum_of(
    ref: TypeRef, types: Mapping[TypeKey, NamedType], enums: Mapping[TypeKey, Enum]
) -> Enum | None:
    """The first enum met from a field's type through pointers and named non-struct
    types (as controller-gen flattens them into the field's schema); not through
    lists or maps."""
    seen: set[TypeKey] = set()
    while True:
        ref = ref.deref()
        if ref.kind not in ("named", "external") or ref.type_key in seen:
            return None
        key = ref.type_key
        seen.add(key)
        if key in enums:
            return enums[key]
        named = types.get(key)
        if named is None:
            return None
        ref = named.underlying


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
    return _type_expr_key(spec.type, pc)


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
    """(import path, const name) → constant, on demand, as go/types computes it: iota,
    implicit repetition, arithmetic, conversions, and references to other constants
    across the inputs and, with `imports`, into the packages they import. An imported
    package is loaded only when an enum's constant or a field's type refers to it."""

    def __init__(
        self,
        consts: Sequence[PackageConsts],
        types: Mapping[TypeKey, NamedType],
        imports: ImportSource | None,
    ) -> None:
        self.index: dict[tuple[str, str], tuple[PackageConsts, ConstSpec]] = {}
        self.type_decls: dict[tuple[str, str], tuple[PackageConsts, TypeDecl]] = {}
        self.types = types
        self._add(consts)
        self.inputs = {pc.import_path for pc in consts}
        self.imports = imports
        self.loaded: list[PackageConsts] = []  # imported packages' files, in load order
        self.requested: dict[tuple[str, str], Found] = {}
        self.memo: dict[tuple[str, str], Const | None] = {}
        # A constant whose value could not be known because a package is missing:
        # (the missing constant's (import path, name), the places searched).
        self.missing: dict[tuple[str, str], tuple[tuple[str, str], tuple[str, ...]]] = {}

    def _add(self, consts: Sequence[PackageConsts], with_types: bool = False) -> None:
        for pc in consts:
            for spec in pc.consts:
                self.index.setdefault((pc.import_path, spec.name), (pc, spec))
            if with_types:
                for decl in pc.file.types:
                    self.type_decls.setdefault((pc.import_path, decl.name), (pc, decl))

    def value(self, pc: PackageConsts, spec: ConstSpec, load: bool = True) -> Const | None:
        key = (pc.import_path, spec.name)
        if key not in self.memo:
            self.memo[key] = None  # a reference cycle ends here (go rejects it anyway)
            result = self._evaluate(key, pc, spec, load)
            if result is None and not load:
                del self.memo[key]  # may be known once imports are followed
                return None
            self.memo[key] = result
        return self.memo[key]

    def _evaluate(
        self, key: tuple[str, str], pc: PackageConsts, spec: ConstSpec, load: bool
    ) -> Const | None:
        scope: _Scope | None = None
        if spec.value is not None:
            # A string literal (`A T = "a"`): what `evaluate` makes of its text, the
            # literal's string, untyped; most enum constants are these.
            result: Const | None = Const(spec.value)
            if spec.type is None:
                return result  # the common case, an untyped string literal
        elif not spec.value_text:
            return None
        else:
            scope = _Scope(self, pc, load)
            result = evaluate(spec.value_text, scope, spec.iota)
        if result is not None and spec.type is not None:
            type_key = _type_expr_key(spec.type, pc)
            if type_key is None:
                return None
            result = declared(result, type_key, self.basic(type_key, pc.dir, load))
        if result is None and scope is not None and scope.missing is not None:
            self.missing[key] = scope.missing
        return result

    def basic(self, type_key: TypeKey, from_dir: str, load: bool = True) -> str:
        """The predeclared type under a named type ("" when it cannot be seen)."""
        seen: set[str] = set()
        while type_key not in seen:
            seen.add(type_key)
            if type_key in BASIC:
                return type_key
            named = self.types.get(type_key)
            if named is not None:
                ref = named.underlying
                if ref.kind == "builtin":
                    return ref.name
                if ref.kind not in ("named", "external"):
                    return ""
                type_key = ref.type_key
                continue
            path, _, name = type_key.rpartition(".")
            found = self.type_decl((path, name), from_dir, load)
            if found is None:
                return ""
            pc, decl = found
            next_key = _type_expr_key(decl.type, pc)
            if next_key is None:
                return ""
            type_key, from_dir = next_key, pc.dir
        return ""

    def type_decl(
        self,
        ref: tuple[str, str],
        from_dir: str,
        load: bool = True,
        patterns: tuple[bytes, ...] = (),
    ) -> tuple[PackageConsts, TypeDecl] | None:
        """A type declared in an imported package (None for the inputs' own types).
        Only files matching every one of `patterns` are parsed to find it."""
        if ref not in self.type_decls and load and ref[0] not in self.inputs:
            self._load(ref, from_dir, (_decl_pattern(ref[1]), *patterns))
        return self.type_decls.get(ref)

    def load_all(self, path: str, from_dir: str, name: str) -> None:
        """Every file of an imported package that mentions `name` in a const declaration."""
        self._load((path, name), from_dir, (rb"\bconst\b",))

    def _load(
        self, ref: tuple[str, str], from_dir: str, patterns: tuple[bytes, ...] = ()
    ) -> Found | None:
        if self.imports is None or is_standard(ref[0]):
            return None
        files, found = self.imports.load(ref[0], from_dir, ref[1], patterns)
        self.requested.setdefault(ref, found)
        if found.directory is not None:
            shown = found.directory.as_posix()
            loaded = [PackageConsts(ref[0], f, f.consts, shown) for f in files]
            self.loaded += loaded
            self._add(loaded, with_types=True)
        return found

    def lookup(
        self, ref: tuple[str, str], pc: PackageConsts, load: bool
    ) -> tuple[PackageConsts, ConstSpec] | None:
        if (
            ref not in self.index
            and load
            and ref[0] not in self.inputs
            and ref not in self.requested
        ):
            self._load(ref, pc.dir)
        return self.index.get(ref)


class _Scope:
    """The names of one file's constant expressions (markergen.golang.constexpr.Scope)."""

    def __init__(self, values: _ConstValues, pc: PackageConsts, load: bool) -> None:
        self.values = values
        self.pc = pc
        self.load = load
        self.missing: tuple[tuple[str, str], tuple[str, ...]] | None = None

    def _path(self, qualifier: str) -> str | None:
        return self.pc.import_path if not qualifier else self.pc.file.import_path(qualifier)

    def constant(self, qualifier: str, name: str) -> Const | None:
        path = self._path(qualifier)
        if path is None:
            return None
        ref = (path, name)
        target = self.values.lookup(ref, self.pc, self.load)
        if target is None:
            where = self.values.requested.get(ref)
            # Nothing searched: a standard library package, nothing to report.
            if where is not None and where.directory is None and where.searched:
                self.missing = (ref, where.searched)
            return None
        result = self.values.value(*target, load=self.load)
        if result is None:
            inner = (target[0].import_path, target[1].name)
            self.missing = self.values.missing.get(inner, self.missing)
        return result

    def type_name(self, qualifier: str, name: str) -> tuple[str, str] | None:
        path = self._path(qualifier)
        if path is None:
            return None
        key = f"{path}.{name}"
        return key, self.values.basic(key, self.pc.dir, self.load)


def _type_expr_key(expr: TypeExpr, pc: PackageConsts) -> TypeKey | None:
    """The type key of a declared type (`T`, `pkg.T`, a predeclared name as itself)."""
    if expr.kind == "ident" and not expr.package:
        return expr.name if expr.name in BASIC else f"{pc.import_path}.{expr.name}"
    if expr.kind == "qualified":
        path = pc.file.import_path(expr.package)
        return f"{path}.{expr.name}" if path else None
    return None




def enum_text(value: Const, json_type: str) -> str | None:
    """A constant as the model's enum value text, None when it is not of the enum's
    JSON type (`"1"` is no value of an integer enum, `true` none of a string one)."""
    v = value.value
    if json_type == "string":
        return v if isinstance(v, str) else None
    if json_type == "boolean":
        return ("true" if v else "false") if isinstance(v, bool) else None
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    if json_type == "integer":
        return str(int(v)) if isinstance(v, int) or v.is_integer() else None
    return json.dumps(float(v))


# A non-struct type declaration line: `type Name string`, `Name int32` in a type
# block, `type Name = pkg.T`; struct and interface types end in `{`.
def _decl_pattern(name: str) -> bytes:
    return (
        rb"(?m)^[ \t]*(?:type[ \t]+)?"
        + re.escape(name).encode()
        + rb"[ \t]+=?[ \t]*[\w.]+[ \t]*(?://.*)?$"
    )


_ENUM_WORDS = re.compile(
    b"\\+(?:"
    + b"|".join(
        re.escape(m).encode()
        for m in (K8S_ENUM, KUBEBUILDER_ENUM, OPENSHIFT_FEATURE_GATE_AWARE_ENUM, ENUM)
    )
    + b")"
)


def external_refs(ref: TypeRef, out: set[TypeKey]) -> None:
    """The types of other packages a field's values may be (through pointers, items
    and map values), as enums are attached to them."""
    while ref.kind in ("pointer", "slice", "array", "map") and ref.elem is not None:
        ref = ref.elem
    if ref.kind == "external" and not is_standard(ref.package) and ref.type_key not in OPAQUE_TYPES:
        out.add(ref.type_key)


MarkerRead = Callable[[TypeDecl], tuple[Marker, ...]]


def _imported_enums(
    wanted: Iterable[TypeKey],
    from_dirs: Mapping[TypeKey, str],
    const_values: _ConstValues,
    read_markers: MarkerRead,
    resolve: Callable[[PackageConsts, TypeDecl], TypeRef],
) -> dict[TypeKey, NamedType]:
    """The enum types of imported packages that input fields use, as named types."""
    out: dict[TypeKey, NamedType] = {}
    for key in sorted(wanted):
        path, _, name = key.rpartition(".")
        found = const_values.type_decl(
            (path, name), from_dirs[key], patterns=(_decl_pattern(name), _ENUM_WORDS.pattern)
        )
        if found is None:
            continue
        pc, decl = found
        if decl.type.kind in ("struct", "interface"):
            continue
        named = NamedType(
            key=key,
            name=name,
            package=path,
            underlying=resolve(pc, decl),
            alias=decl.alias,
            markers=read_markers(decl),
            description=description(decl.doc),
            pos=decl.pos,
        )
        if enum_marker(named) is None:
            continue
        out[key] = named
        # Its constants may be in files that do not hold the type's declaration.
        const_values.load_all(path, from_dirs[key], name)
    return out


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
            f"add `// +{K8S_ENUM}` above {named.name} (or remove `{marker.raw}` if "
            f"{named.name} is no enum)"
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


def build_enums(
    types: Mapping[TypeKey, NamedType],
    consts: Sequence[PackageConsts],
    imports: ImportSource | None = None,
    fields_external: Mapping[TypeKey, str] | None = None,
    read_markers: MarkerRead | None = None,
    resolve: Callable[[PackageConsts, TypeDecl], TypeRef] | None = None,
    const_markers: Mapping[tuple[str, str], tuple[Marker, ...]] | None = None,
) -> tuple[dict[TypeKey, Enum], dict[TypeKey, NamedType], list[Diagnostic]]:
    """Enums of the inputs' types, and of the imported types that input fields use
    (`fields_external`: type key → the directory of a package that uses it); returns
    the enums, the imported enum types, and the diagnostics. `const_markers`: the
    markers of the inputs' constants, by (import path, name); `+k8s:enumExclude` there
    takes a constant out of its `+k8s:enum` type."""
    const_markers = const_markers or {}
    const_values = _ConstValues(consts, types, imports)
    imported: dict[TypeKey, NamedType] = {}
    if fields_external and imports is not None and read_markers is not None and resolve:
        imported = _imported_enums(
            fields_external, fields_external, const_values, read_markers, resolve
        )
    all_types = {**imported, **types}

    def builtin_of(named: NamedType) -> str | None:
        if named.key in imported:
            return const_values.basic(named.key, "") or None
        return underlying_builtin(named.underlying, types)

    candidates: dict[TypeKey, tuple[NamedType, str]] = {}
    for type_key, named in all_types.items():
        if enum_marker(named) is None:
            continue
        scalar = scalar_json_type(builtin_of(named))
        if scalar:
            candidates[type_key] = (named, scalar)
    wanted = {_canonical(key, types): jt for key, (_, jt) in candidates.items()}
    # built once, not per const block: a dict of every enum per block was quadratic
    # (0.6 s at 10,000 types)
    candidate_types = {k: n for k, (n, _) in candidates.items()}
    # MG103 is about enums whose values are their constants (`+enum`, `+k8s:enum`): an
    # untyped one beside them was likely meant as a value. A `+kubebuilder:validation:Enum`
    # list names its values itself, so constants sharing the block (cluster-api's
    # annotation keys beside MachineDeploymentRolloutStrategyType) cannot be missing ones.
    by_constants = {
        k: n for k, n in candidate_types.items() if enum_marker(n) in (ENUM, K8S_ENUM)
    }
    # Values are collected per canonical type, so an alias of an enum type (a package
    # re-exporting another's enum) and the enum itself share their values.
    values: dict[TypeKey, list[EnumValue]] = defaultdict(list)
    diagnostics: list[Diagnostic] = []
    incomplete: set[TypeKey] = set()
    sources = list(consts) + const_values.loaded
    for pc in sources:
        is_input = pc.import_path in const_values.inputs
        blocks: dict[Position, list[ConstSpec]] = defaultdict(list)
        for spec in pc.consts:
            if is_input:
                blocks[spec.block_pos].append(spec)
            if spec.name == "_":
                continue  # the blank identifier declares nothing (it only counts for iota)
            key = _const_type_key(spec, pc)
            marks = const_markers.get((pc.import_path, spec.name), ()) if is_input else ()
            excluded, exclusions = _exclusions(marks)
            if excluded or exclusions:
                canon = _canonical(key, types) if key is not None else None
                if canon is None or _k8s_enum(all_types.get(canon)) is None:
                    diagnostics.append(_exclude_without_enum(spec, marks, key, all_types))
                    excluded, exclusions = False, ()
            if key is not None and key not in wanted and _canonical(key, types) not in wanted:
                continue
            if key is None and (spec.type is not None or spec.value is not None):
                continue  # untyped literal: no enum's value
            # An untyped constant takes the type of a typed constant it refers to
            # (go/types); imports are followed only for an enum's own constants.
            value = const_values.value(pc, spec, load=key is not None)
            if value is None:
                miss = const_values.missing.get((pc.import_path, spec.name))
                if miss is None or key is None:
                    continue
                canonical = _canonical(key, types)
                incomplete.add(canonical)
                if not is_input:
                    continue  # an imported package is never checked: incomplete is all
                (path, name), searched = miss
                diagnostics.append(
                    diag(
                        "MG020",
                        spec.pos,
                        f"constant {spec.name} refers to {path}.{name}, but package {path} "
                        f"was not found (searched: {', '.join(searched)}), so enum "
                        f"{key.rsplit('.', 1)[-1]} is incomplete",
                        hint=f"make {path} available: `go mod vendor`, `go mod download`, "
                        "or a `replace` directive to a local copy in go.mod",
                    )
                )
                continue
            canonical = _canonical(value.type or key or "", types)
            json_type = wanted.get(canonical)
            if json_type is None:
                continue
            text = enum_text(value, json_type)
            if text is not None and not excluded:
                values[canonical].append(
                    EnumValue(spec.name, text, description(spec.doc), spec.pos, exclusions)
                )
        for specs in blocks.values():
            diagnostics.extend(_untyped_in_enum_block(specs, pc, by_constants))
    enums: dict[TypeKey, Enum] = {}
    for key, (named, json_type) in sorted(candidates.items()):
        constants = _unique(values.get(_canonical(key, types), ()))
        listed = _listed(named)
        gates = gate_lines(named.markers)
        marker = list_marker(named.markers)
        found = constants
        if listed:
            found = _listed_values(marker, gates, constants, json_type)
        source = enum_marker(named)
        enums[key] = Enum(
            key=key,
            name=named.name,
            package=named.package,
            values=found,
            source="kubebuilder" if listed or source == KUBEBUILDER_ENUM else
            (K8S_ENUM if source == K8S_ENUM else ENUM),
            pos=named.pos,
            incomplete=_canonical(key, types) in incomplete and not listed,
            type=json_type,
            imported=key in imported,
            stage=k8s.stage if (k8s := _k8s_enum(named)) is not None else "",
            listed=listed,
            constants=constants,
            gates=gates,
            list_pos=marker.pos if marker is not None else (gates[0].pos if gates else None),
        )
    return enums, imported, diagnostics


def _unique(found: Iterable[EnumValue]) -> tuple[EnumValue, ...]:
    seen: set[str] = set()
    unique: list[EnumValue] = []
    for v in found:
        if v.value not in seen:
            seen.add(v.value)
            unique.append(v)
    return tuple(unique)


def _listed_values(
    marker: Marker | None,
    gates: Sequence[GatedValues],
    constants: Sequence[EnumValue],
    json_type: str,
) -> tuple[EnumValue, ...]:
    """A listed enum's values, in list order: the Enum list, then the values the
    FeatureGateAwareEnum lines add. A value that a constant holds takes its name and
    description (the enum paragraph of OpenAPI quotes them)."""
    by_value = {json.dumps(json_scalar(c.value, json_type)): c for c in constants}
    # as for a field (field_list): the list and every gated line's values
    chosen: dict[str, Position] = {}
    if marker is not None:
        for v in marker.values:
            chosen.setdefault(v, marker.pos)
    for g in gates:
        for v in g.values:
            chosen.setdefault(v, g.pos)
    out: list[EnumValue] = []
    for text, pos in chosen.items():
        const = by_value.get(json.dumps(json_scalar(text, json_type)))
        out.append(const if const is not None else EnumValue("", text, "", pos))
    return _unique(out)


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
    typed = [s.value for s in specs if s.type is not None and s.value]
    out = []
    for spec in specs:
        if spec.type is None and spec.value is not None:
            typed_it = hints.replace(f"{spec.name} {enum.name}", spec.name)
            move = (
                f"move `{spec.name} = {spec.value_text}` out of the const block, to "
                f"`const {spec.name} = {spec.value_text}` after it"
            )
            # A value written like the enum's own values is one of them (the KEP's
            # `Beta = "BETA"` beside "ALPHA"); one written otherwise (openshift's
            # container name "logs" beside "Container") only shares the block.
            alike = not typed or any(_shape(v) == _shape(spec.value) for v in typed)
            out.append(
                diag(
                    "MG103",
                    spec.pos,
                    f"constant {spec.name} = {spec.value_text} is untyped, so it is not a value "
                    f"of enum {enum.name} declared in the same const block",
                    hint=hints.edits(typed_it, otherwise=move)
                    if alike
                    else f"{move} (or {typed_it} if it is a value of the enum)",
                )
            )
    return out


def _shape(value: str) -> tuple[bool, bool]:
    """How a value is written: starts upper-case, all upper-case."""
    return (value[:1].isupper(), value.isupper())
