"""Member rules: MG301 MG302 MG303 MG304 MG305 MG308.

Sources: the 2019 KEP "Go tags" ("All the fields must be optional (beside the
discriminator)"), the current KEP "Go Markers" (`+unionMember[=<memberName>][,optional]`: the
memberName "MUST correspond to one of the valid enum values of the discriminator's enum
type" and "should match the serialized JSON name of the field case-insensitively").
"""

from __future__ import annotations

from collections.abc import Iterator

from markergen.diagnostics import Diagnostic, diag
from markergen.markers import UNION_DEPRECATED
from markergen.model import Field, Member, Model, Struct, Union
from markergen.rules.base import (
    UNION_FIELD_MARKERS,
    Rule,
    is_struct,
    quoted,
    underlying,
    union_label,
    unions,
)

NILLABLE = frozenset({"pointer", "slice", "map", "interface"})


def _members(model: Model) -> Iterator[tuple[Struct, Union, Member, Field | None]]:
    for struct, union in unions(model):
        for member in union.members:
            yield struct, union, member, struct.field(member.go_name)


def check_member_optional(model: Model) -> Iterator[Diagnostic]:
    """MG301."""
    for struct, union, member, field in _members(model):
        if field is None or field.optional:
            continue
        why = "it is marked required" if field.required_marker else "it has neither +optional "
        if not field.required_marker:
            why += "nor omitempty"
        yield diag(
            "MG301",
            member.pos,
            f"member {member.go_name} of union {union_label(struct, union)} is not optional: {why}",
            hint="members are optional (only one is set): add `// +optional` and omitempty",
        )


def check_member_unset(model: Model) -> Iterator[Diagnostic]:
    """MG302: a zero value that is always serialized cannot be told from "unset".

    Go's encoding/json never omits a struct value, even with omitempty, so a non-pointer
    struct member is always present. `+unionDeprecated` members are left to MG403,
    which asks for exactly the fix (pointer and omitempty).
    """
    for struct, union, member, field in _members(model):
        if field is None or field.marker(UNION_DEPRECATED) is not None:
            continue
        target = underlying(model, field.type)
        if target.kind in NILLABLE or target.kind in ("external", "unknown"):
            continue
        if field.json.omitzero:
            continue  # Go 1.24: the zero value, a zero struct included, is not written
        label = union_label(struct, union)
        if is_struct(model, field.type):
            yield diag(
                "MG302",
                member.pos,
                f"member {member.go_name} of union {label} is a struct value "
                f"({field.type.text}): encoding/json always writes it, even with omitempty, "
                "so it is never unset",
                hint=f"make it a pointer, `*{field.type.text}`, or add `omitzero` to its json tag",
            )
        elif not field.json.omitempty:
            yield diag(
                "MG302",
                member.pos,
                f"member {member.go_name} of union {label} ({field.type.text}) is neither a "
                "pointer, slice nor map and has no omitempty: its zero value is always "
                "written, so it cannot be told unset",
                hint=f"add `omitempty` to its json tag (or make it `*{field.type.text}`)",
            )


def check_member_value_in_enum(model: Model) -> Iterator[Diagnostic]:
    """MG303.

    Not for kep2019 unions: there the discriminator value of a member is its Go field
    name by definition (the 2019 KEP "OpenAPI": "The discriminatedValue will typically be set
    to the name of the Go variable"), whatever enum the discriminator's type has;
    kubernetes/api's SeccompProfile (`LocalhostProfile` next to the enum value
    `Localhost`) is such a union.
    """
    for struct, union, member, _ in _members(model):
        d = union.discriminator
        if union.traits.values_are_field_names or union.modes:
            continue  # a mode union's values are checked per rule (MG323)
        if d is None or not d.values or member.value in d.values:
            continue
        if d.enum is not None:
            enum = model.enums.get(d.enum)
            source = f"enum {enum.name if enum else d.enum.rsplit('.', 1)[-1]}"
        else:
            source = f"the +kubebuilder:validation:Enum list of {d.go_name}"
        close = [v for v in d.values if v.casefold() == member.value.casefold()]
        if close:
            hint: str | None = f"did you mean {quoted(close)}?"
        elif d.enum is not None:
            hint = (
                f"add a constant of type {source.split()[-1]} for it, or set "
                "+unionMember=<value> to one of its values"
            )
        else:
            hint = None
        yield diag(
            "MG303",
            member.pos,
            f"member {member.go_name} of union {union_label(struct, union)} has value "
            f"{quoted([member.value])}, which is not a value of {source} ({quoted(d.values)})",
            hint=hint,
        )


