"""k8s: the `+k8s:` tags of Kubernetes declarative validation (validation-gen).

`+k8s:unionDiscriminator(union: "u")`, `+k8s:unionMember(union: "u", memberName: "X")`
(exactly one member set) and `+k8s:zeroOrOneOfMember` (at most one), with `+k8s:enum` on
the discriminator's type. A member's value is its `memberName`, by default the Go field
name. docs/k8s.md describes the tags.
"""

from __future__ import annotations

from markergen.diagnostics import diag
from markergen.markers import (
    K8S_ENUM,
    K8S_UNION_DISCRIMINATOR,
    K8S_UNION_MEMBER,
    K8S_ZERO_OR_ONE_OF_MEMBER,
    Marker,
)
from markergen.model import (
    DialectTraits,
    Field,
    Member,
    Mode,
    Union,
)
from markergen.model.dialects.base import (
    K8S_DISCRIMINATOR,
    K8S_MEMBER,
    K8S_ZERO_OR_ONE,
    Ctx,
    discriminator_of,
    marker_of,
)
from markergen.model.dialects.k8s_modes import MODE_MARKERS

MARKERS: tuple[str, ...] = (
    K8S_UNION_DISCRIMINATOR,
    K8S_UNION_MEMBER,
    K8S_ZERO_OR_ONE_OF_MEMBER,
    K8S_ENUM,
    *MODE_MARKERS,  # mode unions: markergen/model/dialects/k8s_modes.py
)

TRAITS = DialectTraits(
    name="k8s",
    member_name_marker=K8S_UNION_MEMBER,
    member_name_arg="memberName",
)


def _union_key(u: Union) -> tuple[str, frozenset[str]]:
    d = u.discriminator.go_name if u.discriminator else ""
    return d, frozenset(m.go_name for m in u.members)


def one_union_written_twice(others: list[Union], k8s: list[Union]) -> list[Union]:
    """kubernetes/api marks some structs `+union` (2019) and their members
    `+k8s:unionMember` too: one union, which the API server checks with validation-gen's
    code, so the k8s spelling stands and the 2019 copy (same discriminator, same members)
    goes."""
    written = {_union_key(u) for u in k8s}
    return [u for u in others if _union_key(u) not in written] + k8s




def form_k8s(ctx: Ctx, fields: list[Field]) -> list[Union]:
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
        disc = discriminator_of(disc_field, ctx) if disc_field else None
        entries = members.get(name, []) + zero_or_one.get(name, [])
        mode: Mode = "exactly-one" if members.get(name) else "at-most-one"
        ms = tuple(
            Member(f.go_name, f.json_name, m.arg("memberName") or f.go_name, False, f.pos)
            for f, m in sorted(entries, key=lambda e: (e[0].pos.line, e[0].pos.column))
        )
        founding = (
            marker_of(disc_field, K8S_DISCRIMINATOR) if disc_field else (entries[0][1])
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
