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
import re
from collections.abc import Iterator

from markergen import hints
from markergen.diagnostics import Diagnostic, Severity, diag
from markergen.markers import (
    K8S_UNION_DISCRIMINATOR,
    KUBEBUILDER_ENUM,
    UNION,
    UNION_DISCRIMINATOR,
    UNION_MEMBER,
    Marker,
    default_string,
)
from markergen.model import Discriminator, Model, Struct, Union
from markergen.model.fields import DEFAULT_MARKERS, OPTIONAL_MARKERS, REQUIRED_MARKERS
from markergen.rules.base import (
    DISCRIMINATOR_MARKERS,
    MEMBER_MARKERS,
    Rule,
    marker_removals,
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
        if d.values and d.value_type != "string" and _values_fit(d):
            continue  # an enum of numbers or booleans: its values are typed everywhere
        if union.modes and target.kind == "builtin" and target.name == "bool":
            continue  # validation-gen's mode discriminators may be bool (MG113 otherwise)
        if not (target.kind == "builtin" and target.name == "string"):
            yield diag(
                "MG201",
                d.pos,
                f"discriminator {d.go_name} of union {label} has type "
                f"{d.type.text or target.name or target.kind}, which is not a string",
                hint=hints.edits(
                    hints.replace("string", d.type.deref().text or target.name, on=d.go_name),
                    *_enum_list(struct, union),
                    otherwise="a named `+enum` string type with one constant per value",
                ),
            )
        elif union.traits.untyped_discriminator and not d.values and not _enum_marker_broken(
            model, d, f"{struct.name}.{d.go_name}"
        ):
            yield diag(
                "MG201",
                d.pos,
                f"discriminator {d.go_name} of union {label} has type "
                f"{d.type.text or 'string'}, which has no enum values: this is a kep2022 "
                "union, kep1027 requires a +enum string type",
                hint=_values_hint(struct, union),
                severity=Severity.WARNING,
            )


def _values_hint(struct: Struct, union: Union) -> str:
    """MG201's hint for a string discriminator without values: list its members' values
    on the field; with no member to take them from, say what to write (never nothing)."""
    d = union.discriminator
    assert d is not None
    otherwise = "a named `+enum` string type with one constant per value"
    edits = _enum_list(struct, union)
    if edits:
        return hints.edits(*edits, otherwise=otherwise)
    return (
        f"list the values {d.go_name} accepts in `// +{KUBEBUILDER_ENUM}=...` above "
        f"{d.go_name} (one value per variant, separated by `;`), or use {otherwise}; then "
        "mark the field each value selects with `+unionMember=<value>`"
    )


def _values_fit(d: Discriminator) -> bool:
    """Every value of a bool, integer or float discriminator is one of its type (an
    `Enum=Foo;Bar` of names on an int32 field is a string enum on the wrong type)."""
    for v in d.values:
        try:
            x = json.loads(v) if isinstance(v, str) else v
        except ValueError:
            return False
        number = isinstance(x, int | float) and not isinstance(x, bool)
        if d.value_type == "boolean" and not isinstance(x, bool):
            return False
        if d.value_type == "integer" and not (number and float(x).is_integer()):
            return False
        if d.value_type == "number" and not number:
            return False
    return True


def _enum_marker_broken(model: Model, d: Discriminator, field: str) -> bool:
    """The discriminator's type or field has an enum marker markergen could not read
    (MG004) or a misspelt one (MG003): that is the one report of the missing values."""
    subjects = [f"field {field}"]
    if d.type.deref().name:
        subjects.append(f"type {d.type.deref().name}")
    return any(
        diagnostic.code in ("MG003", "MG004")
        and any(f" on {s}{end}" in diagnostic.message for s in subjects for end in (";", ":"))
        for diagnostic in model.diagnostics
    )


def _enum_list(struct: Struct, union: Union) -> list[str]:
    """The edit that lists a discriminator's values on the field itself (controller-gen's
    enum marker): one value per member, as the members are selected today."""
    d = union.discriminator
    assert d is not None
    field = struct.field(d.go_name)
    if field is not None and field.marker(KUBEBUILDER_ENUM) is not None:
        return []
    values = sorted({m.value for m in union.members if m.value})
    if not values:
        return []
    return [hints.add_above(f"// +{KUBEBUILDER_ENUM}={';'.join(values)}", d.go_name)]


def _requiredness_edits(struct: Struct, d: Discriminator, *, required: bool) -> list[str]:
    """The marker and json tag edits that make the discriminator required (or
    optional with omitempty)."""
    field = struct.field(d.go_name)
    if field is None:
        return []
    want, drop = ("required", OPTIONAL_MARKERS) if required else ("optional", REQUIRED_MARKERS)
    out = marker_removals(field, drop)
    if not any(m.name in (REQUIRED_MARKERS if required else OPTIONAL_MARKERS) for m in field.markers):
        out.append(hints.add_above(f"// +{want}", d.go_name))
    tag = (
        hints.json_options(field.json, drop=("omitempty",))
        if required
        else hints.json_options(field.json, add=("omitempty",))
    )
    if tag is not None:
        out.append(tag)
    return out


def _tag_edit(struct: Struct, d: Discriminator) -> list[str]:
    field = struct.field(d.go_name)
    edit = hints.json_options(field.json, add=("omitempty",)) if field is not None else None
    return [edit] if edit is not None else [f'tag it `json:"{d.json_name},omitempty"`']


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
            if d.type.kind == "pointer" and not d.omitempty:
                # A nil pointer is sent as null, which the API server prunes and then
                # defaults: clients can leave it unset (envoyproxy/gateway's LocalJWKS).
                continue
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
                    hint=hints.edits(*_requiredness_edits(struct, d, required=False)),
                )
        elif "" in d.values:
            if not d.omitempty:
                yield diag(
                    "MG202",
                    d.pos,
                    f'{name}: the empty string is the default option ("" is a value of '
                    f"{_enum_name(model, d)}), so the field must be omitempty",
                    hint=hints.edits(*_tag_edit(struct, d)),
                )
        elif not d.required:
            yield diag(
                "MG202",
                d.pos,
                f'{name} has no default option (no +default and "" is not a value of '
                f"{_enum_name(model, d)}), so it must be required",
                hint=hints.edits(
                    *_requiredness_edits(struct, d, required=True),
                    otherwise='add a +default, or a "" value to the enum',
                ),
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
            wrong = next((m for m in field.markers if m.name in MEMBER_MARKERS), None) if field else None
            yield diag(
                "MG204",
                wrong.pos if wrong is not None else d.pos,
                f"field {d.go_name} of {struct.name} is the discriminator of union "
                f"{union_label(struct, union)} and also a union member ({what})",
                hint=hints.edits(*marker_removals(field, MEMBER_MARKERS))
                or "a discriminator selects members; it cannot be one: remove the member marker",
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
            hint = hints.edits(
                *(hints.add_above(f"// +{UNION_MEMBER}={value}", go_name) for go_name, value in similar),
                otherwise="remove the discriminator marker if no value needs a member",
            )
        elif any(m.name == UNION for m in struct.markers):
            union_marker = next(m for m in struct.markers if m.name == UNION)
            hint = hints.edits(
                hints.remove(hints.marker_line(union_marker.raw), struct.name),
                *_discriminator_removal(struct, d),
                otherwise="mark the members with `+unionMember=<value>`",
            )
        elif d.values:
            # an enum field (its type's values, or a list on the field such as openshift's
            # FeatureGateAwareEnum lines) validates its value even without members:
            # removing the discriminator marker is not the fix
            hint = (
                f"mark the field each value of {d.go_name} selects with "
                f"`+{UNION_MEMBER}=<value>` (values: {quoted(d.values)}); a value that "
                "selects no field needs none"
            )
        else:
            hint = hints.edits(
                *_discriminator_removal(struct, d),
                otherwise="mark the members with `+unionMember=<value>`",
            )
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


def _discriminator_removal(struct: Struct, d: Discriminator) -> list[str]:
    return marker_removals(struct.field(d.go_name), DISCRIMINATOR_MARKERS)


def check_default_value(model: Model) -> Iterator[Diagnostic]:
    """MG206, for each default marker of the discriminator (openshift/api writes
    `+kubebuilder:default` and `+default` both; each must be a value), at the marker."""
    for struct, union in unions(model):
        d = union.discriminator
        if d is None or d.default is None or not d.values:
            continue
        field = struct.field(d.go_name)
        written: list[Marker | None] = [
            m for m in (field.markers if field else ()) if m.name in DEFAULT_MARKERS
        ]
        for marker in written or [None]:
            raw = d.default
            if marker is not None and marker.value is not None and not _REF.match(marker.value):
                raw = marker.value
            value = default_string(raw)
            if value is not None and value in d.values:
                continue
            yield diag(
                "MG206",
                marker.pos if marker is not None else d.pos,
                f"discriminator {d.go_name} of union {union_label(struct, union)} defaults to "
                f"{quoted([value]) if value is not None else raw}, which is not a value of "
                f"{_enum_name(model, d)} ({quoted(d.values)})",
                hint=_default_hint(marker, _closest_value(value, d.values)),
            )


# openapi-gen's `+default=ref(Const)`: the model resolves it (d.default)
_REF = re.compile(r"^\s*ref\(")


def _default_hint(marker: Marker | None, value: str) -> str:
    if marker is None:
        return f"write `// +default={json.dumps(value)}`"
    # controller-gen's `+kubebuilder:default=Foo` takes a bare word; openapi-gen's JSON.
    quoted_value = (marker.value or "").lstrip().startswith('"')
    written = json.dumps(value) if quoted_value else value
    old = marker.raw
    sep = ":=" if old.startswith(f"+{marker.name}:=") else "="
    return hints.replace(f"+{marker.name}{sep}{written}", old)


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
