"""Enum rules: MG101 (enum marker on a non-scalar type), MG021 (on a non-string scalar
type), MG102 (enum with no values); MG105-MG107, where the Go disagrees with the enum the
API server enforces (markergen.model.enums): a constant outside its type's list, a field
list naming values its type's enum rejects, a union member selected by such a value.

The current KEP "Discriminator Values": discriminators "should be defined as an enum, and should
be tagged so via the enum go marker // +enum", and an enum is a string type whose values
are the constants of that type. markergen also reads enums of bool, integer and float
types (their values typed as JSON booleans and numbers), which openapi-gen and
validation-gen ignore: MG021 says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from markergen import hints
from markergen.diagnostics import Diagnostic, diag
from markergen.golang.syntax import Position
from markergen.markers import ENUM, K8S_ENUM, KUBEBUILDER_ENUM, Marker
from markergen.model import Enum, Field, Model, Struct, TypeRef, Union, scalar_json_type
from markergen.model.dialects.base import named_underlying
from markergen.model.enums import field_enum, gate_lines, list_marker, type_enum_of
from markergen.model.ignores import DIRECTIVE as IGNORE_DIRECTIVE
from markergen.rules.base import Rule, quoted, union_label, unions, value_pos

ENUM_TYPE_MARKERS = (ENUM, K8S_ENUM)


def check_enum_not_string(model: Model) -> Iterator[Diagnostic]:
    """MG101. The builder leaves such types out of Model.enums, so look at the markers."""
    for key in sorted(model.types):
        named = model.types[key]
        marker = next((m for m in named.markers if m.name in ENUM_TYPE_MARKERS), None)
        if marker is None or key in model.enums:
            continue
        target = named_underlying(named.underlying, model.types)
        if target.kind in ("external", "unknown") or (
            target.kind == "named" and target.type_key not in model.structs
        ):
            # Cannot see what it is underneath (another package): MG104 territory.
            continue
        if target.kind == "builtin" and scalar_json_type(target.name):
            continue
        written = (
            target.name
            if target.kind == "builtin"
            else named.underlying.text or target.name or target.kind
        )
        yield diag(
            "MG101",
            marker.pos,
            f"+{marker.name} on type {named.name}, whose underlying type is {written}, "
            "not a string, boolean or number",
            hint=hints.edits(
                hints.remove(hints.marker_line(marker.raw), named.name),
                otherwise=f"declare it `type {named.name} string` with string constants "
                "if it is meant to be an enum",
            ),
        )
    for key in sorted(model.structs):
        struct = model.structs[key]
        for m in struct.markers:
            if m.name in ENUM_TYPE_MARKERS:
                yield diag(
                    "MG101",
                    m.pos,
                    f"+{m.name} on struct type {struct.name}; an enum must be a string type",
                    hint=hints.remove(hints.marker_line(m.raw), struct.name),
                )


def check_enum_not_string_scalar(model: Model) -> Iterator[Diagnostic]:
    """MG021."""
    for key in sorted(model.enums):
        enum = model.enums[key]
        if enum.type == "string" or enum.imported or enum.source == "kubebuilder":
            continue  # kubebuilder's Enum lists JSON values of any type, as controller-gen
        named = model.types.get(key)
        written = named.underlying.text if named is not None else enum.type
        yield diag(
            "MG021",
            enum.pos,
            f"+{enum.source} on type {enum.name}, whose underlying type is {written}: "
            f"markergen lists its values as JSON {enum.type}s, but openapi-gen and "
            "validation-gen read only string enums and ignore the marker",
            # keeping it is the usual answer: the edit that records that decision
            hint=hints.edits(
                hints.add_above(
                    f"// markergen:ignore MG021 only markergen's outputs read {enum.name}",
                    enum.name,
                ),
                otherwise=f"for openapi-gen, declare `type {enum.name} string` with string "
                "constants",
            ),
        )


def check_enum_without_values(model: Model) -> Iterator[Diagnostic]:
    """MG102."""
    for key in sorted(model.enums):
        enum = model.enums[key]
        if enum.values or enum.incomplete:  # incomplete: MG020 already says why
            continue
        yield diag(
            "MG102",
            enum.pos,
            f"enum type {enum.name} has no constants of type {enum.name} in package {enum.package}",
            hint=_no_values_hint(model, enum.key, enum.name),
        )


def _no_values_hint(model: Model, key: str, name: str) -> str:
    """Remove the enum marker: an enum without values constrains nothing (declaring
    the values, which markergen cannot guess, is the alternative)."""
    named = model.types.get(key)
    marker = (
        next((m for m in named.markers if m.name in ENUM_TYPE_MARKERS), None) if named else None
    )
    declare = f'declare its values, `const {name}Example {name} = "Example"`'
    if marker is None:
        return declare
    return hints.edits(
        hints.remove(hints.marker_line(marker.raw), name),
        otherwise=declare + " for each value, if it has a fixed set",
    )


_BARE = re.compile(r"^[A-Za-z0-9_.:/+-]+$")


def list_item(value: str) -> str:
    """A value as an item of a marker list: bare when it can be, else a Go string."""
    return value if _BARE.match(value) else '"' + value.replace('"', '\\"') + '"'


def with_values(marker: Marker, values: Sequence[str]) -> str:
    """The marker line's text with its list replaced by `values` (an Enum list, or the
    `enum=` part of a FeatureGateAwareEnum line)."""
    items = ";".join(list_item(v) for v in values)
    if marker.name == KUBEBUILDER_ENUM:
        return f"+{KUBEBUILDER_ENUM}={items}"
    head, _, _ = marker.raw.partition(",enum=")
    return f"{head},enum={items}"


def _list_markers(markers: Sequence[Marker]) -> Marker | None:
    """The line that holds a type's (or field's) listed values: its Enum list, else its
    last FeatureGateAwareEnum line (the one with the most gates on)."""
    found = list_marker(markers)
    if found is not None:
        return found
    gated = [m for m in markers if gate_lines([m])]
    return gated[-1] if gated else None


def _marker_values(marker: Marker) -> tuple[str, ...]:
    if marker.name == KUBEBUILDER_ENUM:
        return marker.values
    lines = gate_lines([marker])
    return lines[0].values if lines else ()


def _map_key_only(model: Model) -> set[str]:
    """The types that fields use only as map keys (`map[Component]Level`): controller-gen
    writes no schema for a map's keys, so the API server checks no enum list there."""
    as_key: set[str] = set()
    as_value: set[str] = set()
    seen: set[str] = set()
    for struct in model.structs.values():
        for f in struct.fields:
            _uses(model, f.type, False, as_key, as_value, seen)
    return as_key - as_value


