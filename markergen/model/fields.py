"""Struct fields: syntax record + markers → model `Field`."""

from __future__ import annotations

from markergen.doctext import description
from markergen.golang.syntax import FieldDecl
from markergen.markers import KUBEBUILDER_ENUM, Marker, Target
from markergen.model import Field
from markergen.model.markerread import MarkerReader
from markergen.model.resolve import Resolver

OPTIONAL_MARKERS = frozenset({"optional", "k8s:optional", "kubebuilder:validation:Optional"})
REQUIRED_MARKERS = frozenset({"required", "k8s:required", "kubebuilder:validation:Required"})
DEFAULT_MARKERS = ("default", "kubebuilder:default", "k8s:default")


def _first_value(markers: tuple[Marker, ...], *names: str) -> str | None:
    for m in markers:
        if m.name in names and m.value is not None and not m.via:
            return m.value
    return None


def make_field(
    decl: FieldDecl,
    resolver: Resolver,
    reader: MarkerReader,
    struct_name: str,
    optional_by_default: bool,
) -> Field:
    """`optional_by_default` is a package-level `+kubebuilder:validation:Optional`."""
    markers = reader.read((decl.doc,), Target.FIELD, f"field {struct_name}.{decl.name}")
    # a wrapped marker (`+k8s:subfield(x)=+k8s:optional`) is about a part of the value,
    # not about the field
    names = {m.name for m in markers if not m.via}
    has_optional = bool(names & OPTIONAL_MARKERS)
    has_required = bool(names & REQUIRED_MARKERS)
    # controller-gen's reading: an explicit marker wins, then omitempty, then the
    # package default. openapi-gen ignores +required, so a field with both omitempty
    # and +required is required here, as controller-gen says.
    if has_optional:
        optional = True
    elif has_required:
        optional = False
    else:
        optional = decl.json.omits_zero or optional_by_default
    inline = decl.embedded and (decl.json.inline or not decl.json.name)
    json_name = "" if decl.json.skip or inline else decl.json.name or decl.name
    enum_values: tuple[str, ...] = ()
    for m in markers:
        if m.name == KUBEBUILDER_ENUM and not m.via:
            enum_values = m.values
    return Field(
        go_name=decl.name,
        json_name=json_name,
        type=resolver.resolve(decl.type),
        embedded=decl.embedded,
        inline=inline and not decl.json.skip,
        json=decl.json,
        exported=decl.name[:1].isupper(),
        optional=optional,
        required_marker=has_required,
        markers=markers,
        description=description(decl.doc),
        patch_strategy=decl.tag("patchStrategy") or _first_value(markers, "patchStrategy") or "",
        patch_merge_key=decl.tag("patchMergeKey") or _first_value(markers, "patchMergeKey") or "",
        list_type=_first_value(markers, "listType") or "",
        list_map_keys=tuple(m.value for m in markers if m.name == "listMapKey" and m.value),
        default=_first_value(markers, *DEFAULT_MARKERS),
        enum_values=enum_values,
        pos=decl.pos,
    )
