"""Discriminator rules: MG201 MG202 MG204 MG205 MG206.

Sources: the current KEP "Go Markers" (the discriminator "MUST be an enum defined as a string";
"MUST be required if there is no default option, omitempty if the default option is the
empty string, or optional and omitempty if a default value is specified with the
// +default marker"), the current KEP "Discriminator Values" and "Empty Union Members",
The 2019 KEP and the 2022 draft "Go tags" ("This field HAS TO be a string" / "MUST be a string").

What "default option" means (MG202), decided here and documented in docs/rules.md:
the value the discriminator has when a client leaves it unset. That is the `+default=`
value when there is one; otherwise, when `""` is one of the enum values, it is `""`
(an unset Go string is `""`, and the current KEP names `""` the conventional "no member"
option); otherwise there is no default option and the field must be required.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator

from markergen.diagnostics import Diagnostic, Severity, diag
from markergen.markers import K8S_UNION_DISCRIMINATOR, UNION, UNION_DISCRIMINATOR, default_string
from markergen.model import Discriminator, Model, Struct, Union
from markergen.rules.base import (
    MEMBER_MARKERS,
    Rule,
    quoted,
    underlying,
    union_label,
    unions,
)


def _enum_name(model: Model, d: Discriminator) -> str:
    if d.enum is not None:
        enum = model.enums.get(d.enum)
        return f"enum {enum.name if enum else d.enum.rsplit('.', 1)[-1]}"
    return "its +kubebuilder:validation:Enum list"


def check_discriminator_type(model: Model) -> Iterator[Diagnostic]:
    """MG201: not a string and without enum values (error; a bool, integer or float
    discriminator with an enum is typed in every output); a string without enum values
    (warning, kep2022)."""
    for struct, union in unions(model):
        d = union.discriminator
        if d is None:
            continue
        target = underlying(model, d.type.deref())
        label = union_label(struct, union)
        if target.kind in ("external", "unknown"):
            continue  # unresolvable: MG104 or the builder's concern, not a type error
        if d.values and d.value_type != "string":
            continue  # an enum of numbers or booleans: its values are typed everywhere
        if union.modes and target.kind == "builtin" and target.name == "bool":
            continue  # validation-gen's mode discriminators may be bool (MG113 otherwise)
        if not (target.kind == "builtin" and target.name == "string"):
            yield diag(
                "MG201",
                d.pos,
                f"discriminator {d.go_name} of union {label} has type "
                f"{d.type.text or target.name or target.kind}, which is not a string",
                hint="a discriminator must be a string type; the current KEP wants a +enum string type",
            )
        elif union.traits.untyped_discriminator and not d.values:
            yield diag(
                "MG201",
                d.pos,
                f"discriminator {d.go_name} of union {label} has type "
                f"{d.type.text or 'string'}, which has no enum values: this is a kep2022 "
                "union, kep1027 requires a +enum string type",
                hint="declare `// +enum` on a named string type with one constant per member",
                severity=Severity.WARNING,
            )


def check_discriminator_requiredness(model: Model) -> Iterator[Diagnostic]:
    """MG202, kep1027 only (see the module doc for "default option")."""
    for struct, union in unions(model):
        d = union.discriminator
        if d is None or not union.traits.discriminator_musts:
            continue
        label = union_label(struct, union)
        name = f"discriminator {d.go_name} of union {label}"
        field = struct.field(d.go_name)
        optional = field.optional if field is not None else not d.required
        if d.default is not None:
            missing = [
                what for what, ok in (("+optional", optional), ("omitempty", d.omitempty)) if not ok
            ]
            if missing:
                # The current KEP's MUST is broken, but the API server defaults the field
                # and the documents are right: what goes wrong is on the client side.
                consequence = (
                    'a Go client that leaves it unset sends "", which the enum rejects'
                    if not d.omitempty and "" not in d.values
                    else "clients cannot leave it unset to get the default"
                )
                yield diag(
                    "MG202",
                    d.pos,
                    f"{name} has +default={d.default} but lacks {' and '.join(missing)}: "
                    f"{consequence}",
                    hint=f'add `// +optional` and `json:"{d.json_name},omitempty"`',
                )
        elif "" in d.values:
            if not d.omitempty:
                yield diag(
                    "MG202",
                    d.pos,
                    f'{name}: the empty string is the default option ("" is a value of '
                    f"{_enum_name(model, d)}), so the field must be omitempty",
                    hint=f'use `json:"{d.json_name},omitempty"`',
                )
        elif not d.required:
            yield diag(
                "MG202",
                d.pos,
                f'{name} has no default option (no +default and "" is not a value of '
                f"{_enum_name(model, d)}), so it must be required",
                hint='add `// +required` and drop omitempty, add a +default, or add a "" '
                "value to the enum",
            )


def check_discriminator_is_member(model: Model) -> Iterator[Diagnostic]:
    """MG204."""
    for struct, union in unions(model):
        d = union.discriminator
        if d is None:
            continue
        field = struct.field(d.go_name)
        marks = sorted({m.name for m in field.markers} & MEMBER_MARKERS) if field else []
        as_member = any(m.go_name == d.go_name for u in struct.unions for m in u.members)
        if marks or as_member:
            what = ", ".join(f"+{m}" for m in marks) or "a member marker"
            yield diag(
                "MG204",
                d.pos,
                f"field {d.go_name} of {struct.name} is the discriminator of union "
                f"{union_label(struct, union)} and also a union member ({what})",
                hint="a discriminator selects members; it cannot be one: remove the member marker",
            )


def _similar_fields(struct: Struct, union: Union) -> list[tuple[str, str]]:
    """(field, value) for each field whose Go or JSON name is a discriminator value,
    compared case-insensitively."""
    assert union.discriminator is not None
    wanted = {v.casefold(): v for v in union.discriminator.values if v}
    out = []
    for f in struct.fields:
        if f.go_name == union.discriminator.go_name or not f.json_name:
            continue
        value = wanted.get(f.go_name.casefold()) or wanted.get(f.json_name.casefold())
        if value is not None:
            out.append((f.go_name, value))
    return out


def check_discriminator_without_members(model: Model) -> Iterator[Diagnostic]:
    """MG205 (info: a discriminator whose values select nothing constrains nothing)."""
    for struct, union in unions(model):
        d = union.discriminator
        if d is None or union.members or union.unmatched:
            continue
        similar = _similar_fields(struct, union)
        if similar:
            hint = "to make them members, add " + "; ".join(
                f"`// +unionMember={value}` above {go_name}" for go_name, value in similar
            )
        elif any(m.name == UNION for m in struct.markers):
            hint = (
                f"if no value needs a member, remove `// +union` from {struct.name} and "
                f"`// +unionDiscriminator` from {d.go_name}"
            )
        else:
            hint = f"if no value needs a member, remove `// +unionDiscriminator` from {d.go_name}"
        field = struct.field(d.go_name)
        marker = None
        if field is not None:
            marker = field.marker(UNION_DISCRIMINATOR) or field.marker(K8S_UNION_DISCRIMINATOR)
        yield diag(
            "MG205",
            marker.pos if marker is not None else d.pos,
            f"discriminator {d.go_name} of union {union_label(struct, union)} has no members",
            hint=hint,
        )


def check_default_value(model: Model) -> Iterator[Diagnostic]:
    """MG206."""
    for struct, union in unions(model):
        d = union.discriminator
        if d is None or d.default is None or not d.values:
            continue
        value = default_string(d.default)
        if value is not None and value in d.values:
            continue
        yield diag(
            "MG206",
            d.pos,
            f"discriminator {d.go_name} of union {union_label(struct, union)} defaults to "
            f"{quoted([value]) if value is not None else d.default}, which is not a value of {_enum_name(model, d)} "
            f"({quoted(d.values)})",
            hint=f"write `// +default={json.dumps(_closest_value(value, d.values))}`",
        )


def _closest_value(value: str | None, values: tuple[str, ...]) -> str:
    """The enum value a wrong default most likely meant (the first value otherwise)."""
    if value is not None:
        for v in values:
            if v.casefold() == value.casefold():
                return v
        close = difflib.get_close_matches(value, list(values), n=1, cutoff=0.5)
        if close:
            return close[0]
    return values[0]


RULES = (
    Rule("MG201", check_discriminator_type),
    Rule("MG202", check_discriminator_requiredness),
    Rule("MG204", check_discriminator_is_member),
    Rule("MG205", check_discriminator_without_members),
    Rule("MG206", check_default_value),
)