def _uses(
    model: Model,
    ref: TypeRef | None,
    key: bool,
    as_key: set[str],
    as_value: set[str],
    seen: set[str],
) -> None:
    """Add the named types `ref` reaches to `as_key` or `as_value`. A module function,
    not a closure over the model: a recursive closure is a reference cycle, which kept
    the whole model alive until the next collection (tests/test_collector_pause.py)."""
    while ref is not None:
        if ref.kind == "map":
            _uses(model, ref.key, True, as_key, as_value, seen)
        if ref.kind in ("named", "external"):
            (as_key if key else as_value).add(ref.type_key)
            named = model.types.get(ref.type_key)
            if named is None or ref.type_key in seen:
                return
            seen.add(ref.type_key)  # a named list or map: what it holds, once
            ref = named.underlying
            continue
        ref = ref.elem


def check_constant_outside_list(model: Model) -> Iterator[Diagnostic]:
    """MG105: a constant of a listed enum type whose value the list does not name."""
    key_only: set[str] | None = None  # walks every field: only once a type needs it
    for key in sorted(model.enums):
        enum = model.enums[key]
        named = model.types.get(key)
        if not enum.listed or enum.imported or named is None:
            continue
        listed = {v.value for v in enum.values}
        # "" is how Go spells "not set" (an omitempty field leaves it out of the object),
        # not a value sent to the API server: openshift's `...NoOpinion = ""`.
        outside = [c for c in enum.constants if c.value not in listed and c.value != ""]
        marker = _list_markers(named.markers)
        if not outside or marker is None:
            continue
        if key_only is None:
            key_only = _map_key_only(model)
        if key in key_only:
            continue
        extended = [*_marker_values(marker), *(c.value for c in outside)]
        # `// markergen:ignore MG105 <reason>` in the type's doc comment says the list
        # leaves constants out on purpose: each finding goes to the type's line, which
        # that comment covers (and so counts as used), instead of to the constant
        on_type = _type_ignores_mg105(model, named.name, named.pos)
        for c in outside:
            yield diag(
                "MG105",
                named.pos if on_type else c.pos,
                f"constant {c.name} = {quoted([c.value])} of type {enum.name} is not in its "
                f"enum list ({quoted(v.value for v in enum.values)}): the API server rejects "
                f"{quoted([c.value])} wherever {enum.name} is used",
                hint=hints.edits(
                    hints.replace(with_values(marker, extended), marker.raw, on=enum.name),
                    # Two ways, as the rule cannot tell them apart (docs/rules.md, MG105):
                    # a value forgotten in the list, or one left out on purpose.
                    otherwise=f"when the API leaves {quoted([c.value])} out on purpose, "
                    + hints.add_above(
                        f"// {IGNORE_DIRECTIVE} MG105 <why users may not set it>", c.name
                    )
                    + f", or once above {enum.name} for every constant its list leaves out"
                    + f"; or remove the constant {c.name} if {quoted([c.value])} is no "
                    "longer accepted",
                ),
            )


