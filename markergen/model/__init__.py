"""The model: Go API types with their unions and enums, resolved across packages.

Built by `markergen.model.builder` from syntax records and markers; read by the rules and the
renderers. Everything is frozen: nothing downstream changes the model.
Type keys are `<import path>.<TypeName>` (e.g. `k8s.io/api/apps/v1.DeploymentStrategy`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from markergen.diagnostics import Diagnostic
from markergen.golang.syntax import FLOAT_TYPES, INT_TYPES, JSONTag, Position
from markergen.markers import Marker
from markergen.model.ignores import Ignore
from markergen.model.traits import TRAITS
from markergen.model.traits import Dialect as Dialect
from markergen.model.traits import DialectTraits as DialectTraits
from markergen.semantics import Semantics as Semantics

TypeKey = str

# Well-known types whose JSON is not their Go shape (custom marshalling in
# k8s.io/apimachinery and apiextensions), opaque even when their source is not loaded:
# `metav1.Duration` is "30s", `resource.Quantity` is 1048576 or "1Mi".
OPAQUE_TYPES: frozenset[TypeKey] = frozenset(
    {
        "k8s.io/apimachinery/pkg/apis/meta/v1.Time",
        "k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime",
        "k8s.io/apimachinery/pkg/apis/meta/v1.Duration",
        "k8s.io/apimachinery/pkg/apis/meta/v1.Fields",
        "k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1",
        "k8s.io/apimachinery/pkg/api/resource.Quantity",
        "k8s.io/apimachinery/pkg/util/intstr.IntOrString",
        "k8s.io/apimachinery/pkg/runtime.RawExtension",
        "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSON",
        "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1.JSON",
    }
)
Mode = Literal["exactly-one", "at-most-one", "at-least-one"]


RefKind = Literal[
    "builtin",  # string, int32, bool, []byte is slice of builtin byte ...
    "named",  # a type declared in one of the input packages (struct or not)
    "external",  # a type from a package that is not among the inputs
    "pointer",
    "slice",
    "array",
    "map",
    "struct",  # inline anonymous struct (rare in API types): treated as a plain object
    "interface",
    "unknown",  # anything else (func, chan, generics, unresolvable names)
]


@dataclass(frozen=True)
class TypeRef:
    """A resolved type expression."""

    kind: RefKind
    name: str = ""  # builtin name or type name
    package: str = ""  # import path (named, external)
    elem: TypeRef | None = None
    key: TypeRef | None = None  # map key
    text: str = ""  # as written in the source

    @property
    def type_key(self) -> TypeKey:
        return f"{self.package}.{self.name}"

    def deref(self) -> TypeRef:
        """The type behind any number of pointers."""
        ref = self
        while ref.kind == "pointer" and ref.elem is not None:
            ref = ref.elem
        return ref


@dataclass(frozen=True)
class Field:
    go_name: str
    json_name: str  # json tag name, else Go name; "" for inlined embedded fields
    type: TypeRef
    embedded: bool
    inline: bool  # embedded without json name, or json:",inline": its fields join the parent
    json: JSONTag
    exported: bool
    optional: bool  # as openapi-gen reads it: +optional / kubebuilder / omitempty without +required
    required_marker: bool  # an explicit +required / +k8s:required / kubebuilder Required
    markers: tuple[Marker, ...]
    description: str  # doc comment with marker lines removed
    patch_strategy: str  # from the patchStrategy tag or +patchStrategy, "" if none
    patch_merge_key: str
    list_type: str  # +listType
    list_map_keys: tuple[str, ...]  # +listMapKey (repeatable)
    default: str | None  # +default= / +kubebuilder:default= as written
    enum_values: tuple[str, ...]  # +kubebuilder:validation:Enum on the field
    pos: Position
    # openshift's `+openshift:validation:FeatureGateAwareEnum` lines on the field
    # (markergen.model.enums.field_enum combines them with the type's enum).
    enum_gates: tuple[GatedValues, ...] = ()

    def marker(self, name: str) -> Marker | None:
        for m in self.markers:
            if m.name == name:
                return m
        return None

    def all_markers(self, name: str) -> tuple[Marker, ...]:
        return tuple(m for m in self.markers if m.name == name)


@dataclass(frozen=True)
class GatedValues:
    """One `+openshift:validation:FeatureGateAwareEnum` line: the enum's values in a CRD
    variant whose feature gates satisfy it (openshift's CRD generator writes, per feature
    set, the values of every line whose gate condition holds)."""

    gate: str  # the gate names as written (`DualReplica`, `A;B`); "" on the ungated line
    required: bool  # `requiredFeatureGate=`: every gate named; `featureGate=`: any of them
    values: tuple[str, ...]
    pos: Position


@dataclass(frozen=True)
class EnumExclusion:
    """`+k8s:ifEnabled(option)=+k8s:enumExclude` (`when_enabled`) or
    `+k8s:ifDisabled(option)=+k8s:enumExclude` on an enum constant."""

    option: str
    when_enabled: bool


@dataclass(frozen=True)
class EnumValue:
    name: str  # Go constant name; "" for values from a kubebuilder list
    value: str
    description: str  # doc comment of the constant, markers removed
    pos: Position
    # The value leaves the enum when ANY of these holds (validation-gen's EnumExclusion);
    # an unconditional `+k8s:enumExclude` leaves it out of `Enum.values` altogether.
    exclusions: tuple[EnumExclusion, ...] = ()

    @property
    def excluded_without_options(self) -> bool:
        """Out of the enum when no option is enabled (an `ifDisabled` exclusion)."""
        return any(not x.when_enabled for x in self.exclusions)


@dataclass(frozen=True)
class Enum:
    key: TypeKey
    name: str
    package: str
    values: tuple[EnumValue, ...]  # in declaration order, deduplicated by value
    source: Literal["enum", "k8s:enum", "kubebuilder"]
    pos: Position  # the type's position
    # A value is another package's constant that could not be found (MG020).
    incomplete: bool = False
    stage: str = ""  # `+k8s:alpha=+k8s:enum` / `+k8s:beta=+k8s:enum`: its errors' stage
    # The JSON type of the values: "string", "boolean", "integer" or "number". Values
    # are kept as text (`"1"`, `"true"`); `json_values` gives them as JSON.
    type: str = "string"
    # Declared in a package that is not among the inputs (a field's type from an
    # import): used for the inputs' fields, never emitted nor checked itself.
    imported: bool = False
    # The server's rule (markergen.model.enums): with a `+kubebuilder:validation:Enum` list
    # (or openshift's FeatureGateAwareEnum lines) on the type, `values` are the listed
    # values, whatever constants exist; `constants` are always the type's constants.
    listed: bool = False
    constants: tuple[EnumValue, ...] = ()
    gates: tuple[GatedValues, ...] = ()  # the FeatureGateAwareEnum lines, if any
    list_pos: Position | None = None  # the list marker (the last one, as controller-gen)

    @property
    def value_set(self) -> tuple[str, ...]:
        return tuple(sorted({v.value for v in self.values}))

    @property
    def values_without_options(self) -> tuple[EnumValue, ...]:
        """The values an API server with no option enabled accepts (what OpenAPI lists)."""
        return tuple(v for v in self.values if not v.excluded_without_options)


def json_scalar(text: str, json_type: str) -> str | bool | int | float | None:
    """An enum value's text as the JSON value of its type (`"1"` of an integer enum is
    1, `"true"` of a boolean one is true); None when the text is not of the type."""
    text = text.strip() if json_type != "string" else text
    if json_type == "string":
        return text
    if json_type == "boolean":
        return {"true": True, "false": False}.get(text)
    try:
        if json_type == "integer":
            return int(text, 0)
        if json_type == "number":
            number = float(text)
            return int(number) if number.is_integer() and "." not in text else number
    except ValueError:
        return None
    return None


def scalar_json_type(builtin: str | None) -> str:
    """The JSON type of a predeclared Go type's values ("" for non-scalars)."""
    if builtin == "string":
        return "string"
    if builtin == "bool":
        return "boolean"
    if builtin in FLOAT_TYPES:
        return "number"
    if builtin in INT_TYPES:
        return "integer"
    return ""


