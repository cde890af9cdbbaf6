"""kep2019 rules: MG401 MG402 MG403.

Source: the 2019 KEP "Go tags": `+union` "before a structure means that the structure is a
union. All the fields must be optional (beside the discriminator) and will be included
as members of the union"; `+unionDeprecated` fields "MUST BE optional, omitempty and
pointers", and exist only "because we don't want people to embed their unions directly
in structures".
"""

from __future__ import annotations

from collections.abc import Iterator

from markergen import hints
from markergen.diagnostics import Diagnostic, diag
from markergen.markers import UNION_DEPRECATED
from markergen.model import Field, Model
from markergen.rules.base import Rule


def _union_structs(model: Model) -> Iterator[str]:
    """Structs whose `+union` makes every field a member: the model's kep2019 struct
    unions. A `+union` that only documents a struct (MG360), or that comes with
    `+unionMember` markers (openshift's style: the marked fields are the members), is
    not one, and these rules do not apply to it."""
    for key in sorted(model.structs):
        if any(u.origin == "struct" and not u.documentation for u in model.structs[key].unions):
            yield key


def check_union_struct_inline(model: Model) -> Iterator[Diagnostic]:
    """MG401: an inlined field would pour another struct's fields into the union."""
    for key in _union_structs(model):
        struct = model.structs[key]
        for field in struct.fields:
            if not field.inline:
                continue
            yield diag(
                "MG401",
                field.pos,
                f"+union struct {struct.name} inlines {field.go_name} ({field.type.text}): "
                "every field of a +union struct is a member, so an inlined struct cannot be one",
                hint=_name_it(field),
            )


def check_union_struct_deprecated(model: Model) -> Iterator[Diagnostic]:
    """MG402."""
    for key in _union_structs(model):
        struct = model.structs[key]
        for field in struct.fields:
            m = field.marker(UNION_DEPRECATED)
            if m is None:
                continue
            yield diag(
                "MG402",
                field.pos,
                f"field {field.go_name} of +union struct {struct.name} is marked "
                "+unionDeprecated: every field of a +union struct is already a member",
                hint=hints.edits(
                    hints.remove(hints.marker_line(m.raw), field.go_name),
                    otherwise="remove `+union` from the struct",
                ),
            )


def check_deprecated_pointer_omitempty(model: Model) -> Iterator[Diagnostic]:
    """MG403 (warning: the 2019 KEP's own Union2 example uses `int` without omitempty)."""
    for key in sorted(model.structs):
        struct = model.structs[key]
        for field in struct.fields:
            # field.marker(UNION_DEPRECATED), without a call for each field of the tree
            for m in field.markers:
                if m.name == UNION_DEPRECATED:
                    break
            else:
                continue
            if field.json.skip:
                continue  # a json:"-" member is MG308's: it is not in the API at all
            missing = [
                what
                for what, ok in (
                    ("a pointer", field.type.kind == "pointer"),
                    ("omitempty", field.json.omitempty),
                )
                if not ok
            ]
            if not missing:
                continue
            yield diag(
                "MG403",
                field.pos,
                f"+unionDeprecated member {field.go_name} of {struct.name} "
                f"({field.type.text}) is not {' and not '.join(missing)}",
                hint=hints.edits(
                    *(
                        [hints.replace(f"*{field.type.text}", field.type.text, on=field.go_name)]
                        if field.type.kind != "pointer" and field.type.text
                        else []
                    ),
                    *(
                        [tag]
                        if (tag := hints.json_options(field.json, add=("omitempty",))) is not None
                        else []
                    ),
                ),
            )


def _name_it(field: Field) -> str:
    """MG401: the embedded field gets a JSON name of its own, and so becomes a member."""
    prose = f"give {field.go_name} a JSON name, or move the union into its own struct"
    if not field.json.present:
        return prose
    json_name = field.go_name[:1].lower() + field.go_name[1:]
    return hints.edits(
        hints.replace(f'json:"{json_name},omitempty"', hints.json_tag(field.json)),
        otherwise="move the union into its own struct",
    )


RULES = (
    Rule("MG401", check_union_struct_inline),
    Rule("MG402", check_union_struct_deprecated),
    Rule("MG403", check_deprecated_pointer_omitempty),
)