def check_duplicate_values(model: Model) -> Iterator[Diagnostic]:
    """MG304."""
    for struct, union in unions(model):
        if union.traits.values_are_field_names:
            continue  # unique by construction
        if union.modes:
            continue  # modes: several fields may be required in one mode
        first: dict[str, Member] = {}
        for member in union.members:
            prev = first.setdefault(member.value, member)
            if prev is member:
                continue
            yield diag(
                "MG304",
                member.pos,
                f"members {prev.go_name} and {member.go_name} of union "
                f"{union_label(struct, union)} have the same discriminator value "
                f"{quoted([member.value])}",
                hint="each discriminator value selects at most one member",
            )


def explicit_member_name(union: Union, member: Member, field: Field) -> str | None:
    """The memberName the author wrote, if any (not the kep2022 `=<discriminator>`)."""
    traits = union.traits
    if not traits.member_name_marker:
        return None
    for m in field.markers:
        if m.name != traits.member_name_marker:
            continue
        name = m.arg(traits.member_name_arg) if traits.member_name_arg else m.value
        if name and name == member.value:
            return name
    return None


def check_member_name_matches_json(model: Model) -> Iterator[Diagnostic]:
    """MG305."""
    for struct, union, member, field in _members(model):
        if field is None or not field.json_name:
            continue
        name = explicit_member_name(union, member, field)
        if name is None or name.casefold() == field.json_name.casefold():
            continue
        yield diag(
            "MG305",
            member.pos,
            f"member {member.go_name} of union {union_label(struct, union)} has memberName "
            f"{quoted([name])}, which does not match its JSON name {quoted([field.json_name])} "
            "case-insensitively",
            hint="the current KEP: the memberName should match the serialized JSON name of the field",
        )


def check_member_not_serialized(model: Model) -> Iterator[Diagnostic]:
    """MG308: for members and discriminators of formed unions and for any field that
    carries a union marker (the builder may not have formed a union from it)."""
    flagged: set[tuple[str, str]] = set()
    for struct, union in unions(model):
        names = [m.go_name for m in union.members]
        if union.discriminator is not None:
            names.append(union.discriminator.go_name)
        for name in names:
            field = struct.field(name)
            if field is not None:
                flagged.add((struct.key, field.go_name))
    for key in sorted(model.structs):
        struct = model.structs[key]
        for field in struct.fields:
            if any(m.name in UNION_FIELD_MARKERS for m in field.markers):
                flagged.add((struct.key, field.go_name))
    for key, go_name in sorted(flagged):
        struct = model.structs[key]
        field = struct.field(go_name)
        if field is None:
            continue
        if field.json.skip:
            why = 'has json:"-", so it never appears in the API'
        elif not field.exported:
            why = "is unexported, so encoding/json ignores it"
        else:
            continue
        yield diag(
            "MG308",
            field.pos,
            f"union field {go_name} of {struct.name} {why}",
            hint="union members and discriminators must be serialized fields",
        )


RULES = (
    Rule("MG301", check_member_optional),
    Rule("MG302", check_member_unset),
    Rule("MG303", check_member_value_in_enum),
    Rule("MG304", check_duplicate_values),
    Rule("MG305", check_member_name_matches_json),
    Rule("MG308", check_member_not_serialized),
)
