"""Struct fields: syntax record + markers → model `Field`."""

from __future__ import annotations

from markergen.doctext import description
from markergen.golang.syntax import FieldDecl
from markergen.markers import KUBEBUILDER_ENUM, OPENSHIFT_FEATURE_GATE_AWARE_ENUM, Marker, Target
from markergen.model import Field
from markergen.model.enums import channel_lines, detached_enum_markers, gate_lines
from markergen.model.markerread import MarkerReader
from markergen.model.resolve import Resolver

OPTIONAL_MARKERS = frozenset({"optional", "k8s:optional", "kubebuilder:validation:Optional"})
REQUIRED_MARKERS = frozenset({"required", "k8s:required", "kubebuilder:validation:Required"})
DEFAULT_MARKERS = ("default", "kubebuilder:default", "k8s:default")
_GATE_AWARE = OPENSHIFT_FEATURE_GATE_AWARE_ENUM + ":"  # markergen.model.enums.gate_lines


def make_field(
    decl: FieldDecl,
    resolver: Resolver,
    reader: MarkerReader,
    struct_name: str,
    optional_by_default: bool,
) -> Field:
    """`optional_by_default` is a package-level `+kubebuilder:validation:Optional`."""
    doc = decl.doc
    markers: tuple[Marker, ...] = (
        reader.read((doc,), Target.FIELD, f"field {struct_name}.{decl.name}")
        if doc is not None
        else ()
    )
    if decl.doc_extra is not None:
        markers += detached_enum_markers(decl.doc_extra, markers)
    # One pass over the markers (a field has a few; this runs for every field of a tree):
    # the first value of each single-valued marker, every listMapKey, the last enum list.
    # A wrapped marker (`+k8s:subfield(x)=+k8s:optional`) is about a part of the value,
    # not about the field: only its listMapKey counts, as before.
    has_optional = has_required = gated = False
    patch_strategy = patch_merge_key = list_type = default = None
    list_map_keys: list[str] = []
    enum_values: tuple[str, ...] = ()
    for m in markers:
        name, value = m.name, m.value
        if m.via:
            if name == "listMapKey" and value:
                list_map_keys.append(value)
            if value is not None and name.startswith(_GATE_AWARE):
                gated = True
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
        elif name.startswith(_GATE_AWARE):
            gated = True  # gate_lines reads only such markers, and only with a value
    # controller-gen's reading: an explicit marker wins, then omitempty, then the
    # package default. openapi-gen ignores +required, so a field with both omitempty
    # and +required is required here, as controller-gen says.
    json = decl.json
    if has_optional:
        optional = True
    elif has_required:
        optional = False
    else:
        optional = json.omits_zero or optional_by_default
    name = decl.name
    embedded = decl.embedded
    inline = embedded and (json.inline or not json.name)
    json_name = "" if json.skip or inline else json.name or name
    tag_strategy = tag_merge_key = None
    # `tags` are read from `tag_raw` (golang.tags.parse_struct_tag): a key that is not
    # in its text is in no pair, and nearly every field's tag has no `patch...` key.
    if "patch" in decl.tag_raw:
        for key, value in decl.tags:
            if key == "patchStrategy":
                if tag_strategy is None:
                    tag_strategy = value
            elif key == "patchMergeKey" and tag_merge_key is None:
                tag_merge_key = value
    if doc is None:
        gates = gate_lines(markers) if gated else ()
    else:
        gates = (gate_lines(markers) if gated else ()) + channel_lines(doc)
    # Positional: a frozen dataclass's keyword call costs a third more, for every field
    # of a tree (the order is Field's; tests/test_frontend_shared.py compares records).
    return Field(
        name,
        json_name,
        resolver.resolve(decl.type),
        embedded,
        inline and not json.skip,
        json,
        name[:1].isupper(),
        optional,
        has_required,
        markers,
        description(doc),
        tag_strategy or patch_strategy or "",
        tag_merge_key or patch_merge_key or "",
        list_type or "",
        tuple(list_map_keys),
        default,
        enum_values,
        decl.pos,
        gates,
    )
