"""kep2019: the 2019 KEP, as openapi-gen and structured-merge-diff implement it.

`+union` on a struct makes every field but the discriminator a member; `+unionDeprecated`
on fields makes those fields one member-union. A member's discriminator value is its Go
field name ("The discriminatedValue will typically be set to the name of the Go
variable", the 2019 KEP, "OpenAPI"). `x-kubernetes-unions` is a list on the struct.
"""

from __future__ import annotations

from markergen.markers import UNION, UNION_DEPRECATED, UNION_DISCRIMINATOR
from markergen.model import DialectTraits

MARKERS: tuple[str, ...] = (UNION, UNION_DEPRECATED, UNION_DISCRIMINATOR)

TRAITS = DialectTraits(name="kep2019", values_are_field_names=True, list_form_only=True)
