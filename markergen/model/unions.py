"""Union recognition (DESIGN section 3, "Dialects" and "Unions in the model").

One struct at a time: its fields' markers decide which unions it holds. What stops a
union from being formed (a member that belongs nowhere, mixed dialects, ...) is
reported here; rules about unions that were formed live in markergen/rules/.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from markergen.diagnostics import Diagnostic, diag
from markergen.golang.syntax import Position
from markergen.markers import (
    K8S_UNION_DISCRIMINATOR,
    K8S_UNION_MEMBER,
    K8S_ZERO_OR_ONE_OF_MEMBER,
    KUBEBUILDER_AT_LEAST_ONE_OF,
    KUBEBUILDER_AT_MOST_ONE_OF,
    KUBEBUILDER_EXACTLY_ONE_OF,
    UNION,
    UNION_DEPRECATED,
    UNION_DISCRIMINATED_BY,
    UNION_DISCRIMINATOR,
    UNION_MEMBER,
    Marker,
)
from markergen.model import (
    Dialect,
    Discriminator,
    Enum,
    Field,
    Member,
    Mode,
    NamedType,
    TypeKey,
    TypeRef,
    Union,
)

KEP2019_FIELD = UNION_DEPRECATED
PLAIN_DISCRIMINATOR = UNION_DISCRIMINATOR
PLAIN_MEMBER = UNION_MEMBER
DISCRIMINATED_BY = UNION_DISCRIMINATED_BY
K8S_DISCRIMINATOR = K8S_UNION_DISCRIMINATOR
K8S_MEMBER = K8S_UNION_MEMBER
K8S_ZERO_OR_ONE = K8S_ZERO_OR_ONE_OF_MEMBER

_FAMILY_MARKERS = {
    "kep2019": (KEP2019_FIELD,),
    "plain": (PLAIN_MEMBER, DISCRIMINATED_BY),
    "k8s": (K8S_DISCRIMINATOR, K8S_MEMBER, K8S_ZERO_OR_ONE),
}
_ANY_FAMILY_MARKER = frozenset(m for ms in _FAMILY_MARKERS.values() for m in ms)
_FAMILY_NAMES = {
    "kep2019": "+unionDeprecated",
    "plain": "+unionMember",
    "k8s": "+k8s: union markers",
}


@dataclass(frozen=True)
class StructInput:
    key: TypeKey
    name: str
    markers: tuple[Marker, ...]
    fields: tuple[Field, ...]
    pos: Position


@dataclass
class _Ctx:
    struct: StructInput
    enums: Mapping[TypeKey, Enum]
    types: Mapping[TypeKey, NamedType]
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def subject(self, f: Field) -> str:
        return f"{self.struct.name}.{f.go_name}"


def _families(f: Field) -> list[str]:
    names = {m.name for m in f.markers}
    # Most fields carry no union marker at all: one set test answers them.
    if names.isdisjoint(_ANY_FAMILY_MARKER):
        return []
    return [fam for fam, ms in _FAMILY_MARKERS.items() if names.intersection(ms)]


def _marker_of(f: Field, *names: str) -> Marker | None:
    for m in f.markers:
        if m.name in names:
            return m
    return None


def _pos_of(f: Field, *names: str) -> Position:
    """Where a diagnostic about `f`'s union markers points: the first of those markers,
    else the field."""
    marker = _marker_of(f, *names)
    return marker.pos if marker is not None else f.pos


def _enum_of(ref: TypeRef, ctx: _Ctx) -> tuple[TypeKey | None, tuple[str, ...]]:
    """The enum behind a discriminator's type (through pointers and aliases)."""
    ref = ref.deref()
    seen: set[TypeKey] = set()
    while ref.kind == "named" and ref.type_key not in seen:
        key = ref.type_key
        seen.add(key)
        if key in ctx.enums:
            return key, ctx.enums[key].value_set
        named = ctx.types.get(key)
        if named is None or not named.alias:
            break
        ref = named.underlying.deref()
    return None, ()


