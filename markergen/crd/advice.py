"""What a CRD plan's findings point at and suggest, in the union's own Go markers: where
a rule comes from (the member's or discriminator's marker) and the marker edit that makes
the markers say what the objects or the hand-written rules do."""

from __future__ import annotations

from collections.abc import Sequence

from markergen.crd.cel import REQUIRED, Rule
from markergen.crd.prove import Allowance
from markergen.golang.syntax import Position
from markergen.markers import UNION_MEMBER
from markergen.model import Model, Union


def member_marker(model: Model, union: Union, member: str) -> Position:
    """Where the member is marked in Go: its member marker, else its field."""
    for m in union.members:
        if m.json_name != member:
            continue
        struct = model.structs.get(union.struct)
        field = struct.field(m.go_name) if struct is not None else None
        name = union.traits.member_name_marker
        found = field.marker(name) if field is not None and name else None
        return found.pos if found is not None else m.pos
    return union.pos


def rule_marker(model: Model, union: Union, rule: Rule) -> Position:
    """Where a rule comes from in Go: the marker of the member (or discriminator) its
    `fieldPath` names, else the marker that founded the union."""
    name = rule.field_path[1:] if rule.field_path.startswith(".") else ""
    disc = union.discriminator
    if disc is not None and name == disc.json_name:
        return disc.pos
    if any(m.json_name == name for m in union.members):
        return member_marker(model, union, name)
    return union.pos


def union_place(model: Model, union: Union) -> Position:
    """The Go place a finding about the whole union is about, where an ignore comment
    silences it: the discriminator's field, else the struct's declaration (an ignore
    comment in the struct's doc comment covers both)."""
    struct = model.structs.get(union.struct)
    disc = union.discriminator
    if disc is not None:
        field = struct.field(disc.go_name) if struct is not None else None
        return field.pos if field is not None else disc.pos
    return struct.pos if struct is not None else union.pos


def member_place(model: Model, union: Union, member: str) -> Position:
    """The Go place of a finding about one member (by JSON name): its field, else the
    union's place."""
    struct = model.structs.get(union.struct)
    for m in union.members:
        if m.json_name == member:
            field = struct.field(m.go_name) if struct is not None else None
            return field.pos if field is not None else m.pos
    return union_place(model, union)  # the discriminator's too


def rule_place(model: Model, union: Union, rule: Rule) -> Position:
    """The Go place of a rule's finding: the field its `fieldPath` names (a member or
    the discriminator), else the union's place."""
    name = rule.field_path[1:] if rule.field_path.startswith(".") else ""
    return member_place(model, union, name)


def optional_marker(model: Model, union: Union, member: str) -> str:
    """The member's `+unionMember` marker as written, with `,optional` added."""
    for m in union.members:
        if m.json_name != member:
            continue
        struct = model.structs.get(union.struct)
        field = struct.field(m.go_name) if struct is not None else None
        found = field.marker(UNION_MEMBER) if field is not None else None
        if found is not None:
            value = f"={found.value}" if found.value else ""
            flags = "".join(f",{f}" for f in dict.fromkeys([*found.flags, "optional"]))
            return f"+{UNION_MEMBER}{value}{flags}"
    return f"+{UNION_MEMBER},optional"


def rejection_hint(model: Model, union: Union, rule: Rule) -> str:
    """What to change when a rule would reject a kept object, in the union's own markers."""
    if union.origin == "struct" and union.semantics != "kep1027":
        return (
            "mark the real members with `+unionMember`, or drop `+union` when its fields "
            "are shared settings; or correct the object"
        )
    if rule.reason == REQUIRED and union.traits.member_name_marker == UNION_MEMBER:
        marker = optional_marker(model, union, rule.field_path[1:])
        return (
            "if the member may be left out when its value is selected, make the marker "
            f"`{marker}`; or correct the object"
        )
    if (
        rule.reason == REQUIRED
        and union.discriminator is not None
        and rule.field_path == ("." + union.discriminator.json_name)
    ):
        return "make the discriminator optional (`+optional`), or correct the object"
    if union.traits.member_name_marker == UNION_MEMBER:
        return (
            "give the member the value that selects it in the object "
            "(`+unionMember=<value>`), or correct the object"
        )
    return "correct the object, or the union's markers so they allow it"


def allowance_hint(model: Model, union: Union, allowance: Allowance) -> str:
    """The edit that makes the markers say what the hand-written rules allow."""
    if allowance.reason == REQUIRED and union.traits.member_name_marker == UNION_MEMBER:
        marker = optional_marker(model, union, allowance.member)
        return (
            "if the member may be left out when its value is selected, make the marker "
            f"`{marker}`; otherwise make the hand-written rule require it"
        )
    return "change the hand-written rule or the markers so they agree on which objects are valid"


def as_documentation(union: Union, problems: Sequence[str]) -> str:
    """A hint for a 2019 `+union` struct most of whose optional fields select no value:
    openapi-gen makes every one of them a member, though they are shared settings."""
    if union.origin != "struct" or not union.members:
        return ""
    off = sum(
        1 for m in union.members if any(f"member {m.json_name} selects" in p for p in problems)
    )
    if off * 2 <= len(union.members):
        return ""
    return (
        f" ({off} of {len(union.members)} members select no discriminator value: if they are "
        "settings shared by every variant, `+union` is documentation here; mark the real "
        "members with `+unionMember` or drop `+union`)"
    )
