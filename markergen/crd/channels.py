"""gateway-api's release channels: one Go API, two CRDs per kind.

gateway-api's own CRD generator (its tools/generator, not controller-gen's output
alone) writes each kind twice, into `config/crd/standard/` and `config/crd/experimental/`,
and marks each CRD with the annotation `gateway.networking.k8s.io/channel`. In the
standard channel it drops every field whose doc comment carries `<gateway:experimental>`,
and a field's enum is the list of its `<gateway:<channel>:validation:Enum=...>` tag when
it has one for that channel, else its `+kubebuilder:validation:Enum` list.

So a union is compared with a CRD as that CRD's channel sees it: members the channel
drops are no members there, and the discriminator's values are the channel's. This is
the same idea as openshift's feature-set variants (`markergen.crd.patch._variant_enum`,
`markergen.crd.enumcheck`'s floor): a CRD is checked against what it was generated for.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from markergen.model import Model, Struct, Union
from markergen.model.enums import field_enum, type_enum_of

CHANNEL_ANNOTATION = "gateway.networking.k8s.io/channel"
_CHANNELS = ("standard", "experimental")
EXPERIMENTAL_TAG = "<gateway:experimental>"


def crd_channel(crd: Any) -> str:
    """The channel a CRD document was generated for ("" when it is no channel's)."""
    meta = crd.get("metadata") if isinstance(crd, dict) else None
    notes = meta.get("annotations") if isinstance(meta, dict) else None
    value = notes.get(CHANNEL_ANNOTATION) if isinstance(notes, dict) else None
    return value if isinstance(value, str) and value in _CHANNELS else ""


def channel_view(model: Model, struct: Struct, union: Union, channel: str) -> Union:
    """`union` as the CRDs of `channel` hold it: without the members the channel drops,
    with the discriminator values of the channel's enum. The union itself when the
    channel changes nothing."""
    if not channel:
        return union
    members = union.members
    if channel != "experimental":
        members = tuple(m for m in members if not _experimental(struct, m.go_name))
    disc = union.discriminator
    if disc is not None:
        values = _channel_values(model, struct, disc.go_name, channel)
        if values is not None and values != disc.values:
            disc = dataclasses.replace(disc, values=values)
            members = tuple(m for m in members if m.value in values)
    if members == union.members and disc is union.discriminator:
        return union
    empty = tuple(v for v in union.empty_values if disc is None or v in disc.values)
    return dataclasses.replace(union, members=members, discriminator=disc, empty_values=empty)


def _experimental(struct: Struct, go_name: str) -> bool:
    f = struct.field(go_name)
    return f is not None and EXPERIMENTAL_TAG in f.description


def _channel_values(
    model: Model, struct: Struct, go_name: str, channel: str
) -> tuple[str, ...] | None:
    """The discriminator's values in `channel`: the field's tag for the channel, else its
    ungated values (None when the field has no channel tag: nothing changes)."""
    f = struct.field(go_name)
    if f is None or not any(g.gate.startswith("gateway:") for g in f.enum_gates):
        return None
    tagged = [g for g in f.enum_gates if g.gate == f"gateway:{channel}"]
    enum = field_enum(f, type_enum_of(f.type, model.types, model.enums))
    if enum is None:
        return None
    if tagged:
        allowed = {v for g in tagged for v in g.values}
        return tuple(v for v in enum.values if v in allowed)
    return enum.floor