_REF = re.compile(r"^\s*ref\(\s*(?:[\w./-]+\.)?(\w+)\s*\)\s*$")


def _default(text: str | None, enum: Enum | None) -> str | None:
    """openapi-gen's `+default=ref(Const)` names a constant: the default is its value,
    written as JSON like any other `+default=` (a constant the model does not know is
    kept as written)."""
    if text is None or enum is None:
        return text
    match = _REF.match(text)
    if match is None:
        return text
    for v in enum.values:
        if v.name == match.group(1):
            return json.dumps(v.value)
    return text


def _discriminator(f: Field, ctx: _Ctx) -> Discriminator:
    enum_key, values = _enum_of(f.type, ctx)
    if enum_key is None and f.enum_values:
        values = tuple(sorted(set(f.enum_values)))
    base = f.type.deref()
    if enum_key is None and not values and base.kind == "external":
        ctx.diagnostics.append(
            diag(
                "MG104",
                _pos_of(f, PLAIN_DISCRIMINATOR, K8S_DISCRIMINATOR),
                f"discriminator {ctx.subject(f)} has type {base.name} from package "
                f"{base.package}, which is not among the inputs, so its enum values are unknown",
                hint=f"add the package {base.package} to the patterns markergen reads",
            )
        )
    return Discriminator(
        go_name=f.go_name,
        json_name=f.json_name,
        type=f.type,
        enum=enum_key,
        values=values,
        required=not f.optional,
        omitempty=f.json.omitempty,
        default=_default(f.default, ctx.enums.get(enum_key) if enum_key else None),
        pos=f.pos,
    )


def _member_fields(ctx: _Ctx, family: str) -> list[Field]:
    out = []
    for f in ctx.struct.fields:
        fams = _families(f)
        if fams and fams[0] == family:
            out.append(f)
    return out


def build_unions(
    struct: StructInput, enums: Mapping[TypeKey, Enum], types: Mapping[TypeKey, NamedType]
) -> tuple[tuple[Union, ...], list[Diagnostic]]:
    ctx = _Ctx(struct, enums, types)
    for f in struct.fields:
        fams = _families(f)
        if len(fams) > 1:
            ctx.diagnostics.append(
                diag(
                    "MG404",
                    _pos_of(f, *_FAMILY_MARKERS[fams[1]]),
                    f"field {ctx.subject(f)} mixes union dialects: "
                    + " and ".join(_FAMILY_NAMES[x] for x in fams)
                    + f"; it is read as {_FAMILY_NAMES[fams[0]]} only",
                )
            )
    struct_union = next((m for m in struct.markers if m.name == UNION), None)
    deprecated = _member_fields(ctx, "kep2019")
    plain = _member_fields(ctx, "plain")
    unions: list[Union] = []
    if struct_union is not None and plain and not deprecated:
        # openshift/api's house style: `+union` on the struct with explicit
        # `+unionMember[,optional]` fields is one discriminated union whose members are
        # exactly the marked fields (the other fields are settings every variant shares).
        unions.extend(_discriminated(ctx, plain, house=True))
    elif struct_union is not None or deprecated:
        if plain:
            # One union, one report: at the struct's +union, else at the struct.
            names = ", ".join(f.go_name for f in plain)
            ctx.diagnostics.append(
                diag(
                    "MG404",
                    struct_union.pos if struct_union is not None else struct.pos,
                    f"struct {struct.name} declares a kep2019 union (+unionDeprecated) and "
                    f"marks {names} +unionMember; one union cannot mix dialects",
                    hint=f"on {names}, write `// +unionDeprecated` instead of "
                    "`// +unionMember` (or use the current markers on every field)",
                )
            )
        unions.extend(_kep2019(ctx, struct_union, deprecated))
    else:
        unions.extend(_discriminated(ctx, plain))
    k8s = _k8s(ctx, _member_fields(ctx, "k8s"))
    unions = _one_union_written_twice(unions, k8s)
    unions.extend(_controller_gen(ctx))
    return tuple(unions), ctx.diagnostics


