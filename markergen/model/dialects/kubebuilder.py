"""kubebuilder: controller-gen's own union markers on a struct.

`+kubebuilder:validation:ExactlyOneOf=a;b`, `+kubebuilder:validation:AtMostOneOf=a;b` and
`+kubebuilder:validation:AtLeastOneOf=a;b` name JSON fields of the struct; controller-gen
writes a CEL rule for each into the CRD. markergen reads them as unions without a
discriminator (the runtime validates them, `diff` classifies their changes), writes no
CRD rule for them (controller-gen does) and no OpenAPI entry (openapi-gen ignores them).
"""

from __future__ import annotations

import difflib

from markergen import hints
from markergen.diagnostics import Diagnostic, diag
from markergen.markers import (
    KUBEBUILDER_AT_LEAST_ONE_OF,
    KUBEBUILDER_AT_MOST_ONE_OF,
    KUBEBUILDER_EXACTLY_ONE_OF,
    Marker,
)
from markergen.model import (
    Field,
    Member,
    Mode,
    Union,
)
from markergen.model.dialects.base import (
    Ctx,
)
from markergen.model.lookup import JSONFields

CONTROLLER_GEN_UNIONS: dict[str, Mode] = {
    KUBEBUILDER_EXACTLY_ONE_OF: "exactly-one",
    KUBEBUILDER_AT_MOST_ONE_OF: "at-most-one",
    KUBEBUILDER_AT_LEAST_ONE_OF: "at-least-one",
}


def _meant(name: str, fields: JSONFields) -> str | None:
    """The JSON name an item that names no JSON field probably meant: the JSON name of
    the visible field with that Go name, else the closest JSON name; None when nothing
    is close."""
    by_go = fields.by_go_name(name)
    if by_go is not None:
        return by_go.name
    same = [n for n in fields.names() if n.casefold() == name.casefold()]
    if same:
        return same[0]
    close = difflib.get_close_matches(name, list(fields.names()), n=1, cutoff=0.6)
    return close[0] if close else None


# Embedded structs of apimachinery whose JSON fields are fixed: an item that is none of
# them cannot come from them, even when their package is not found.
_KNOWN_EMBEDDED: dict[str, frozenset[str]] = {
    "k8s.io/apimachinery/pkg/apis/meta/v1.TypeMeta": frozenset({"kind", "apiVersion"}),
}


def _may_hold(f: Field, name: str) -> bool:
    """Whether an embedded struct markergen could not read may have JSON field `name`."""
    known = _KNOWN_EMBEDDED.get(f.type.deref().type_key)
    return known is None or name in known


def _hidden_field(ctx: Ctx, name: str) -> Field | None:
    """A json:"-" field the item names by its Go name, compared case-insensitively."""
    for f in ctx.struct.fields:
        if f.json.skip and f.go_name.casefold() == name.casefold():
            return f
    return None


def _fixed_marker(m: Marker, fields: JSONFields) -> str | None:
    """The marker with every item a visible JSON name (an unknown item mapped to what it
    probably meant, else left out); None when fewer than one item would be left, or
    when nothing changes: an empty `ExactlyOneOf=` would break the CRD."""
    items: list[str] = []
    for item in m.values:
        if fields.drop(item) is not None:
            continue  # no field has it in the JSON: nothing to map it to
        real = item if fields.get(item) is not None else _meant(item, fields)
        if real is not None and real not in items:
            items.append(real)
    if not items or items == list(m.values):
        return None
    return f"+{m.name}={';'.join(items)}"


def _listing(fields: JSONFields) -> str:
    names = fields.names()
    return ", ".join(names) if names else "none"