def _type_ignores_mg105(model: Model, name: str, pos: Position) -> bool:
    """Whether an ignore comment in the doc comment of the type declared at `pos`
    silences MG105 there."""
    return any(
        "MG105" in ig.codes
        and ig.owner == name
        and ig.pos.file == pos.file
        and ig.first <= pos.line <= ig.last
        for ig in model.ignores
    )


def _field_type_enum(model: Model, f: Field) -> Enum | None:
    return type_enum_of(f.type, model.types, model.enums)


def _carriers(f: Field) -> list[tuple[Marker | None, tuple[str, ...], Position]]:
    """The lines of a field that list enum values: its Enum list, each FeatureGateAwareEnum
    line, and gateway-api's channel tags (no marker: doc-comment text)."""
    out: list[tuple[Marker | None, tuple[str, ...], Position]] = []
    marker = list_marker(f.markers)
    if marker is not None:
        out.append((marker, marker.values, marker.pos))
    for m in f.markers:
        lines = gate_lines([m])
        if lines:
            out.append((m, lines[0].values, m.pos))
    gated_positions = {pos for _, _, pos in out}
    for g in f.enum_gates:
        if g.pos not in gated_positions:
            out.append((None, g.values, g.pos))
    return out


def check_field_list_outside_type(model: Model) -> Iterator[Diagnostic]:
    """MG106: a field's enum list names values that its type's enum rejects (controller-gen
    writes both lists, so the server accepts only the values in both)."""
    for key in sorted(model.structs):
        struct = model.structs[key]
        for f in struct.fields:
            if not f.enum_values and not f.enum_gates:
                continue
            type_enum = _field_type_enum(model, f)
            enforced = field_enum(f, type_enum)
            if enforced is None or type_enum is None or not enforced.outside_type:
                continue
            accepted = set(enforced.type_values or ())
            named = model.types.get(type_enum.key)
            type_marker = _list_markers(named.markers) if named is not None else None
            for marker, values, pos in _carriers(f):
                extra = tuple(v for v in values if v not in accepted)
                if not extra:
                    continue
                yield diag(
                    "MG106",
                    pos,
                    f"the enum list of field {struct.name}.{f.go_name} names {quoted(extra)}, "
                    f"which its type {type_enum.name} does not accept "
                    f"({quoted(enforced.type_values or ())}): the API server enforces both "
                    f"lists, so {struct.name}.{f.go_name} accepts only "
                    f"{quoted(enforced.values)}",
                    hint=_field_list_hint(f, marker, values, extra, type_enum, type_marker),
                )


