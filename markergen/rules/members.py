"""Member rules: MG301 MG302 MG303 MG304 MG305 MG308 MG342.

Sources: the 2019 KEP "Go tags" ("All the fields must be optional (beside the
discriminator)"), the current KEP "Go Markers" (`+unionMember[=<memberName>][,optional]`: the
memberName "MUST correspond to one of the valid enum values of the discriminator's enum
type" and "should match the serialized JSON name of the field case-insensitively").
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator

from markergen import hints
from markergen.diagnostics import Diagnostic, diag
from markergen.markers import KUBEBUILDER_ENUM, UNION_DEPRECATED, Marker
from markergen.model import Discriminator, Field, Member, Model, Struct, Union
from markergen.model.dialects.base import named_underlying
from markergen.model.fields import OPTIONAL_MARKERS, REQUIRED_MARKERS
from markergen.model.lookup import FieldLookup, model_lookup
from markergen.rules.base import (
    UNION_FIELD_MARKERS,
    Rule,
    go_version,
    honours_omitzero,
    is_struct,
    marker_removals,
    quoted,
    union_label,
    unions,
    value_pos,
)
from markergen.rules.enums import declared_outside_enum

NILLABLE = frozenset({"pointer", "slice", "map", "interface"})


def _members(model: Model) -> Iterator[tuple[Struct, Union, Member, Field | None]]:
    """Each member with its Go field: the struct's own, or one promoted from an embedded
    struct (controller-gen's `ExactlyOneOf=a;b` may name those)."""
    lookup = model_lookup(model)
    for struct, union in unions(model):
        for member in union.members:
            yield struct, union, member, member_field(lookup, struct, member)


def member_field(lookup: FieldLookup, struct: Struct, member: Member) -> Field | None:
    own = struct.field(member.go_name)
    if own is not None and own.json_name == member.json_name:
        return own
    found = lookup.of(struct.key).get(member.json_name)
    return found.field if found is not None and found.field.go_name == member.go_name else None


def check_member_optional(model: Model) -> Iterator[Diagnostic]:
    """MG301."""
    for struct, union, member, field in _members(model):
        if field is None or field.optional:
            continue
        if union.traits.zero_is_unset and not field.required_marker:
            continue  # validation-gen: unset at its zero value; MG342 gives the advice
        why = "it is marked required" if field.required_marker else "it has neither +optional "
        if not field.required_marker:
            why += "nor omitempty"
        edits = _optional_edits(field, union.traits.zero_is_unset)
        otherwise = None
        if is_struct(model, field.type) and not union.traits.zero_is_unset:
            # encoding/json writes a struct value even with omitempty (MG302): the pointer
            # is what makes it optional; omitzero only where every allowed Go honours it
            edits.insert(0, f"make it a pointer, `*{field.type.text}`")
            if honours_omitzero(model, struct) and not field.json.omitzero:
                otherwise = "instead of the pointer, add `omitzero` to its json tag"
        yield diag(
            "MG301",
            member.pos,
            f"member {member.go_name} of union {union_label(struct, union)} is not optional: {why}",
            hint=hints.edits(*edits, otherwise=otherwise),
        )


def check_member_unset(model: Model) -> Iterator[Diagnostic]:
    """MG302: a zero value that is always serialized cannot be told from "unset".

    Go's encoding/json never omits a struct value, even with omitempty, so a non-pointer
    struct member is always present. `+unionDeprecated` members are left to MG403,
    which asks for exactly the fix (pointer and omitempty).
    """
    for struct, union, member, field in _members(model):
        if field is None or field.marker(UNION_DEPRECATED) is not None or field.json.skip:
            continue  # json:"-" is MG308's: the field is not in the JSON at all
        if union.traits.zero_is_unset:
            continue  # validation-gen tells its zero value unset (MG342 gives the advice)
        target = named_underlying(field.type, model.types)
        if target.kind in NILLABLE or target.kind in ("external", "unknown"):
            continue
        honoured = honours_omitzero(model, struct)
        if field.json.omitzero and honoured:
            continue  # Go 1.24: the zero value, a zero struct included, is not written
        label = union_label(struct, union)
        if field.json.omitzero and (is_struct(model, field.type) or not field.json.omitempty):
            version = go_version(model, struct)
            allowed = f"says `go {version}`" if version else "has no `go` line (go 1.16)"
            yield diag(
                "MG302",
                member.pos,
                f"member {member.go_name} of union {label} ({field.type.text}) relies on "
                f"`omitzero`, but its module's go.mod {allowed}: encoding/json before Go "
                "1.24 ignores omitzero and writes the zero value, so it cannot be told unset",
                hint=hints.edits(
                    _pointer(field),
                    otherwise="raise the go.mod's `go` line to 1.24 or later",
                ),
            )
        elif is_struct(model, field.type):
            yield diag(
                "MG302",
                member.pos,
                f"member {member.go_name} of union {label} is a struct value "
                f"({field.type.text}): encoding/json always writes it, even with omitempty, "
                "so it is never unset",
                hint=hints.edits(
                    _pointer(field),
                    otherwise="add `omitzero` to its json tag" if honoured else None,
                ),
            )
        elif not field.json.omitempty:
            yield diag(
                "MG302",
                member.pos,
                f"member {member.go_name} of union {label} ({field.type.text}) is neither a "
                "pointer, slice nor map and has no omitempty: its zero value is always "
                "written, so it cannot be told unset",
                hint=_tag_or(
                    field,
                    ("omitempty",),
                    f"make it a pointer, `*{field.type.text}`",
                    "add `omitempty` to its json tag",
                ),
            )


def check_k8s_member_conventions(model: Model) -> Iterator[Diagnostic]:
    """MG342: a member of a union whose dialect reads the Go zero value as unset
    (validation-gen's `+k8s:unionMember`, `+k8s:zeroOrOneOfMember`, gated or not) is
    valid without a pointer, `+optional` or omitempty; the Kubernetes API conventions
    still ask optional fields to be "a pointer type ... or have a built-in nil value"
    and, "in most cases", to have omitempty. One warning per member that has neither
    omitempty (nor omitzero) nor a nil-able type, or no optional marker and no omitempty.
    A member marked required is MG301's; a struct value is MG330's."""
    for struct, union, member, field in _members(model):
        if not union.traits.zero_is_unset or field is None or field.json.skip:
            continue
        if field.required_marker or is_struct(model, field.type):
            continue
        target = named_underlying(field.type, model.types)
        if target.kind in ("external", "unknown"):
            continue
        written = target.kind not in NILLABLE and not field.json.omits_zero
        unmarked = not field.optional
        if not (written or unmarked):
            continue
        if written:
            why = (
                f"its zero value is always written (it is {field.type.text}, without "
                "omitempty): the Kubernetes API conventions ask optional fields to be "
                "pointers or have omitempty"
            )
        else:
            # a pointer (or other nil-able type) already has its nil: only the marker
            # and the tag are missing
            why = (
                "it has neither +optional nor omitempty: the Kubernetes API conventions "
                "ask optional fields to be marked optional and, in most cases, to have "
                "omitempty"
            )
        edits: list[str] = []
        if not any(m.name in OPTIONAL_MARKERS for m in field.markers) and unmarked:
            edits.append(hints.add_above("// +k8s:optional", field.go_name))
        tag = hints.json_options(field.json, add=("omitempty",))
        if tag is not None and not field.json.omits_zero:
            edits.append(tag)
        yield diag(
            "MG342",
            member.pos,
            f"member {member.go_name} of union {union_label(struct, union)} is valid for "
            f"validation-gen (unset at its zero value), but {why}",
            hint=hints.edits(*edits) if edits else "make it a pointer with omitempty",
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
        if declared_outside_enum(model, struct, union, member.value):
            continue  # declared in the Go but not enforced: MG107 says which list lacks it
        if d.enum is not None:
            enum = model.enums.get(d.enum)
            source = f"enum {enum.name if enum else d.enum.rsplit('.', 1)[-1]}"
        else:
            source = f"the +kubebuilder:validation:Enum list of {d.go_name}"
        hint = _value_hint(model, struct, union, member, d)
        yield diag(
            "MG303",
            value_pos(union, member, struct.field(member.go_name)),
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
                value_pos(union, member, struct.field(member.go_name)),
                f"members {prev.go_name} and {member.go_name} of union "
                f"{union_label(struct, union)} have the same discriminator value "
                f"{quoted([member.value])}",
                hint=_other_value_hint(struct, union, member),
            )


def _wrong_value(union: Union, member: Member) -> bool:
    """The member's value is no discriminator value (MG303) or another member's (MG304)."""
    d = union.discriminator
    if union.traits.values_are_field_names:
        return False
    if d is not None and d.values and member.value not in d.values:
        return True
    first = next(m for m in union.members if m.value == member.value)
    return first is not member  # MG304 is reported on the later ones


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
        if field is None or not field.json_name or _wrong_value(union, member):
            continue  # a value that is wrong (MG303, MG304) is reported once, as such
        name = explicit_member_name(union, member, field)
        if name is None or name.casefold() == field.json_name.casefold():
            continue
        yield diag(
            "MG305",
            value_pos(union, member, field),
            f"member {member.go_name} of union {union_label(struct, union)} has memberName "
            f"{quoted([name])}, which does not match its JSON name {quoted([field.json_name])} "
            "case-insensitively",
            hint=_member_name_hint(model, struct, union, member, field, name),
        )


def check_member_not_serialized(model: Model) -> Iterator[Diagnostic]:
    """MG308: for members and discriminators of formed unions, for any field that
    carries a union marker (the builder may not have formed a union from it), and for
    the fields of a 2019 `+union` struct, every one of which is a member (the 2019 KEP:
    "All the fields must be optional (beside the discriminator)") though a `json:"-"`
    one never reaches the union's member list."""
    flagged: set[tuple[str, str]] = set()
    whole_struct: set[str] = set()  # 2019 `+union` structs: their fields are members
    for struct, union in unions(model):
        names = [m.go_name for m in union.members]
        if union.discriminator is not None:
            names.append(union.discriminator.go_name)
        if union.traits.fields_are_members and union.origin == "struct":
            whole_struct.add(struct.key)
            names += [f.go_name for f in struct.fields if f.json.skip and f.exported]
        for name in names:
            field = struct.field(name)
            if field is not None and (field.json.skip or not field.exported):
                flagged.add((struct.key, field.go_name))
    for key in sorted(model.structs):
        struct = model.structs[key]
        for field in struct.fields:
            # Only a field that is not in the API is reported (below): the others need
            # no look at their markers (most fields of a large tree).
            if field.exported and not field.json.skip:
                continue
            if any(m.name in UNION_FIELD_MARKERS for m in field.markers):
                flagged.add((struct.key, field.go_name))
    for key, go_name in sorted(flagged):
        struct = model.structs[key]
        field = struct.field(go_name)
        if field is None:
            continue
        if field.json.skip:
            why = 'has json:"-", so it never appears in the API'
            json_name = go_name[:1].lower() + go_name[1:]
            # a required field (a discriminator, mostly) keeps its zero value in JSON
            options = "" if field.required_marker else ",omitempty"
            union_markers = any(m.name in UNION_FIELD_MARKERS for m in field.markers)
            hint = hints.edits(
                hints.replace(f'json:"{json_name}{options}"', 'json:"-"'),
                otherwise="move it out of the `+union` struct, whose every field is a "
                "member, if it is not meant to be in the API"
                if key in whole_struct and not union_markers
                else "remove its union markers if it is not meant to be in the API",
            )
        elif not field.exported:
            why = "is unexported, so encoding/json ignores it"
            hint = hints.edits(
                *marker_removals(field, UNION_FIELD_MARKERS),
                otherwise="export it, with a json tag, if it is meant to be in the API",
            )
        else:
            continue
        yield diag(
            "MG308",
            field.pos,
            f"union field {go_name} of {struct.name} {why}",
            hint=hint,
        )


def _optional_edits(field: Field, k8s: bool = False) -> list[str]:
    """Edits that make a member optional: no required marker, `+optional` (validation-gen's
    `+k8s:optional` for a k8s union), omitempty."""
    out = marker_removals(field, REQUIRED_MARKERS)
    if not any(m.name in OPTIONAL_MARKERS for m in field.markers):
        out.append(hints.add_above("// +k8s:optional" if k8s else "// +optional", field.go_name))
    if not field.json.omits_zero:
        tag = hints.json_options(field.json, add=("omitempty",))
        if tag is not None:
            out.append(tag)
    return out


def _pointer(field: Field) -> str:
    """The edit that makes a member a pointer, with omitempty in its tag."""
    tag = hints.json_options(field.json, add=("omitempty",))
    pointer = f"make it a pointer, `*{field.type.text}`"
    return f"{pointer}, and {tag}" if tag is not None else pointer


def _tag_or(field: Field, add: tuple[str, ...], otherwise: str, untagged: str) -> str:
    """The json tag edit, with a type change as the alternative; prose without a tag."""
    tag = hints.json_options(field.json, add=add)
    return (
        hints.edits(tag, otherwise=otherwise) if tag is not None else f"{untagged} (or {otherwise})"
    )


def _member_marker(union: Union, field: Field | None) -> Marker | None:
    """The marker that gives a member its value (`+unionMember[=v]`), when the dialect
    writes the value as the marker's `=` value."""
    traits = union.traits
    if field is None or not traits.member_name_marker or traits.member_name_arg:
        return None
    return field.marker(traits.member_name_marker)


def _revalue(union: Union, field: Field | None, member: Member, value: str) -> str | None:
    """The edit that gives a member another value, or None."""
    marker = _member_marker(union, field)
    if marker is None:
        return None
    name = marker.name
    old = f"+{name}={marker.value}" if marker.value else f"+{name}"
    return hints.replace(f"+{name}={value}", old)


def _unclaimed(union: Union, d: Discriminator, near: str) -> str | None:
    """The enum value no member claims that is closest to `near` (a name or value)."""
    taken = {m.value for m in union.members}
    free = [v for v in d.values if v and v not in taken]
    if not free:
        return None
    same = [v for v in free if v.casefold() == near.casefold()]
    if same:
        return same[0]
    close = difflib.get_close_matches(near, free, n=1, cutoff=0.0)
    return close[0] if close else free[0]


def _new_constant(model: Model, d: Discriminator, value: str) -> str | None:
    """`add `const ShapeSquare ShapeType = "Square"` below ShapeType`: a value added to
    the discriminator's enum, named like its other constants."""
    if d.enum is None or not value.isidentifier():
        return None
    enum = model.enums.get(d.enum)
    if enum is None:
        return None
    prefix = enum.name
    for v in enum.values:
        if v.name and v.value.isidentifier() and v.name.endswith(v.value[:1].upper() + v.value[1:]):
            prefix = v.name[: len(v.name) - len(v.value)]
            break
    name = prefix + value[:1].upper() + value[1:]
    return hints.add_below(f"const {name} {enum.name} = {json.dumps(value)}", enum.name)


def _value_hint(
    model: Model, struct: Struct, union: Union, member: Member, d: Discriminator
) -> str | None:
    """MG303: the value it most likely meant when one is free, else a new enum value."""
    field = struct.field(member.go_name)
    free = _unclaimed(union, d, member.value)
    if free is not None and free.casefold() == member.value.casefold():
        return _revalue(union, field, member, free)
    added = _new_constant(model, d, member.value)
    if added is None and d.enum is None and field is not None:
        disc_field = struct.field(d.go_name)
        listed = next(
            (m for m in (disc_field.markers if disc_field else ()) if m.name == KUBEBUILDER_ENUM),
            None,
        )
        if listed is not None and listed.value:
            added = hints.replace(
                f"+{listed.name}={listed.value};{member.value}", listed.raw, on=d.go_name
            )
    other = _revalue(union, field, member, free) if free is not None else None
    if added is not None:
        return hints.edits(added, otherwise=other)
    return other


def _other_value_hint(struct: Struct, union: Union, member: Member) -> str | None:
    """MG304: a value no member claims yet, else the member's marker removed."""
    d = union.discriminator
    field = struct.field(member.go_name)
    free = _unclaimed(union, d, member.json_name or member.go_name) if d is not None else None
    if free is not None:
        return _revalue(union, field, member, free)
    marker = _member_marker(union, field)
    if marker is None:
        return None
    return hints.edits(
        hints.remove(hints.marker_line(marker.raw), member.go_name),
        otherwise="add an enum value for it and select it with that value",
    )


def _member_name_hint(
    model: Model, struct: Struct, union: Union, member: Member, field: Field, name: str
) -> str | None:
    """MG305: rename the enum value after the JSON name, and the marker with it; on a
    released API, the alternative is to keep both and silence the warning."""
    keep = (
        f"on a released API, keep both: `// markergen:ignore MG305 <reason>` above {field.go_name}"
    )
    d = union.discriminator
    wanted = field.json_name[:1].upper() + field.json_name[1:]
    enum = model.enums.get(d.enum) if d is not None and d.enum is not None else None
    constant = next((v for v in enum.values if v.value == name and v.name), None) if enum else None
    marker = _revalue(union, field, member, wanted)
    shared = any(m.value == name and m is not member for m in union.members)
    if constant is None or marker is None or shared:
        return keep
    return hints.edits(
        hints.replace(json.dumps(wanted), json.dumps(name), on=constant.name),
        marker,
        otherwise=keep,
    )


RULES = (
    Rule("MG301", check_member_optional),
    Rule("MG302", check_member_unset),
    Rule("MG303", check_member_value_in_enum),
    Rule("MG304", check_duplicate_values),
    Rule("MG305", check_member_name_matches_json),
    Rule("MG308", check_member_not_serialized),
    Rule("MG342", check_k8s_member_conventions),
)