def _union_key(u: Union) -> tuple[str, frozenset[str]]:
    d = u.discriminator.go_name if u.discriminator else ""
    return d, frozenset(m.go_name for m in u.members)


def _one_union_written_twice(others: list[Union], k8s: list[Union]) -> list[Union]:
    """kubernetes/api marks some structs `+union` (2019) and their members
    `+k8s:unionMember` too: one union, which the API server checks with validation-gen's
    code, so the k8s spelling stands and the 2019 copy (same discriminator, same members)
    goes."""
    written = {_union_key(u) for u in k8s}
    return [u for u in others if _union_key(u) not in written] + k8s


CONTROLLER_GEN_UNIONS: dict[str, Mode] = {
    KUBEBUILDER_EXACTLY_ONE_OF: "exactly-one",
    KUBEBUILDER_AT_MOST_ONE_OF: "at-most-one",
    KUBEBUILDER_AT_LEAST_ONE_OF: "at-least-one",
}


def _json_name_of(ctx: _Ctx, name: str, by_json: Mapping[str, Field]) -> str:
    """The JSON name a controller-gen union item probably meant (its Go name, or the
    closest JSON name)."""
    for f in ctx.struct.fields:
        if f.go_name == name and f.json_name:
            return f.json_name
    close = difflib.get_close_matches(name, list(by_json), n=1, cutoff=0.5)
    return close[0] if close else name


def _controller_gen(ctx: _Ctx) -> list[Union]:
    """controller-gen's `+kubebuilder:validation:ExactlyOneOf=a;b` (and AtMostOneOf,
    AtLeastOneOf) on a struct: a union without discriminator over the JSON fields it
    names. controller-gen writes its CRD rule itself (`enforced_by`)."""
    out: list[Union] = []
    by_json = {f.json_name: f for f in ctx.struct.fields if f.json_name}
    for m in ctx.struct.markers:
        mode = CONTROLLER_GEN_UNIONS.get(m.name)
        if mode is None:
            continue
        members: list[Member] = []
        for name in m.values:
            f = by_json.get(name)
            if f is None:
                ctx.diagnostics.append(
                    diag(
                        "MG341",
                        m.pos,
                        f"+{m.name} on {ctx.struct.name} names {name!r}, which is no JSON "
                        f"field of {ctx.struct.name}",
                        hint="write the JSON names: `+"
                        + m.name
                        + "="
                        + ";".join(
                            by_json[n].json_name if n in by_json else _json_name_of(ctx, n, by_json)
                            for n in m.values
                        )
                        + "`",
                    )
                )
                continue
            members.append(Member(f.go_name, f.json_name, f.go_name, False, f.pos))
        out.append(
            Union(
                struct=ctx.struct.key,
                dialect="kubebuilder",
                origin="discriminated",
                name=m.name.rpartition(":")[2],
                discriminator=None,
                members=tuple(members),
                empty_values=(),
                mode=mode,
                semantics="kep1027",
                pos=m.pos,
            )
        )
    return out


def _plain_discriminators(ctx: _Ctx) -> list[Field]:
    return [f for f in ctx.struct.fields if _marker_of(f, PLAIN_DISCRIMINATOR) is not None]