def _field_list_hint(
    f: Field,
    marker: Marker | None,
    values: Sequence[str],
    extra: Sequence[str],
    type_enum: Enum,
    type_marker: Marker | None,
) -> str:
    """Narrow the field's line to what its type accepts; else widen the type's list."""
    keep = [v for v in values if v not in extra]
    widen = None
    if type_marker is not None and type_enum.listed:
        widen = hints.replace(
            with_values(type_marker, [*_marker_values(type_marker), *extra]),
            type_marker.raw,
            on=type_enum.name,
        )
    narrow = (
        hints.replace(with_values(marker, keep), marker.raw)
        if keep and marker is not None
        else None
    )
    if narrow is not None:
        return hints.edits(
            narrow,
            otherwise=f"add {quoted(extra)} to the enum of type {type_enum.name} if "
            "they are meant to be accepted",
        )
    if widen is not None:
        return widen
    if marker is not None:
        return hints.remove(hints.marker_line(marker.raw), f.go_name)
    return f"add {quoted(extra)} to the enum of type {type_enum.name}, or drop them from this line"


def declared_outside_enum(model: Model, struct: Struct, union: Union, value: str) -> bool:
    """Whether `value` is a value the Go declares for the union's discriminator (a
    constant of its enum type, an item of a list on the field or the type) that the
    enforced enum (the discriminator's values) does not hold: MG107's case, not MG303's."""
    d = union.discriminator
    if d is None or not d.values or value in d.values:
        return False
    field = struct.field(d.go_name)
    declared: set[str] = set()
    enum = model.enums.get(d.enum) if d.enum is not None else None
    if field is not None:
        enum = enum or _field_type_enum(model, field)
        declared.update(field.enum_values)
        declared.update(v for g in field.enum_gates for v in g.values)
    if enum is not None:
        declared.update(c.value for c in enum.constants)
        declared.update(v.value for v in enum.values)
    return value in declared


def check_member_value_not_enforced(model: Model) -> Iterator[Diagnostic]:
    """MG107: a union member selected by a value the Go declares but the API server's
    enum rejects (a constant left out of the type's list, a field list value outside the
    type's enum): the member can never be selected on the wire."""
    for struct, union in unions(model):
        d = union.discriminator
        if d is None or union.traits.values_are_field_names or union.modes:
            continue
        for member in union.members:
            if not declared_outside_enum(model, struct, union, member.value):
                continue
            field = struct.field(d.go_name)
            enum = model.enums.get(d.enum) if d.enum is not None else None
            if enum is None and field is not None:
                enum = _field_type_enum(model, field)
            hint = _enforce_value_hint(model, field, enum, member.value)
            yield diag(
                "MG107",
                value_pos(union, member, struct.field(member.go_name)),
                f"member {member.go_name} of union {union_label(struct, union)} is selected "
                f"by {quoted([member.value])}, which the Go declares but the API server's enum "
                f"of {d.go_name} rejects ({quoted(d.values)}): the member can never be set",
                hint=hint,
            )


def _enforce_value_hint(model: Model, field: Field | None, enum: Enum | None, value: str) -> str:
    """Add the value where it is missing: the field's list, else the type's list."""
    edits: list[str] = []
    if field is not None:
        marker = _list_markers(field.markers)
        if marker is not None and value not in _marker_values(marker):
            values = [*_marker_values(marker), value]
            edits.append(hints.replace(with_values(marker, values), marker.raw, on=field.go_name))
    if enum is not None and enum.listed and value not in {v.value for v in enum.values}:
        named = model.types.get(enum.key)
        marker = _list_markers(named.markers) if named is not None else None
        if marker is not None:
            values = [*_marker_values(marker), value]
            edits.append(hints.replace(with_values(marker, values), marker.raw, on=enum.name))
    if not edits:
        return f"give the member a value of the enum ({quoted([value])} is not one)"
    return hints.edits(*edits, otherwise="give the member a value the enum holds")


RULES = (
    Rule("MG101", check_enum_not_string),
    Rule("MG021", check_enum_not_string_scalar),
    Rule("MG102", check_enum_without_values),
    Rule("MG105", check_constant_outside_list),
    Rule("MG106", check_field_list_outside_type),
    Rule("MG107", check_member_value_not_enforced),
)
