"""kep1027: the current KEP-1027 design (the default).

The discriminator is a `+unionDiscriminator` field of a `+enum` string type;
`+unionMember[=<memberName>][,optional]` marks the members (the value defaults to the Go
field name), `+unionDiscriminatedBy=<discriminator>` says which union a member belongs to
when a struct holds several. The discriminator "MUST be required if there is no default
option, omitempty if the default option is the empty string, or optional and omitempty
if a default value is specified with the // +default marker" (the current KEP, "Go
Markers"): MG202.

It also forms kep2022 unions, the 2022 draft of KEP-1027: `+unionDiscriminator` on a
plain string field (no enum values), `+optional` for at most one member or `+required`
for exactly one, and `+unionMember` on the members, also in the form
`+unionMember=<discriminator>`. The markers are the same, the discriminator's type
decides; a kep2022 union is reported (MG201) so the author can move to the current
design.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from markergen import hints
from markergen.diagnostics import Diagnostic, diag
from markergen.markers import (
    REGISTRY,
    UNION_DISCRIMINATED_BY,
    UNION_DISCRIMINATOR,
    UNION_MEMBER,
    Marker,
)
from markergen.model import (
    Dialect,
    Discriminator,
    Field,
    Member,
    Union,
)
from markergen.model.dialects.base import (
    Ctx,
    discriminator_of,
    known_discriminators,
    marker_of,
    plain_discriminators,
)


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


def form_discriminated(ctx: Ctx, plain: list[Field], house: bool = False) -> list[Union]:
    """`house`: openshift/api's `+union` struct with `+unionMember` fields, where a
    member's implicit value (its Go name) that is no discriminator value is a warning
    (MG340) and the member is kept out of the union, so no output builds a rule that
    no object could satisfy."""
    discs = plain_discriminators(ctx)
    built = {d.go_name: discriminator_of(d, ctx) for d in discs}
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
        members = f.all_markers(UNION_MEMBER)
        by_markers = f.all_markers(UNION_DISCRIMINATED_BY)
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
                        + known_discriminators(discs)
                        + "; unions cannot span structs",
                        hint=hints.replace(
                            f"+{UNION_DISCRIMINATED_BY}={_closest_name(by.value or '', discs)}",
                            by.raw,
                        )
                        if discs
                        else None,
                    )
                )
            else:
                targets.append((target, by))
        value = f.go_name
        if um is not None and um.value:
            target = find(um.value)
            if target is not None and um.value not in built[target.go_name].values:
                # kep2022's `+unionMember=<discriminator>`.
                ctx.diagnostics.append(
                    diag(
                        "MG310",
                        um.pos,
                        f"`+unionMember={um.value}` on {ctx.subject(f)} is the kep2022 form "
                        "naming the discriminator",
                        hint=hints.edits(
                            hints.replace(f"+{UNION_MEMBER}", f"+{UNION_MEMBER}={um.value}"),
                            hints.add_above(f"// +{UNION_DISCRIMINATED_BY}={um.value}", f.go_name),
                        ),
                    )
                )
                targets.append((target, um))
            else:
                value = um.value
        for extra in members[1:]:
            ctx.diagnostics.append(
                diag(
                    "MG309",
                    extra.pos,
                    f"field {ctx.subject(f)} has several +unionMember markers",
                    hint=hints.remove(hints.marker_line(extra.raw), f.go_name),
                )
            )
        distinct = {t.go_name for t, _ in targets}
        if len(distinct) > 1:
            ctx.diagnostics.append(
                diag(
                    "MG309",
                    targets[1][1].pos,
                    f"field {ctx.subject(f)} is a member of two unions "
                    f"({', '.join(sorted(distinct))})",
                    hint=hints.edits(
                        *(
                            hints.remove(hints.marker_line(m.raw), f.go_name)
                            for t, m in targets[1:]
                            if t.go_name != targets[0][0].go_name
                            and m.name == UNION_DISCRIMINATED_BY
                        )
                    )
                    or None,
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
                if _misspelt_discriminator(ctx):
                    continue  # MG003 at the misspelt marker is the one report
                ctx.diagnostics.append(
                    diag(
                        "MG307",
                        pos,
                        f"union member {ctx.subject(f)} is in struct {ctx.struct.name}, which has "
                        "no +unionDiscriminator field",
                        hint=hints.edits(
                            *(hints.remove(hints.marker_line(m.raw), f.go_name) for m in members),
                            otherwise="add a discriminator field of a +enum string type marked "
                            "+unionDiscriminator, with a value for each member",
                        ),
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
                        hint=_which_union_hint(f, um, discs, built),
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
        marker = marker_of(d, UNION_DISCRIMINATOR)
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


def _misspelt_discriminator(ctx: Ctx) -> bool:
    """A field of the struct carries a misspelling of `+unionDiscriminator` (MG003)."""
    return any(
        REGISTRY.get(m.name) is None and REGISTRY.suggest(m.name) == UNION_DISCRIMINATOR
        for f in ctx.struct.fields
        for m in f.markers
        if m.name not in (UNION_MEMBER, UNION_DISCRIMINATED_BY)
    )


def _closest_name(name: str, discs: list[Field]) -> str:
    """The discriminator a member or a `+unionDiscriminatedBy` most likely meant."""
    names = [d.go_name for d in discs]
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.0)
    return close[0] if close else names[0]


def _which_union_hint(
    f: Field, um: Marker | None, discs: list[Field], built: dict[str, Discriminator]
) -> str:
    """MG203: name the discriminator one of whose values selects the member."""
    value = (um.value if um is not None else None) or f.go_name
    names = {value.casefold(), f.json_name.casefold()}
    chosen = next(
        (d.go_name for d in discs if names & {v.casefold() for v in built[d.go_name].values}),
        discs[0].go_name,
    )
    others = " or ".join(d.go_name for d in discs if d.go_name != chosen)
    return hints.edits(
        hints.add_above(f"// +{UNION_DISCRIMINATED_BY}={chosen}", f.go_name),
        otherwise=f"name {others} if the member belongs to that union",
    )


def _unmatched_member(ctx: Ctx, m: Member, disc: Discriminator) -> Diagnostic:
    f = next(x for x in ctx.struct.fields if x.go_name == m.go_name)
    marker = marker_of(f, UNION_MEMBER)
    close = _closest(m.value, disc.values)
    flags = ",optional" if m.optional else ""
    old = marker.raw if marker is not None else f"+{UNION_MEMBER}{flags}"
    chosen = close or disc.values[0]
    others = [v for v in disc.values if v != chosen]
    hint = hints.edits(
        hints.replace(f"+{UNION_MEMBER}={chosen}{flags}", old),
        otherwise=f"another of {', '.join(others)}: the discriminator value that selects it"
        if others
        else None,
    )
    return diag(
        "MG340",
        marker.pos if marker else m.pos,
        f"member {ctx.subject(f)} takes its Go name {m.value!r} as discriminator value, "
        f"which is not a value of {disc.go_name} ({', '.join(disc.values)}); no rule is "
        "built for this member",
        hint=hint,
    )