@dataclass(frozen=True)
class Discriminator:
    go_name: str
    json_name: str
    type: TypeRef
    enum: TypeKey | None  # the enum type, when the values come from one
    values: tuple[str, ...]  # sorted, deduplicated enum values; () when there is no enum
    required: bool
    omitempty: bool
    default: str | None  # the +default= text as written; markers.default_string reads it
    pos: Position
    # The JSON type of the values ("string", "boolean", "integer", "number"): the
    # discriminator of `type Mode int32` enum compares numbers, never strings.
    value_type: str = "string"


@dataclass(frozen=True)
class Member:
    go_name: str
    json_name: str
    value: str  # the discriminator value that selects it
    optional: bool  # kep1027 `,optional`: the discriminator may select it while it is unset
    pos: Position
    # k8s: when validation-gen counts the member set (its Go type decides): "nil" (a
    # pointer: set when present and not null), "len" (a list or map: set when not
    # empty), "zero" (a builtin: set when not its zero value), "" (not known).
    zero: str = ""
    # k8s `+k8s:item(key: value)=`: the list item that is the member, as (key, JSON text of
    # the value) pairs; json_name is then validation-gen's name for it, `tasks[{"name": "a"}]`
    selector: tuple[tuple[str, str], ...] = ()


ModeRuleKind = Literal["required", "optional", "forbidden", "other"]


@dataclass(frozen=True)
class ModeRule:
    """One `+k8s:ifMode("value")=<tag>` of a mode union's field: in that mode the field is
    required, optional or forbidden (`other`: allowed, with a check markergen does not
    model, such as `+k8s:maxLength`). In a mode no rule of the field names, validation-gen
    forbids the field."""

    go_name: str
    json_name: str
    value: str
    rule: ModeRuleKind
    stage: str  # "alpha" / "beta" when the rule is wrapped in `+k8s:alpha=` / `+k8s:beta=`
    pos: Position


