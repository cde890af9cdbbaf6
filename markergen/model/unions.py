"""Union recognition.

One struct at a time: its fields' markers decide which unions it holds. What stops a
union from being formed (a member that belongs nowhere, mixed dialects, ...) is
reported here; rules about unions that were formed live in markergen/rules/.
"""

from __future__ import annotations

from collections.abc import Mapping

from markergen import hints
from markergen.diagnostics import Diagnostic, diag
from markergen.markers import (
    K8S_UNION_MEMBER,
    UNION,
    UNION_DEPRECATED,
    UNION_MEMBER,
    Marker,
)
from markergen.model import (
    Enum,
    Field,
    NamedType,
    TypeKey,
    Union,
)
from markergen.model.dialects.base import (
    FAMILY_MARKERS,
    FAMILY_NAMES,
    PLAIN_DISCRIMINATOR,
    Ctx,
    StructInput,
    families,
    marker_of,
    pos_of,
)
from markergen.model.dialects.k8s import form_k8s, one_union_written_twice
from markergen.model.dialects.k8s_modes import form_modes
from markergen.model.dialects.kep1027 import form_discriminated
from markergen.model.dialects.kep2019 import form_kep2019
from markergen.model.dialects.kubebuilder import form_controller_gen
from markergen.model.lookup import FieldLookup


def build_unions(
    struct: StructInput,
    enums: Mapping[TypeKey, Enum],
    types: Mapping[TypeKey, NamedType],
    lookup: FieldLookup | None = None,
) -> tuple[tuple[Union, ...], list[Diagnostic]]:
    """`lookup` finds the JSON fields a struct marker names (promoted ones included)."""
    ctx = Ctx(struct, enums, types, lookup=lookup)
    # Each field's families are asked once here (they were asked four times: 0.26 s
    # at 10,000 types); a field is a member of its first family's unions.
    first: dict[str, list[Field]] = {"kep2019": [], "plain": [], "k8s": []}
    for f in struct.fields:
        fams = families(f)
        if not fams:
            continue
        first[fams[0]].append(f)
        if len(fams) > 1:
            dropped = [m for m in f.markers for x in fams[1:] if m.name in FAMILY_MARKERS[x]]
            ctx.diagnostics.append(
                diag(
                    "MG404",
                    pos_of(f, *FAMILY_MARKERS[fams[1]]),
                    f"field {ctx.subject(f)} mixes union dialects: "
                    + " and ".join(FAMILY_NAMES[x] for x in fams)
                    + f"; it is read as {FAMILY_NAMES[fams[0]]} only",
                    hint=hints.edits(
                        *(hints.remove(hints.marker_line(m.raw), f.go_name) for m in dropped),
                        otherwise=f"keep those and remove the {FAMILY_NAMES[fams[0]]} markers",
                    ),
                )
            )
    struct_union = next((m for m in struct.markers if m.name == UNION), None)
    deprecated = first["kep2019"]
    plain = first["plain"]
    unions: list[Union] = []
    # a discriminator marked as a member too is MG204's, and makes no house style
    house = [f for f in plain if marker_of(f, PLAIN_DISCRIMINATOR) is None]
    if struct_union is not None and house and not deprecated:
        # openshift/api's house style: `+union` on the struct with explicit
        # `+unionMember[,optional]` fields is one discriminated union whose members are
        # exactly the marked fields (the other fields are settings every variant shares).
        unions.extend(form_discriminated(ctx, plain, house=True))
    elif struct_union is not None or deprecated:
        if house:
            # One union, one report: at the struct's +union, else at the struct.
            names = ", ".join(f.go_name for f in house)
            ctx.diagnostics.append(
                diag(
                    "MG404",
                    struct_union.pos if struct_union is not None else struct.pos,
                    f"struct {struct.name} declares a kep2019 union (+unionDeprecated) and "
                    f"marks {names} +unionMember; one union cannot mix dialects",
                    hint=hints.edits(
                        *(
                            hints.replace(
                                f"// +{UNION_DEPRECATED}", f"// +{UNION_MEMBER}", on=f.go_name
                            )
                            for f in house
                        ),
                        otherwise="use the current markers on every field",
                    ),
                )
            )
        unions.extend(form_kep2019(ctx, struct_union, deprecated))
    else:
        unions.extend(form_discriminated(ctx, plain))
    k8s_fields = first["k8s"]
    k8s = form_k8s(ctx, k8s_fields)
    k8s += form_modes(ctx, k8s_fields)
    merged = one_union_written_twice(unions, k8s)
    if k8s and (plain or deprecated) and any(u in merged for u in unions):
        _mixed_with_k8s(ctx, struct_union, deprecated, plain, k8s_fields)
    unions = merged
    unions.extend(form_controller_gen(ctx))
    return tuple(unions), ctx.diagnostics


def _mixed_with_k8s(
    ctx: Ctx,
    struct_union: Marker | None,
    deprecated: list[Field],
    plain: list[Field],
    k8s_fields: list[Field],
) -> None:
    """MG404, once at the struct: members marked `+unionMember` (or `+unionDeprecated`)
    beside `+k8s:unionMember` members of no union of their own name, and not the same
    union written twice. Named k8s unions (`union: "x"`) and zeroOrOneOf groups are
    separate unions, and allowed."""
    unnamed = [
        (f, m)
        for f in k8s_fields
        for m in f.markers
        if m.name == K8S_UNION_MEMBER and not m.arg("union")
    ]
    if not unnamed:
        return
    kep = deprecated or plain
    spelling = UNION_DEPRECATED if deprecated else UNION_MEMBER
    ctx.diagnostics.append(
        diag(
            "MG404",
            struct_union.pos if struct_union is not None else ctx.struct.pos,
            f"struct {ctx.struct.name} marks {', '.join(f.go_name for f in kep)} "
            f"+{spelling} and {', '.join(f.go_name for f, _ in unnamed)} "
            f"+{K8S_UNION_MEMBER}; one union cannot mix dialects",
            hint=hints.edits(
                *(
                    hints.replace(f"+{spelling}", m.raw, on=f.go_name)
                    for f, m in unnamed
                ),
                otherwise=f"use +{K8S_UNION_MEMBER} on every member",
            ),
        )
    )
