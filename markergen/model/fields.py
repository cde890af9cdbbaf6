"""Struct fields: syntax record + markers → model `Field`."""

from __future__ import annotations

from markergen.doctext import description
from markergen.golang.syntax import FieldDecl
from markergen.markers import KUBEBUILDER_ENUM, Target
from markergen.model import Field
from markergen.model.enums import channel_lines, detached_enum_markers, gate_lines
from markergen.model.markerread import MarkerReader
from markergen.model.resolve import Resolver

OPTIONAL_MARKERS = frozenset({"optional", "k8s:optional", "kubebuilder:validation:Optional"})
REQUIRED_MARKERS = frozenset({"required", "k8s:required", "kubebuilder:validation:Required"})
DEFAULT_MARKERS = ("default", "kubebuilder:default", "k8s:default")


def make_field(
    decl: FieldDecl,
    resolver: Resolver,
    reader: MarkerReader,
    struct_name: str,
    optional_by_default: bool,
) -> Field:
    """`optional_by_default` is a package-level `+kubebuilder:validation:Optional`."""
    markers = reader.read((decl.doc,), Target.FIELD, f"field {struct_name}.{decl.name}")
    markers += detached_enum_markers(decl.doc_extra, markers)
    # One pass over the markers (a field has a few; this runs for every field of a tree):
    # the first value of each single-valued marker, every listMapKey, the last enum list.
    # A wrapped marker (`+k8s:subfield(x)=+k8s:optional`) is about a part of the value,
    # not about the field: only its listMapKey counts, as before.
    has_optional = has_required = False
    patch_strategy = patch_merge_key = list_type = default = None
    list_map_keys: list[str] = []
    enum_values: tuple[str, ...] = ()
    for m in markers:
        name, value = m.name, m.value
        if m.via:
            if name == "listMapKey" and value:
                list_map_keys.append(value)
            continue
        if name in OPTIONAL_MARKERS:
            has_optional = True
        elif name in REQUIRED_MARKERS:
            has_required = True
        if value is None:
            if name == KUBEBUILDER_ENUM and not m.in_block:
                enum_values = m.values
            continue
        if name in DEFAULT_MARKERS:
            if default is None:
                default = value
        elif name == "listMapKey":
            if value:
                list_map_keys.append(value)
        elif name == "listType":
            if list_type is None:
                list_type = value
        elif name == "patchStrategy":
            if patch_strategy is None:
                patch_strategy = value
        elif name == "patchMergeKey":
            if patch_merge_key is None:
                patch_merge_key = value
        elif name == KUBEBUILDER_ENUM and not m.in_block:  # controller-gen reads `//` only
            enum_values = m.values
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
    tag_strategy = tag_merge_key = None
    for key, value in decl.tags:
        if key == "patchStrategy":
            if tag_strategy is None:
                tag_strategy = value
        elif key == "patchMergeKey" and tag_merge_key is None:
            tag_merge_key = value
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
        patch_strategy=tag_strategy or patch_strategy or "",
        patch_merge_key=tag_merge_key or patch_merge_key or "",
        list_type=list_type or "",
        list_map_keys=tuple(list_map_keys),
        default=default,
        enum_values=enum_values,
        pos=decl.pos,
        enum_gates=gate_lines(markers) + channel_lines(decl.doc) if markers or decl.doc else (),
    )
