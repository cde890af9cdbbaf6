"""kep2022: the 2022 draft of KEP-1027.

`+unionDiscriminator` on a plain string field (no enum values), `+optional` for at most
one member or `+required` for exactly one, and `+unionMember` on the members, also in
the form `+unionMember=<discriminator>`. The same markers on a discriminator of a
`+enum` type make a kep1027 union instead; a kep2022 union is reported (MG201) so the
author can move to the current design. Its unions are formed by
`kep1027.form_discriminated`: the markers are the same, the discriminator's type decides.
"""

from __future__ import annotations

from markergen.markers import UNION_DISCRIMINATOR, UNION_MEMBER
from markergen.model import traits

MARKERS: tuple[str, ...] = (UNION_DISCRIMINATOR, UNION_MEMBER)

TRAITS = traits.KEP2022
