"""Enum rules: MG101 (enum marker on a non-scalar type), MG021 (on a non-string scalar
type), MG102 (enum with no values).

The current KEP "Discriminator Values": discriminators "should be defined as an enum, and should
be tagged so via the enum go marker // +enum", and an enum is a string type whose values
are the constants of that type. markergen also reads enums of bool, integer and float
types (their values typed as JSON booleans and numbers), which openapi-gen and
validation-gen ignore: MG021 says so.
"""

from __future__ import annotations

from collections.abc import Iterator

from markergen import hints
from markergen.diagnostics import Diagnostic, diag
from markergen.markers import ENUM, K8S_ENUM
from markergen.model import Model, scalar_json_type
from markergen.rules.base import Rule, underlying

ENUM_TYPE_MARKERS = (ENUM, K8S_ENUM)


def check_enum_not_string(model: Model) -> Iterator[Diagnostic]:
    """MG101. The builder leaves such types out of Model.enums, so look at the markers."""
    for key in sorted(model.types):
        named = model.types[key]
        marker = next((m for m in named.markers if m.name in ENUM_TYPE_MARKERS), None)
        if marker is None or key in model.enums:
            continue
        target = underlying(model, named.underlying)
        if target.kind in ("external", "unknown") or (
            target.kind == "named" and target.type_key not in model.structs
        ):
            # Cannot see what it is underneath (another package): MG104 territory.
            continue
        if target.kind == "builtin" and scalar_json_type(target.name):
            continue
        written = (
            target.name
            if target.kind == "builtin"
            else named.underlying.text or target.name or target.kind
        )
        yield diag(
            "MG101",
            marker.pos,
            f"+{marker.name} on type {named.name}, whose underlying type is {written}, "
            "not a string, boolean or number",
            hint=hints.edits(
                hints.remove(hints.marker_line(marker.raw), named.name),
                otherwise=f"declare it `type {named.name} string` with string constants "
                "if it is meant to be an enum",
            ),
        )
    for key in sorted(model.structs):
        struct = model.structs[key]
        for m in struct.markers:
            if m.name in ENUM_TYPE_MARKERS:
                yield diag(
                    "MG101",
                    m.pos,
                    f"+{m.name} on struct type {struct.name}; an enum must be a string type",
                    hint=hints.remove(hints.marker_line(m.raw), struct.name),
                )


def check_enum_not_string_scalar(model: Model) -> Iterator[Diagnostic]:
    """MG021."""
    for key in sorted(model.enums):
        enum = model.enums[key]
        if enum.type == "string" or enum.imported or enum.source == "kubebuilder":
            continue  # kubebuilder's Enum lists JSON values of any type, as controller-gen
        named = model.types.get(key)
        written = named.underlying.text if named is not None else enum.type
        yield diag(
            "MG021",
            enum.pos,
            f"+{enum.source} on type {enum.name}, whose underlying type is {written}: "
            f"markergen lists its values as JSON {enum.type}s, but openapi-gen and "
            "validation-gen read only string enums and ignore the marker",
            # keeping it is the usual answer: the edit that records that decision
            hint=hints.edits(
                hints.add_above(
                    f"// markergen:ignore MG021 only markergen's outputs read {enum.name}",
                    enum.name,
                ),
                otherwise=f"for openapi-gen, declare `type {enum.name} string` with string "
                "constants",
            ),
        )


def check_enum_without_values(model: Model) -> Iterator[Diagnostic]:
    """MG102."""
    for key in sorted(model.enums):
        enum = model.enums[key]
        if enum.values or enum.incomplete:  # incomplete: MG020 already says why
            continue
        yield diag(
            "MG102",
            enum.pos,
            f"enum type {enum.name} has no constants of type {enum.name} in package {enum.package}",
            hint=_no_values_hint(model, enum.key, enum.name),
        )


def _no_values_hint(model: Model, key: str, name: str) -> str:
    """Remove the enum marker: an enum without values constrains nothing (declaring
    the values, which markergen cannot guess, is the alternative)."""
    named = model.types.get(key)
    marker = next((m for m in named.markers if m.name in ENUM_TYPE_MARKERS), None) if named else None
    declare = f'declare its values, `const {name}Example {name} = "Example"`'
    if marker is None:
        return declare
    return hints.edits(
        hints.remove(hints.marker_line(marker.raw), name),
        otherwise=declare + " for each value, if it has a fixed set",
    )


RULES = (
    Rule("MG101", check_enum_not_string),
    Rule("MG021", check_enum_not_string_scalar),
    Rule("MG102", check_enum_without_values),
)
