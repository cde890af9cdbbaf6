"""k8s: the `+k8s:` tags of Kubernetes declarative validation (validation-gen).

`+k8s:unionDiscriminator(union: "u")`, `+k8s:unionMember(union: "u", memberName: "X")`
(exactly one member set) and `+k8s:zeroOrOneOfMember` (at most one), with `+k8s:enum` on
the discriminator's type. A member's value is its `memberName`, by default the Go field
name. docs/k8s.md describes the tags.
"""

from __future__ import annotations

from markergen.markers import (
    K8S_ENUM,
    K8S_UNION_DISCRIMINATOR,
    K8S_UNION_MEMBER,
    K8S_ZERO_OR_ONE_OF_MEMBER,
)
from markergen.model import DialectTraits

MARKERS: tuple[str, ...] = (
    K8S_UNION_DISCRIMINATOR,
    K8S_UNION_MEMBER,
    K8S_ZERO_OR_ONE_OF_MEMBER,
    K8S_ENUM,
)

TRAITS = DialectTraits(
    name="k8s",
    member_name_marker=K8S_UNION_MEMBER,
    member_name_arg="memberName",
)