@dataclass(frozen=True)
class Union:
    struct: TypeKey
    dialect: Dialect
    # kep2019: "struct" (+union), "deprecated" (+unionDeprecated member-union),
    # "discriminated" for the other dialects
    origin: Literal["struct", "deprecated", "discriminated"]
    name: str  # k8s `union:` name, or the discriminator's Go name, or ""
    discriminator: Discriminator | None
    members: tuple[Member, ...]  # field order
    empty_values: tuple[str, ...]  # discriminator values that select no member (sorted)
    mode: Mode  # for unions without a discriminator
    semantics: Semantics
    pos: Position  # the marker that founded the union
    stage: str = ""
    gate: str = ""
    # A `+union` struct whose fields are mostly settings, not alternatives (MG360): what
    # openapi-gen writes keeps it, but nothing enforces it (runtime table, CRD rules).
    documentation: bool = False
    # Members whose discriminator value is no value of the discriminator (MG340): kept
    # for messages, left out of `members` so that no output builds a rule from them.
    unmatched: tuple[Member, ...] = ()
    # A 2019 `+union` struct with a discriminator lists every optional field in
    # openapi-gen's `x-kubernetes-unions`; markergen enforces only the fields named after a
    # discriminator value (`members`), the others being settings every variant shares
    # (envoyproxy/gateway's LoadBalancer: `slowStart`, `zoneAware` beside `consistentHash`).
    # Empty: OpenAPI lists `members`.
    listed: tuple[Member, ...] = ()
    gate_disabled: bool = False  # `+k8s:ifDisabled(gate)=`, not `ifEnabled`
    # A mode union (`+k8s:modeDiscriminator` with `+k8s:ifMode` fields): its rules, in
    # field then source order; `members` holds each field once, at its first rule's value.
    modes: tuple[ModeRule, ...] = ()
    # k8s path wrappers (`+k8s:subfield(s)=`, `+k8s:item(...)=`, `+k8s:eachVal=`): where
    # the union lives below the struct that declares it, as JSON names and "*" (each list
    # item or map value); empty for a union of the struct's own fields. Such a union is
    # kept in `Struct.wrapped`, not in `Struct.unions`.
    at: tuple[str, ...] = ()
    # its members are list items (`+k8s:item`): the node at `at` is the list
    items: bool = False
    # the node at `at` is a struct value held by a field, not a pointer: on update it
    # always has an old value (the zero struct when the old object leaves it out)
    at_value: bool = False

    @property
    def traits(self) -> DialectTraits:
        return TRAITS[self.dialect]

    @property
    def enforced_by(self) -> str:
        """The tool that already writes this union's CRD validation ("controller-gen"
        for `+kubebuilder:validation:ExactlyOneOf` and kin); `markergen crd` adds none."""
        return self.traits.enforced_by


@dataclass(frozen=True)
class Struct:
    key: TypeKey
    name: str
    package: str
    fields: tuple[Field, ...]
    unions: tuple[Union, ...]  # the struct's own unions, in openapi-gen order
    markers: tuple[Marker, ...]
    description: str
    pos: Position
    # k8s unions written through path wrappers on the struct's fields (Union.at): only
    # the runtime table and the CRD rules read them
    wrapped: tuple[Union, ...] = ()

    def field(self, go_name: str) -> Field | None:
        for f in self.fields:
            if f.go_name == go_name:
                return f
        return None


@dataclass(frozen=True)
class NamedType:
    """A non-struct type declaration (`type X string`, `type A = B`)."""

    key: TypeKey
    name: str
    package: str
    underlying: TypeRef
    alias: bool
    markers: tuple[Marker, ...]
    description: str
    pos: Position


@dataclass(frozen=True)
class Package:
    import_path: str
    name: str
    dir: str
    module_root: str | None
    markers: tuple[Marker, ...]  # package doc markers (+groupName=...)
    files: tuple[str, ...]
    go_version: str = ""  # the module's go.mod `go` directive ("1.22"), "" without one

    @property
    def group_name(self) -> str | None:
        for m in self.markers:
            if m.name == "groupName":
                return m.value
        return None


@dataclass(frozen=True)
class Model:
    packages: tuple[Package, ...]
    structs: dict[TypeKey, Struct] = field(default_factory=dict)
    types: dict[TypeKey, NamedType] = field(default_factory=dict)
    enums: dict[TypeKey, Enum] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()  # from reading and building (MG001-MG005, ...)
    ignores: tuple[Ignore, ...] = ()  # the `// markergen:ignore` comments of the inputs
    # Types whose JSON is their own (custom MarshalJSON/UnmarshalJSON/MarshalText, or
    # one of OPAQUE_TYPES): nothing may assume their Go shape.
    opaque: frozenset[TypeKey] = frozenset()
    # The enum types of imported packages that the inputs' fields use (`corev1.Protocol`):
    # their enums are in `enums` (imported=True); never emitted nor checked themselves.
    imported: dict[TypeKey, NamedType] = field(default_factory=dict)
    # Every file read to build this model (inputs, imported packages, go.mod/go.work),
    # for the cache key: an edit in a shared package must invalidate it.
    files_read: tuple[str, ...] = ()

    def is_opaque(self, key: TypeKey) -> bool:
        return key in self.opaque or key in OPAQUE_TYPES
