"""Whether a union member must be set when the discriminator selects it, where the markers
leave that to the CEL rules written beside them.

openshift/api writes its unions as a `+union` struct with `+unionDiscriminator` and
`+unionMember` fields, gives each member field its own `+optional` line rather than
`+unionMember,optional`, and says what a member needs in hand-written
`+kubebuilder:validation:XValidation` rules. Read as KEP-1027 alone, such a member must
be set whenever it is selected. Where a rule reads the member, that rule states what the
API asks, and `crd` and `check` compare it with the markers (MG508 when it allows what
the markers forbid; the markers' reading stands, and the hint says how to write it).
Where no rule reads the member, the API server has nothing that could reject the object
with the member's value selected and the member left out (the field is `+optional`, so
not in the schema's `required`): it accepts it, as openshift/api's `AWSEFSVolumeMetrics`
keeps `{state: RecursiveWalk}` as a valid object. The member is then optional when
selected, as the server decides, and markergen's runtime and CRD rules say the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from markergen.celcost.escape import escape_property
from markergen.markers import UNION, UNION_MEMBER, Marker, keyed_value
from markergen.model import Field, Member, Model, Struct, TypeKey, Union

# The struct rules' marker names, up to their first argument's name: controller-gen's, and
# openshift's per-feature-set form (`featureGate=G,rule=...`), which counts whatever its
# gate: markergen's outputs have no feature sets, and a gated member's rule comes with it.
_RULE_MARKERS = (
    "kubebuilder:validation:XValidation:",
    "openshift:validation:FeatureGateAwareXValidation:",
)


def _arguments(marker: Marker) -> dict[str, str]:
    """The named arguments of a rule marker, the first one named at the end of its name
    (`...XValidation:rule` with the value `"<rule>",message="..."`)."""
    out: dict[str, str] = {}
    key = marker.name.rsplit(":", 1)[-1]
    text = marker.value or ""
    i = 0
    while True:
        out[key], i = keyed_value(text, i)
        if i >= len(text) or text[i] != ",":
            return out
        eq = text.find("=", i + 1)
        if eq < 0:
            return out
        key, i = text[i + 1 : eq].strip(), eq + 1


def marker_rules(markers: Iterable[Marker]) -> list[str]:
    """The CEL rules these markers write."""
    rules = []
    for m in markers:
        if m.name.startswith(_RULE_MARKERS):
            rule = _arguments(m).get("rule", "")
            if rule:
                rules.append(rule)
    return rules


def left_to_rules(struct: Struct, field: Field) -> bool:
    """openshift's mix: a `+union` struct's `+unionMember` field without `,optional`
    whose requiredness its own `+optional` line leaves open."""
    member = field.marker(UNION_MEMBER)
    return (
        member is not None
        and not member.has_flag("optional")
        and field.marker("optional") is not None
        and any(m.name == UNION for m in struct.markers)
    )


def reads_member(rules: Iterable[str], member: str) -> bool:
    """Whether one of `rules` (CEL over `self`) reads `member` or may read any field
    (`markergen.accept.reads`: from the rule's syntax tree)."""
    # Imported here: the CEL parser costs every cold `generate` 4-6 ms to import, and only
    # a project with openshift's union style has rules to read.
    from markergen.accept.reads import mentions

    name = escape_property(member)
    for rule in rules:
        read = mentions(rule)
        if read is None or name is None or name in read:
            return True
    return False


def _settled(union: Union, struct: Struct, rules: tuple[str, ...]) -> Iterator[Member]:
    for member in union.members:
        field = struct.field(member.go_name)
        if (
            union.discriminator is None
            or member.optional
            or field is None
            or not left_to_rules(struct, field)
            or reads_member(rules, member.json_name)
        ):
            yield member
        else:
            yield replace(member, optional=True)


def _rules_by_struct(model: Model) -> dict[TypeKey, list[str]]:
    """The rules at each struct's schema node: its own, and those written on a field of
    its type (they validate the same node, wherever the field is)."""
    out: dict[TypeKey, list[str]] = {}
    for struct in model.structs.values():
        out.setdefault(struct.key, []).extend(marker_rules(struct.markers))
        for f in struct.fields:
            ref = f.type.deref()  # a list's own rules are at the list, not at its items
            if ref.kind == "named" and ref.type_key in model.structs:
                out.setdefault(ref.type_key, []).extend(marker_rules(f.markers))
    return out


def settle_members(model: Model) -> Model:
    """`model` with each member of openshift's mix (`left_to_rules`) that no rule at its
    struct's node reads made optional when selected."""
    mixed = [
        s for s in model.structs.values() if s.unions and any(m.name == UNION for m in s.markers)
    ]
    if not mixed:
        return model
    rules = _rules_by_struct(model)
    structs = dict(model.structs)
    for struct in mixed:
        at = tuple(rules.get(struct.key, ()))
        unions = tuple(replace(u, members=tuple(_settled(u, struct, at))) for u in struct.unions)
        if unions != struct.unions:
            structs[struct.key] = replace(struct, unions=unions)
    return replace(model, structs=structs) if structs != model.structs else model
