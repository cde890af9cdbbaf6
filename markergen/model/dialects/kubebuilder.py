"""kubebuilder: controller-gen's own union markers on a struct.

`+kubebuilder:validation:ExactlyOneOf=a;b`, `+kubebuilder:validation:AtMostOneOf=a;b` and
`+kubebuilder:validation:AtLeastOneOf=a;b` name JSON fields of the struct; controller-gen
writes a CEL rule for each into the CRD. markergen reads them as unions without a
discriminator (the runtime validates them, `diff` classifies their changes), writes no
CRD rule for them (controller-gen does) and no OpenAPI entry (openapi-gen ignores them).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from markergen import hints
from markergen.diagnostics import diag
from markergen.markers import (
    KUBEBUILDER_AT_LEAST_ONE_OF,
    KUBEBUILDER_AT_MOST_ONE_OF,
    KUBEBUILDER_EXACTLY_ONE_OF,
)
from markergen.model import (
    DialectTraits,
    Field,
    Member,
    Mode,
    Union,
)
from markergen.model.dialects.base import (
    Ctx,
)

MARKERS: tuple[str, ...] = (
    KUBEBUILDER_EXACTLY_ONE_OF,
    KUBEBUILDER_AT_MOST_ONE_OF,
    KUBEBUILDER_AT_LEAST_ONE_OF,
)

TRAITS = DialectTraits(name="kubebuilder", in_openapi=False, enforced_by="controller-gen")


CONTROLLER_GEN_UNIONS: dict[str, Mode] = {
    KUBEBUILDER_EXACTLY_ONE_OF: "exactly-one",
    KUBEBUILDER_AT_MOST_ONE_OF: "at-most-one",
    KUBEBUILDER_AT_LEAST_ONE_OF: "at-least-one",
}


def _json_name_of(ctx: Ctx, name: str, by_json: Mapping[str, Field]) -> str:
    """The JSON name a controller-gen union item probably meant (its Go name, or the
    closest JSON name)."""
    for f in ctx.struct.fields:
        if f.go_name == name and f.json_name:
            return f.json_name
    close = difflib.get_close_matches(name, list(by_json), n=1, cutoff=0.5)
    return close[0] if close else name


def _hidden_field(ctx: Ctx, name: str) -> Field | None:
    """A json:"-" field the item names by its Go name, compared case-insensitively."""
    for f in ctx.struct.fields:
        if f.json.skip and f.go_name.casefold() == name.casefold():
            return f
    return None


def form_controller_gen(ctx: Ctx) -> list[Union]:
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
            hidden = _hidden_field(ctx, name)
            if f is None and hidden is not None:
                # the item names a field that is not in the JSON: the field is what is
                # wrong (MG308), as for a member marker on it
                ctx.diagnostics.append(
                    diag(
                        "MG308",
                        hidden.pos,
                        f"union field {hidden.go_name} of {ctx.struct.name} has json:\"-\", so "
                        f"it never appears in the API (+{m.name} names it {name!r})",
                        hint=hints.edits(
                            hints.replace(f'json:"{name},omitempty"', 'json:"-"'),
                            otherwise=f"remove {name} from +{m.name} if it is not meant to be "
                            "in the API",
                        ),
                    )
                )
                continue
            if f is None:
                names = [
                    by_json[n].json_name if n in by_json else _json_name_of(ctx, n, by_json)
                    for n in m.values
                ]
                if names == list(m.values):  # nothing close: leave the unknown names out
                    names = [n for n in m.values if n in by_json]
                ctx.diagnostics.append(
                    diag(
                        "MG341",
                        m.pos,
                        f"+{m.name} on {ctx.struct.name} names {name!r}, which is no JSON "
                        f"field of {ctx.struct.name}",
                        hint=hints.replace(f"+{m.name}={';'.join(names)}", m.raw),
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
