"""kep1027: the current KEP-1027 design (the default).

The discriminator is a `+unionDiscriminator` field of a `+enum` string type;
`+unionMember[=<memberName>][,optional]` marks the members (the value defaults to the Go
field name), `+unionDiscriminatedBy=<discriminator>` says which union a member belongs to
when a struct holds several. The discriminator "MUST be required if there is no default
option, omitempty if the default option is the empty string, or optional and omitempty
if a default value is specified with the // +default marker" (the current KEP, "Go
Markers"): MG202.
"""

from __future__ import annotations

from markergen.markers import ENUM, UNION_DISCRIMINATED_BY, UNION_DISCRIMINATOR, UNION_MEMBER
from markergen.model import DialectTraits

MARKERS: tuple[str, ...] = (UNION_DISCRIMINATOR, UNION_MEMBER, UNION_DISCRIMINATED_BY, ENUM)

TRAITS = DialectTraits(
    name="kep1027", discriminator_musts=True, member_name_marker=UNION_MEMBER
)
