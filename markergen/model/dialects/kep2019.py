"""kep2019: the 2019 KEP, as openapi-gen and structured-merge-diff implement it.

`+union` on a struct makes every field but the discriminator a member; `+unionDeprecated`
on fields makes those fields one member-union. A member's discriminator value is its Go
field name ("The discriminatedValue will typically be set to the name of the Go
variable", the 2019 KEP, "OpenAPI"). `x-kubernetes-unions` is a list on the struct.
"""

from __future__ import annotations

from dataclasses import replace

from markergen import hints
from markergen.diagnostics import diag
from markergen.golang.syntax import Position
from markergen.markers import (
    UNION,
    UNION_DEPRECATED,
    UNION_DISCRIMINATOR,
    UNION_MEMBER,
    Marker,
)
from markergen.model import (
    Discriminator,
    Field,
    Member,
    Union,
)
from markergen.model.dialects.base import (
    Ctx,
    discriminator_of,
    marker_of,
    plain_discriminators,
    pos_of,
)


def form_kep2019(ctx: Ctx, struct_union: Marker | None, deprecated: list[Field]) -> list[Union]:
    discs = plain_discriminators(ctx)
    for extra in discs[1:]:
        ctx.diagnostics.append(
            diag(
                "MG203",
                pos_of(extra, UNION_DISCRIMINATOR),
                f"struct {ctx.struct.name} has several +unionDiscriminator fields "
                f"({', '.join(d.go_name for d in discs)}) in a kep2019 union; the 2019 KEP allows "
                "one per structure",
            )
        )
    disc_field = discs[0] if discs else None
    disc = discriminator_of(disc_field, ctx) if disc_field else None
    out: list[Union] = []

    def make(origin: str, members: list[Field], pos: Position, marker: Marker | None) -> Union:
        return Union(
            struct=ctx.struct.key,
            dialect="kep2019",
            origin="struct" if origin == "struct" else "deprecated",
            name=disc.go_name if disc else "",
            discriminator=disc,
            members=tuple(Member(f.go_name, f.json_name, f.go_name, False, f.pos) for f in members),
            empty_values=(),
            mode="at-most-one",
            semantics="kep2019",
            pos=pos,
            stage=marker.stage if marker else "",
            gate=marker.gate if marker else "",
        )

    if struct_union is not None:
        members = [
            f for f in ctx.struct.fields if f is not disc_field and f.json_name and not f.inline
        ]
        union = make("struct", members, struct_union.pos, struct_union)
        if disc is not None and _documentation(ctx, disc, members, struct_union):
            union = replace(union, documentation=True)
        elif disc is not None and disc.values:
            named = [m for m in union.members if _names_a_value(m, disc)]
            if named and len(named) < len(union.members):
                union = replace(union, members=tuple(named), listed=union.members)
        out.append(union)
    if deprecated:
        first = marker_of(deprecated[0], UNION_DEPRECATED)
        out.append(make("deprecated", deprecated, first.pos if first else deprecated[0].pos, first))
    return out


def _names_a_value(m: Member, disc: Discriminator) -> bool:
    values = {v.casefold() for v in disc.values}
    return bool({m.go_name.casefold(), m.json_name.casefold()} & values)


def _documentation(ctx: Ctx, disc: Discriminator, members: list[Field], marker: Marker) -> bool:
    """A `+union` struct whose fields mostly match no discriminator value: usually
    settings shared by every variant (a health check's timeout beside its http), or
    alternatives named unlike their values; either way `+union` cannot say which value
    selects which field. openapi-gen makes every field a member; enforcing that would
    reject objects the API server accepts (controller-gen ignores `+union`). Reported
    once (MG360) and never enforced."""
    if not disc.values or len(members) < 2:
        return False
    if any(marker_of(f, UNION_MEMBER) is not None for f in members):
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
            hint=hints.edits(
                *(
                    hints.add_above(f"// +{UNION_MEMBER}={_value_of(f, disc)}", f.go_name)
                    for f in alternatives
                ),
                otherwise=f"mark each other alternative `// +{UNION_MEMBER}=<its value of "
                f"{disc.go_name}>`; remove `// +{UNION}` if the fields are settings shared by "
                "every value",
            )
            if alternatives
            else hints.edits(
                hints.remove(hints.marker_line(marker.raw), ctx.struct.name),
                otherwise=f"mark each alternative `// +{UNION_MEMBER}=<its value of "
                f"{disc.go_name}>`",
            ),
        )
    )
    return True


def _value_of(f: Field, disc: Discriminator) -> str:
    """The discriminator value a field is named after (compared case-insensitively)."""
    names = {f.go_name.casefold(), f.json_name.casefold()}
    return next(v for v in disc.values if v.casefold() in names)