def _kep2019(ctx: _Ctx, struct_union: Marker | None, deprecated: list[Field]) -> list[Union]:
    discs = _plain_discriminators(ctx)
    for extra in discs[1:]:
        ctx.diagnostics.append(
            diag(
                "MG203",
                _pos_of(extra, PLAIN_DISCRIMINATOR),
                f"struct {ctx.struct.name} has several +unionDiscriminator fields "
                f"({', '.join(d.go_name for d in discs)}) in a kep2019 union; kep/000 allows "
                "one per structure",
            )
        )
    disc_field = discs[0] if discs else None
    disc = _discriminator(disc_field, ctx) if disc_field else None
    out: list[Union] = []

    def make(origin: str, members: list[Field], pos: Position, marker: Marker | None) -> Union:
        return Union(
            struct=ctx.struct.key,
            dialect="kep2019",
            origin="struct" if origin == "struct" else "deprecated",
            name=disc.go_name if disc else "",
            discriminator=disc,
            members=tuple(
                Member(f.go_name, f.json_name, f.go_name, False, f.pos) for f in members
            ),
            empty_values=(),
            mode="at-most-one",
            semantics="kep2019",
            pos=pos,
            stage=marker.stage if marker else "",
            gate=marker.gate if marker else "",
        )

    if struct_union is not None:
        members = [
            f
            for f in ctx.struct.fields
            if f is not disc_field and f.json_name and not f.inline
        ]
        union = make("struct", members, struct_union.pos, struct_union)
        if disc is not None and _documentation(ctx, disc, members, struct_union):
            union = replace(union, documentation=True)
        out.append(union)
    if deprecated:
        first = _marker_of(deprecated[0], KEP2019_FIELD)
        out.append(make("deprecated", deprecated, first.pos if first else deprecated[0].pos, first))
    return out


def _documentation(
    ctx: _Ctx, disc: Discriminator, members: list[Field], marker: Marker
) -> bool:
    """A `+union` struct whose fields mostly match no discriminator value: usually
    settings shared by every variant (a health check's timeout beside its http), or
    alternatives named unlike their values; either way `+union` cannot say which value
    selects which field. openapi-gen makes every field a member; enforcing that would
    reject objects the API server accepts (controller-gen ignores `+union`). Reported
    once (MG360) and never enforced."""
    if not disc.values or len(members) < 2:
        return False
    if any(_marker_of(f, PLAIN_MEMBER) is not None for f in members):
        return False  # members are marked: the author said which fields are alternatives
    values = {v.casefold() for v in disc.values}
    alternatives = [f for f in members if {f.go_name.casefold(), f.json_name.casefold()} & values]
    if 2 * len(alternatives) >= len(members):
        return False
    unmatched = [f.json_name for f in members if f not in alternatives]
    ctx.diagnostics.append(
        diag(
            "MG360",
            marker.pos,
            f"+union on struct {ctx.struct.name}: {len(unmatched)} of its {len(members)} fields "
            f"({', '.join(unmatched)}) match no value of {disc.go_name} "
            f"({', '.join(repr(v) for v in disc.values)}), so markergen cannot tell which "
            "fields are alternatives and which are settings; the union is not enforced "
            "(no runtime validation, no CRD rule)",
            hint=f"mark each alternative with `// +unionMember=<its value of {disc.go_name}>`, "
            "or remove `// +union` if the fields are settings shared by every value",
        )
    )
    return True


def _closest(value: str, values: Sequence[str]) -> str | None:
    """The enum value a member's Go name was most likely meant to be."""
    for v in values:
        if v.casefold() == value.casefold():
            return v
    close = difflib.get_close_matches(value, [v for v in values if v], n=1, cutoff=0.5)
    if close:
        return close[0]
    prefixed = [v for v in values if v and (v.startswith(value) or value.startswith(v))]
    return prefixed[0] if prefixed else None


