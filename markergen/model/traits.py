"""What each union dialect means for everything that reads the model (docs/concepts.md,
"The four dialects"): the rules, the renderers, the CRD patcher and the diff ask
`union.traits`, never the dialect's name. One table, below the model, so that the model's
`Union.traits` reads it without importing the dialects (which import the model)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from markergen.markers import K8S_UNION_MEMBER, UNION_MEMBER

Dialect = Literal["kep2019", "kep2022", "kep1027", "k8s", "kubebuilder"]


@dataclass(frozen=True, slots=True)
class DialectTraits:
    """What a union's dialect means for everything that reads the model: the rules, the
    renderers, the CRD patcher and the diff ask these, never the dialect's name. Each
    dialect has one record, below."""

    name: Dialect
    # A member's discriminator value is its Go field name by definition (the 2019 KEP).
    values_are_field_names: bool = False
    # OpenAPI: only openapi-gen's list on the struct, never fieldMembers.
    list_form_only: bool = False
    # The current KEP's discriminator requiredness and omitempty rules apply (MG202).
    discriminator_musts: bool = False
    # A discriminator without enum values is this dialect's mark (MG201 warns of it).
    untyped_discriminator: bool = False
    # The marker (and its argument; "" for the marker's value) that names a member's
    # discriminator value explicitly, if the dialect has one.
    member_name_marker: str = ""
    member_name_arg: str = ""
    # openapi-gen writes the union (its list on the struct, or fieldMembers).
    in_openapi: bool = True
    # The tool that writes the union's CRD rule itself; `markergen crd` adds none.
    enforced_by: str = ""
    # A member is unset at its Go zero value (validation-gen counts `""`, 0, false, an
    # empty list and nil as unset): it needs neither a pointer nor `+optional` nor
    # omitempty, so MG301 and MG302 do not apply; MG342 gives the API conventions' advice.
    zero_is_unset: bool = False
    # A union formed from a whole struct (origin "struct") has every field but the
    # discriminator as a member, without a marker of its own (the 2019 `+union`).
    fields_are_members: bool = False


KEP2019 = DialectTraits(
    name="kep2019", values_are_field_names=True, list_form_only=True, fields_are_members=True
)
KEP2022 = DialectTraits(name="kep2022", untyped_discriminator=True)
KEP1027 = DialectTraits(name="kep1027", discriminator_musts=True, member_name_marker=UNION_MEMBER)
K8S = DialectTraits(
    name="k8s",
    member_name_marker=K8S_UNION_MEMBER,
    member_name_arg="memberName",
    zero_is_unset=True,
)
KUBEBUILDER = DialectTraits(name="kubebuilder", in_openapi=False, enforced_by="controller-gen")

TRAITS: dict[str, DialectTraits] = {
    t.name: t for t in (KEP2019, KEP2022, KEP1027, K8S, KUBEBUILDER)
}