def _unknown_item(ctx: Ctx, m: Marker, name: str, fields: JSONFields) -> Diagnostic:
    """MG341 for an item that is no visible JSON field of the struct: a name encoding/json
    drops (a tie between promoted fields), a shadowed one, or one nowhere."""
    struct = ctx.struct.name
    fixed = _fixed_marker(m, fields)
    listing = f"{struct}'s JSON fields are {_listing(fields)}"
    dropped = fields.drop(name)
    if dropped is not None:
        paths = " and ".join(f"{struct}.{c.path()}" for c in dropped.candidates)
        why = (
            f"both {paths} are named {name!r} at the same depth, so encoding/json drops "
            "the name (and controller-gen's rule would not compile)"
        )
        keep = f"to keep {name!r}, give one of {paths} another JSON name"
        if fixed is not None:
            hint = hints.edits(hints.replace(fixed, m.raw), otherwise=keep)
        else:
            hint = hints.edits(hints.remove(hints.marker_line(m.raw), struct), otherwise=keep)
        return diag("MG341", m.pos, f"+{m.name} on {struct} names {name!r}: {why}", hint=hint)
    message = f"+{m.name} on {struct} names {name!r}, which is no JSON field of {struct}"
    if fixed is not None:
        hint = hints.edits(hints.replace(fixed, m.raw), otherwise=listing)
    else:
        hint = hints.edits(
            hints.remove(hints.marker_line(m.raw), struct),
            otherwise=f"name some of {struct}'s JSON fields: {_listing(fields)}",
        )
    return diag("MG341", m.pos, message, hint=hint)


def form_controller_gen(ctx: Ctx) -> list[Union]:
    """controller-gen's `+kubebuilder:validation:ExactlyOneOf=a;b` (and AtMostOneOf,
    AtLeastOneOf) on a struct: a union without discriminator over the JSON fields it
    names, found as encoding/json finds them (markergen/model/lookup.py: promoted fields
    of embedded structs included). controller-gen writes its CRD rule itself
    (`enforced_by`)."""
    out: list[Union] = []
    fields: JSONFields | None = None
    for m in ctx.struct.markers:
        mode = CONTROLLER_GEN_UNIONS.get(m.name)
        if mode is None:
            continue
        if fields is None:
            fields = ctx.json_fields()
        members: list[Member] = []
        unknown = False
        for name in m.values:
            jf = fields.get(name)
            hidden = _hidden_field(ctx, name)
            if jf is None and hidden is not None:
                # the item names a field that is not in the JSON: the field is what is
                # wrong (MG308), as for a member marker on it
                ctx.diagnostics.append(
                    diag(
                        "MG308",
                        hidden.pos,
                        f'union field {hidden.go_name} of {ctx.struct.name} has json:"-", so '
                        f"it never appears in the API (+{m.name} names it {name!r})",
                        hint=hints.edits(
                            hints.replace(f'json:"{name},omitempty"', 'json:"-"'),
                            otherwise=f"remove {name} from +{m.name} if it is not meant to be "
                            "in the API",
                        ),
                    )
                )
                continue
            unread = [f for f in fields.unread if _may_hold(f, name)]
            if jf is None and unread and fields.drop(name) is None:
                # it may be a field of an embedded struct markergen could not read
                unseen = ", ".join(f.type.text for f in unread)
                ctx.diagnostics.append(
                    diag(
                        "MG343",
                        m.pos,
                        f"+{m.name} on {ctx.struct.name} names {name!r}, which is none of the "
                        f"JSON fields markergen sees ({_listing(fields)}); it may be one of "
                        f"{unseen}, whose package markergen cannot find, so the union is "
                        "left to controller-gen",
                        hint=f"make the package of {unseen} findable (its module in go.mod "
                        "and the module cache or vendor/), or add it to the patterns "
                        "markergen reads",
                    )
                )
                members = []
                unknown = True
                break
            if jf is None:
                ctx.diagnostics.append(_unknown_item(ctx, m, name, fields))
                continue
            f = jf.field
            members.append(Member(f.go_name, jf.name, f.go_name, False, f.pos))
        if unknown:
            continue  # members markergen cannot see: a union without them would be wrong
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