def _discriminated(ctx: _Ctx, plain: list[Field], house: bool = False) -> list[Union]:
    """`house`: openshift/api's `+union` struct with `+unionMember` fields, where a
    member's implicit value (its Go name) that is no discriminator value is a warning
    (MG340) and the member is kept out of the union, so no output builds a rule that
    no object could satisfy."""
    discs = _plain_discriminators(ctx)
    built = {d.go_name: _discriminator(d, ctx) for d in discs}
    assigned: dict[str, list[Member]] = {d.go_name: [] for d in discs}
    implicit: set[str] = set()  # members whose value is their Go name, unwritten

    def find(name: str) -> Field | None:
        for d in discs:
            if name in (d.go_name, d.json_name):
                return d
        return None

    for f in plain:
        if f.go_name in built:
            continue  # a discriminator with a member marker too: MG204, reported by the rules
        members = f.all_markers(PLAIN_MEMBER)
        by_markers = f.all_markers(DISCRIMINATED_BY)
        um = members[0] if members else None
        targets: list[tuple[Field, Marker]] = []
        for by in by_markers:
            target = find(by.value or "")
            if target is None:
                ctx.diagnostics.append(
                    diag(
                        "MG306",
                        by.pos,
                        f"+unionDiscriminatedBy={by.value} on {ctx.subject(f)} names no "
                        f"discriminator of struct {ctx.struct.name}"
                        + _known(discs)
                        + "; unions cannot span structs",
                    )
                )
            else:
                targets.append((target, by))
        value = f.go_name
        if um is not None and um.value:
            target = find(um.value)
            if target is not None and um.value not in built[target.go_name].values:
                # kep2022's `+unionMember=<discriminator>` (DESIGN section 3).
                ctx.diagnostics.append(
                    diag(
                        "MG310",
                        um.pos,
                        f"`+unionMember={um.value}` on {ctx.subject(f)} is the kep2022 form "
                        "naming the discriminator",
                        hint=f"write `+unionMember` and `+unionDiscriminatedBy={um.value}`",
                    )
                )
                targets.append((target, um))
            else:
                value = um.value
        for extra in members[1:]:
            ctx.diagnostics.append(
                diag("MG309", extra.pos, f"field {ctx.subject(f)} has several +unionMember markers")
            )
        distinct = {t.go_name for t, _ in targets}
        if len(distinct) > 1:
            ctx.diagnostics.append(
                diag(
                    "MG309",
                    targets[1][1].pos,
                    f"field {ctx.subject(f)} is a member of two unions "
                    f"({', '.join(sorted(distinct))})",
                )
            )
        if targets:
            chosen = targets[0][0]
        elif len(discs) == 1:
            chosen = discs[0]
        else:
            where = um or (by_markers[0] if by_markers else None)
            pos = where.pos if where else f.pos
            if by_markers:
                continue  # MG306 already said why
            if not discs:
                ctx.diagnostics.append(
                    diag(
                        "MG307",
                        pos,
                        f"union member {ctx.subject(f)} is in struct {ctx.struct.name}, which has "
                        "no +unionDiscriminator field",
                        hint="add a discriminator field of a +enum string type marked "
                        "+unionDiscriminator",
                    )
                )
            else:
                ctx.diagnostics.append(
                    diag(
                        "MG203",
                        pos,
                        f"struct {ctx.struct.name} has several discriminators "
                        f"({', '.join(d.go_name for d in discs)}) and member {ctx.subject(f)} "
                        "does not say which union it belongs to",
                        hint=f"add `+unionDiscriminatedBy=<{'|'.join(d.go_name for d in discs)}>`",
                    )
                )
            continue
        optional = um.has_flag("optional") if um is not None else False
        if value == f.go_name and not (um is not None and um.value):
            implicit.add(f.go_name)
        assigned[chosen.go_name].append(Member(f.go_name, f.json_name, value, optional, f.pos))
    out = []
    for d in discs:
        disc = built[d.go_name]
        chosen_members = tuple(assigned[d.go_name])
        unmatched: tuple[Member, ...] = ()
        if house and disc.values:
            unmatched = tuple(
                m for m in chosen_members if m.value not in disc.values and m.go_name in implicit
            )
            chosen_members = tuple(m for m in chosen_members if m not in unmatched)
            for m in unmatched:
                ctx.diagnostics.append(_unmatched_member(ctx, m, disc))
        dialect: Dialect = "kep1027" if disc.values else "kep2022"
        marker = _marker_of(d, PLAIN_DISCRIMINATOR)
        out.append(
            Union(
                struct=ctx.struct.key,
                dialect=dialect,
                origin="discriminated",
                name=d.go_name,
                discriminator=disc,
                members=chosen_members,
                empty_values=tuple(sorted(set(disc.values) - {m.value for m in chosen_members})),
                mode="exactly-one" if disc.required else "at-most-one",
                semantics="kep1027",
                pos=marker.pos if marker else d.pos,
                stage=marker.stage if marker else "",
                gate=marker.gate if marker else "",
                unmatched=unmatched,
            )
        )
    return out


