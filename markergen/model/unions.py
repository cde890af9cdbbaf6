"""Union recognition.

One struct at a time: its fields' markers decide which unions it holds. What stops a
union from being formed (a member that belongs nowhere, mixed dialects, ...) is
reported here; rules about unions that were formed live in markergen/rules/.
"""

from __future__ import annotations

from collections.abc import Mapping

from markergen.diagnostics import Diagnostic, diag
from markergen.markers import (
    UNION,
)
from markergen.model import (
    Enum,
    NamedType,
    TypeKey,
    Union,
)
from markergen.model.dialects.base import (
    FAMILY_MARKERS,
    FAMILY_NAMES,
    Ctx,
    StructInput,
    families,
    member_fields,
    pos_of,
)
from markergen.model.dialects.k8s import form_k8s, one_union_written_twice
from markergen.model.dialects.k8s_modes import form_modes
from markergen.model.dialects.kep1027 import form_discriminated
from markergen.model.dialects.kep2019 import form_kep2019
from markergen.model.dialects.kubebuilder import form_controller_gen


def build_unions(
    struct: StructInput, enums: Mapping[TypeKey, Enum], types: Mapping[TypeKey, NamedType]
) -> tuple[tuple[Union, ...], list[Diagnostic]]:
    ctx = Ctx(struct, enums, types)
    for f in struct.fields:
        fams = families(f)
        if len(fams) > 1:
            ctx.diagnostics.append(
                diag(
                    "MG404",
                    pos_of(f, *FAMILY_MARKERS[fams[1]]),
                    f"field {ctx.subject(f)} mixes union dialects: "
                    + " and ".join(FAMILY_NAMES[x] for x in fams)
                    + f"; it is read as {FAMILY_NAMES[fams[0]]} only",
                )
            )
    struct_union = next((m for m in struct.markers if m.name == UNION), None)
    deprecated = member_fields(ctx, "kep2019")
    plain = member_fields(ctx, "plain")
    unions: list[Union] = []
    if struct_union is not None and plain and not deprecated:
        # openshift/api's house style: `+union` on the struct with explicit
        # `+unionMember[,optional]` fields is one discriminated union whose members are
        # exactly the marked fields (the other fields are settings every variant shares).
        unions.extend(form_discriminated(ctx, plain, house=True))
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
        unions.extend(form_kep2019(ctx, struct_union, deprecated))
    else:
        unions.extend(form_discriminated(ctx, plain))
    k8s = form_k8s(ctx, member_fields(ctx, "k8s"))
    k8s += form_modes(ctx, member_fields(ctx, "k8s"))
    unions = one_union_written_twice(unions, k8s)
    unions.extend(form_controller_gen(ctx))
    return tuple(unions), ctx.diagnostics
