"""kubebuilder: controller-gen's own union markers on a struct.

`+kubebuilder:validation:ExactlyOneOf=a;b`, `+kubebuilder:validation:AtMostOneOf=a;b` and
`+kubebuilder:validation:AtLeastOneOf=a;b` name JSON fields of the struct; controller-gen
writes a CEL rule for each into the CRD. markergen reads them as unions without a
discriminator (the runtime validates them, `diff` classifies their changes), writes no
CRD rule for them (controller-gen does) and no OpenAPI entry (openapi-gen ignores them).
"""

from __future__ import annotations

from markergen.markers import (
    KUBEBUILDER_AT_LEAST_ONE_OF,
    KUBEBUILDER_AT_MOST_ONE_OF,
    KUBEBUILDER_EXACTLY_ONE_OF,
)
from markergen.model import DialectTraits

MARKERS: tuple[str, ...] = (
    KUBEBUILDER_EXACTLY_ONE_OF,
    KUBEBUILDER_AT_MOST_ONE_OF,
    KUBEBUILDER_AT_LEAST_ONE_OF,
)

TRAITS = DialectTraits(name="kubebuilder", in_openapi=False, enforced_by="controller-gen")