def _unmatched_member(ctx: _Ctx, m: Member, disc: Discriminator) -> Diagnostic:
    f = next(x for x in ctx.struct.fields if x.go_name == m.go_name)
    marker = _marker_of(f, PLAIN_MEMBER)
    close = _closest(m.value, disc.values)
    flags = ",optional" if m.optional else ""
    if close is not None:
        hint = f"write `// +unionMember={close}{flags}` (the discriminator value that selects it)"
    else:
        hint = (
            f"write `// +unionMember=<value>{flags}` with one of {', '.join(disc.values)}"
        )
    return diag(
        "MG340",
        marker.pos if marker else m.pos,
        f"member {ctx.subject(f)} takes its Go name {m.value!r} as discriminator value, "
        f"which is not a value of {disc.go_name} ({', '.join(disc.values)}); no rule is "
        "built for this member",
        hint=hint,
    )


def _known(discs: Sequence[Field]) -> str:
    if not discs:
        return " (it has none)"
    return " (its discriminators: " + ", ".join(d.go_name for d in discs) + ")"


def _k8s(ctx: _Ctx, fields: list[Field]) -> list[Union]:
    discs: dict[str, Field] = {}
    members: dict[str, list[tuple[Field, Marker]]] = {}
    zero_or_one: dict[str, list[tuple[Field, Marker]]] = {}
    order: list[str] = []

    def note(name: str) -> None:
        if name not in order:
            order.append(name)

    for f in fields:
        seen_unions: list[str] = []
        for m in f.markers:
            if m.name == K8S_DISCRIMINATOR:
                name = m.arg("union") or ""
                discs.setdefault(name, f)
                note(name)
            elif m.name in (K8S_MEMBER, K8S_ZERO_OR_ONE):
                name = m.arg("union") or ""
                target = members if m.name == K8S_MEMBER else zero_or_one
                target.setdefault(name, []).append((f, m))
                note(name)
                if name in seen_unions:
                    continue
                if seen_unions:
                    ctx.diagnostics.append(
                        diag(
                            "MG309",
                            m.pos,
                            f"field {ctx.subject(f)} is a member of two unions "
                            f"({seen_unions[0]!r} and {name!r})",
                        )
                    )
                seen_unions.append(name)
    out = []
    for name in order:
        disc_field = discs.get(name)
        disc = _discriminator(disc_field, ctx) if disc_field else None
        entries = members.get(name, []) + zero_or_one.get(name, [])
        mode: Mode = "exactly-one" if members.get(name) else "at-most-one"
        ms = tuple(
            Member(f.go_name, f.json_name, m.arg("memberName") or f.go_name, False, f.pos)
            for f, m in sorted(entries, key=lambda e: (e[0].pos.line, e[0].pos.column))
        )
        founding = (
            _marker_of(disc_field, K8S_DISCRIMINATOR) if disc_field else (entries[0][1])
        )
        values = disc.values if disc else ()
        out.append(
            Union(
                struct=ctx.struct.key,
                dialect="k8s",
                origin="discriminated",
                name=name or (disc.go_name if disc else ""),
                discriminator=disc,
                members=ms,
                empty_values=tuple(sorted(set(values) - {m.value for m in ms})),
                mode="at-most-one" if disc is not None and not disc.required else mode,
                semantics="kep1027",
                pos=founding.pos if founding else ctx.struct.pos,
                stage=founding.stage if founding else "",
                gate=founding.gate if founding else "",
                gate_disabled=founding.gate_disabled if founding else False,
            )
        )
    return out
