"""OpenAPI v2/v3 documents."""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import pytest
from openapi_spec_validator import OpenAPIV2SpecValidator, OpenAPIV30SpecValidator
from test_emit_models import (
    KEP004,
    META,
    PKG,
    builtin,
    disc,
    enum,
    external,
    fld,
    kep000_model,
    kep004_model,
    key,
    map_,
    member,
    model,
    named,
    named_type,
    ptr,
    slice_,
    struct,
    union,
)

from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.model import Model

DEF = "com.example.kep.kep000."
DEF4 = "com.example.kep.kep004."


def docs(m: Model, options: EmitOptions | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    out = render_outputs(m, options or EmitOptions())
    return json.loads(out["openapi-v2.json"]), json.loads(out["openapi-v3.json"])


def v2_defs(m: Model, options: EmitOptions | None = None) -> dict[str, Any]:
    defs: dict[str, Any] = docs(m, options)[0]["definitions"]
    return defs


class TestKep000OpenAPIParity:
    """The 2019 KEP "OpenAPI": the list form exactly as openapi-gen writes it for the
    "Go tags" example types."""

    UNION: ClassVar[dict[str, Any]] = {
        "discriminator": "unionType",
        "fields-to-discriminateBy": {"fieldA": "FieldA", "fieldB": "FieldB"},
    }
    UNION2: ClassVar[dict[str, Any]] = {
        "discriminator": "type",
        "fields-to-discriminateBy": {"alpha": "Alpha", "beta": "Beta"},
    }
    MEMBERS: ClassVar[dict[str, Any]] = {
        "fields-to-discriminateBy": {"field1": "Field1", "field2": "Field2"}
    }

    def test_inlined_union_lists_three_unions_in_openapi_gen_order(self) -> None:
        d = v2_defs(kep000_model())[DEF + "InlinedUnion"]
        assert d["x-kubernetes-unions"] == [self.UNION, self.UNION2, self.MEMBERS]
        assert d["required"] == ["name", "type"]

    def test_single_unions(self) -> None:
        defs = v2_defs(kep000_model())
        assert defs[DEF + "TopLevelUnion"]["x-kubernetes-unions"] == [self.UNION]
        assert defs[DEF + "Union"]["x-kubernetes-unions"] == [self.UNION]
        assert defs[DEF + "Union2"]["x-kubernetes-unions"] == [self.UNION2]

    def test_inlined_fields_are_merged_into_the_parent(self) -> None:
        props = v2_defs(kep000_model())[DEF + "InlinedUnion"]["properties"]
        assert sorted(props) == [
            "alpha",
            "beta",
            "field1",
            "field2",
            "fieldA",
            "fieldB",
            "name",
            "type",
            "unionType",
        ]
        assert props["field1"] == {"type": "integer", "format": "int32"}

    def test_pointer_embedded_union_is_listed(self) -> None:
        # the design: openapi-gen loses the union of `*Union` inlined; markergen keeps it.
        m = kep000_model()
        s = struct("PtrInline", [fld("Union", ptr(named("Union")), inline=True)])
        m = model([*m.structs.values(), s])
        d = v2_defs(m)[DEF + "PtrInline"]
        assert d["x-kubernetes-unions"] == [self.UNION]
        assert "fieldA" in d["properties"]


class TestKep004FieldMembers:
    """The current KEP "OpenAPI": x-kubernetes-unions attached to the discriminator's property."""

    FIELD_MEMBERS: ClassVar[dict[str, Any]] = {
        "fieldMembers": {
            "": None,
            "FieldA": {"name": "fieldA", "optional": False},
            "FieldB": {"name": "fieldB", "optional": True},
            "FieldC": None,
            "FieldD": None,
        }
    }

    def test_field_members_on_discriminator_property(self) -> None:
        v2, v3 = docs(kep004_model())
        for defs in (v2["definitions"], v3["components"]["schemas"]):
            d = defs[DEF4 + "Union"]
            assert d["properties"]["unionType"]["x-kubernetes-unions"] == self.FIELD_MEMBERS
            assert "x-kubernetes-unions" not in d  # default union-format: fieldMembers

    def test_inlined_discriminated_union_lands_on_merged_property(self) -> None:
        d = v2_defs(kep004_model())[DEF4 + "TopLevelUnion"]
        assert d["properties"]["unionType"]["x-kubernetes-unions"] == self.FIELD_MEMBERS
        assert d["required"] == ["name", "unionType"]

    def test_union_format_both_adds_the_list_with_values(self) -> None:
        d = v2_defs(kep004_model(), EmitOptions(union_format="both"))[DEF4 + "Union"]
        assert d["x-kubernetes-unions"] == [
            {
                "discriminator": "unionType",
                "fields-to-discriminateBy": {"fieldA": "FieldA", "fieldB": "FieldB"},
            }
        ]
        assert "x-kubernetes-unions" in d["properties"]["unionType"]

    def test_union_format_list_only(self) -> None:
        d = v2_defs(kep004_model(), EmitOptions(union_format="list"))[DEF4 + "Union"]
        assert len(d["x-kubernetes-unions"]) == 1
        assert "x-kubernetes-unions" not in d["properties"]["unionType"]

    def test_enum_sorted_with_openapi_gen_paragraph(self) -> None:
        # the design: enum sorted and deduplicated; "Possible enum values:" paragraph,
        # each constant's comment minus its leading name.
        p = v2_defs(kep004_model())[DEF4 + "Union"]["properties"]["unionType"]
        assert p["enum"] == ["", "FieldA", "FieldB", "FieldC", "FieldD"]
        assert p["description"] == (
            "The member.\n\nPossible enum values:\n"
            ' - `""` means no member.\n'
            ' - `"FieldA"` selects fieldA.\n'
            ' - `"FieldB"` selects fieldB.\n'
            ' - `"FieldC"`\n'
            ' - `"FieldD"`'
        )


def types_model() -> Model:
    mode = enum(
        "Mode",
        [("ModeA", "a", "ModeA is a."), ("ModeB", "b", ""), ("ModeA2", "a", "duplicate value")],
    )
    item = struct("Item", [fld("Name", builtin("string"), "name")])
    s = struct(
        "Types",
        [
            fld("S", builtin("string"), "s", description="A string.\n\nSecond paragraph."),
            fld("B", builtin("bool"), "b"),
            fld("I", builtin("int"), "i"),
            fld("I64", builtin("int64"), "i64"),
            fld("U32", builtin("uint32"), "u32"),
            fld("F32", builtin("float32"), "f32"),
            fld("F64", builtin("float64"), "f64"),
            fld("Raw", slice_(builtin("byte")), "raw"),
            fld("Item", named("Item"), "item", description="The item."),
            fld("ItemPtr", ptr(named("Item")), "itemPtr", omitempty=True),
            fld(
                "Items",
                slice_(named("Item")),
                "items",
                optional=True,
                patch_strategy="merge",
                patch_merge_key="name",
                list_type="map",
                list_map_keys=("name",),
            ),
            fld("Labels", map_(builtin("string")), "labels", omitempty=True),
            fld("Mode", ptr(named("Mode")), "mode", omitempty=True),
            fld("Modes", slice_(named("Mode")), "modes", omitempty=True),
            fld("ByMode", map_(named("Mode")), "byMode", omitempty=True),
            fld("Alias", named("Alias"), "alias", omitempty=True),
            fld("Count", builtin("int32"), "count", default="3", omitempty=True),
            fld("Word", builtin("string"), "word", default="hello", omitempty=True),
            fld("Num", builtin("int64"), "num", json_string=True, omitempty=True),
            fld("Kb", builtin("string"), "kb", enum_values=("y", "x"), omitempty=True),
            fld("State", ptr(named("Item")), "state", patch_strategy="retainKeys", omitempty=True),
            fld("Req", builtin("string"), "req", optional=True, required_marker=True),
            fld("Hidden", builtin("string"), "hidden", skip=True),
            fld("private", builtin("string"), "private", exported=False),
            fld("Created", external(META, "Time"), "created", omitempty=True),
            fld("Timeout", external(META, "Duration"), "timeout", omitempty=True),
            fld(
                "Qty",
                external("k8s.io/apimachinery/pkg/api/resource", "Quantity"),
                "qty",
                omitempty=True,
            ),
            fld(
                "Port",
                external("k8s.io/apimachinery/pkg/util/intstr", "IntOrString"),
                "port",
                omitempty=True,
            ),
            fld(
                "Ext",
                external("k8s.io/apimachinery/pkg/runtime", "RawExtension"),
                "ext",
                omitempty=True,
            ),
            fld(
                "Any",
                external("k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1", "JSON"),
                "any",
                omitempty=True,
            ),
            fld(
                "Meta",
                external(META, "ObjectMeta"),
                "metadata",
                omitempty=True,
                description="Standard object metadata.",
            ),
            fld(
                "Other",
                slice_(external("example.org/other-mod/v1", "Thing")),
                "other",
                omitempty=True,
            ),
        ],
        description="Types shows the type mapping.",
    )
    return model(
        [s, item],
        enums=[mode],
        types=[
            named_type("Mode", builtin("string")),
            named_type("Alias", slice_(builtin("string"))),
        ],
    )


class TestTypeMapping:
    """The design: "type and format mapped as openapi-gen does"."""

    @pytest.fixture
    def props(self) -> dict[str, Any]:
        d: dict[str, Any] = v2_defs(types_model())[DEF + "Types"]["properties"]
        return d

    def test_builtins(self, props: dict[str, Any]) -> None:
        assert props["b"] == {"type": "boolean"}
        assert props["i"] == {"type": "integer", "format": "int32"}
        assert props["i64"] == {"type": "integer", "format": "int64"}
        assert props["u32"] == {"type": "integer", "format": "int64"}
        assert props["f32"] == {"type": "number", "format": "float"}
        assert props["f64"] == {"type": "number", "format": "double"}
        assert props["raw"] == {"type": "string", "format": "byte"}
        assert props["s"] == {"type": "string", "description": "A string.\n\nSecond paragraph."}

    def test_refs_arrays_maps_and_extensions(self, props: dict[str, Any]) -> None:
        assert props["item"] == {"$ref": f"#/definitions/{DEF}Item", "description": "The item."}
        assert props["itemPtr"] == {"$ref": f"#/definitions/{DEF}Item"}
        assert props["items"] == {
            "type": "array",
            "items": {"$ref": f"#/definitions/{DEF}Item"},
            "x-kubernetes-patch-strategy": "merge",
            "x-kubernetes-patch-merge-key": "name",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
        }
        assert props["labels"] == {"type": "object", "additionalProperties": {"type": "string"}}
        assert props["alias"] == {"type": "array", "items": {"type": "string"}}
        assert (
            props["state"]["x-kubernetes-patch-strategy"] == "retainKeys"
        )  # the retainKeys proposal

    def test_enums_through_pointer_items_and_map_values(self, props: dict[str, Any]) -> None:
        assert props["mode"]["enum"] == ["a", "b"]
        assert props["mode"]["description"] == ('Possible enum values:\n - `"a"` is a.\n - `"b"`')
        assert props["modes"] == {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}
        assert props["byMode"]["additionalProperties"] == {"type": "string", "enum": ["a", "b"]}
        assert props["kb"]["enum"] == ["x", "y"]

    def test_defaults_and_string_option(self, props: dict[str, Any]) -> None:
        assert props["count"]["default"] == 3
        assert props["word"]["default"] == "hello"
        assert props["num"] == {"type": "string"}

    def test_required_skip_and_unexported(self) -> None:
        d = v2_defs(types_model())[DEF + "Types"]
        assert d["required"] == ["s", "b", "i", "i64", "u32", "f32", "f64", "raw", "item", "req"]
        assert "hidden" not in d["properties"] and "private" not in d["properties"]
        assert d["description"] == "Types shows the type mapping."

    def test_well_known_types(self, props: dict[str, Any]) -> None:
        assert props["created"] == {"type": "string", "format": "date-time"}
        assert props["timeout"] == {"type": "string"}
        assert props["qty"]["x-kubernetes-int-or-string"] is True
        assert props["port"]["x-kubernetes-int-or-string"] is True
        assert props["ext"] == {"type": "object"}
        assert props["any"] == {"x-kubernetes-preserve-unknown-fields": True}

    def test_external_references_listed(self) -> None:
        v2, v3 = docs(types_model())
        expected = [
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
            "org.example.other-mod.v1.Thing",
        ]
        assert v2["x-markergen-external-references"] == expected
        assert v3["x-markergen-external-references"] == expected
        assert v2["definitions"][DEF + "Types"]["properties"]["metadata"]["$ref"] == (
            "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
        )

    def test_v3_wraps_refs_with_siblings_in_all_of(self) -> None:
        props = docs(types_model())[1]["components"]["schemas"][DEF + "Types"]["properties"]
        assert props["item"] == {
            "allOf": [{"$ref": f"#/components/schemas/{DEF}Item"}],
            "description": "The item.",
        }
        assert props["itemPtr"] == {"$ref": f"#/components/schemas/{DEF}Item"}
        assert "oneOf" in props["port"]

    def test_go_naming_escapes_slashes_in_refs(self) -> None:
        v2 = docs(types_model(), EmitOptions(naming="go"))[0]
        assert f"{PKG}.Types" in v2["definitions"]
        ref = v2["definitions"][f"{PKG}.Types"]["properties"]["itemPtr"]["$ref"]
        assert ref == "#/definitions/example.com~1kep~1kep000.Item"


def _stub(doc: dict[str, Any], where: dict[str, Any]) -> None:
    for name in doc.get("x-markergen-external-references", []):
        where[name] = {"type": "object"}


@pytest.mark.parametrize("build", [kep000_model, kep004_model, types_model])
def test_documents_pass_openapi_spec_validator(build: Any) -> None:
    """The design: "Both documents must pass openapi-spec-validator once external
    references are stubbed"."""
    for fmt in ("fieldMembers", "both"):
        v2, v3 = docs(build(), EmitOptions(union_format=fmt))
        _stub(v2, v2["definitions"])
        _stub(v3, v3["components"]["schemas"])
        errors2 = list(OpenAPIV2SpecValidator(v2).iter_errors())
        errors3 = list(OpenAPIV30SpecValidator(v3).iter_errors())
        assert errors2 == [] and errors3 == []


def test_deterministic_whatever_the_model_order() -> None:
    m = types_model()
    base = render_outputs(m, EmitOptions())
    rng = random.Random(7)
    for _ in range(3):
        items = list(m.structs.values())
        rng.shuffle(items)
        shuffled = Model(
            m.packages, {s.key: s for s in items}, dict(reversed(m.types.items())), m.enums
        )
        assert render_outputs(shuffled, EmitOptions()) == base


def test_documents_are_canonical_json_text() -> None:
    for text in render_outputs(kep000_model(), EmitOptions()).values():
        if text.startswith("{"):
            canonical = (
                json.dumps(json.loads(text), sort_keys=True, indent=2, ensure_ascii=False) + "\n"
            )
            assert text == canonical


def test_info_and_document_heads() -> None:
    v2, v3 = docs(kep000_model(), EmitOptions(title="My API", version="v1.2"))
    assert v2["swagger"] == "2.0" and v2["paths"] == {}
    assert v2["info"] == {"title": "My API", "version": "v1.2"}
    assert v3["openapi"] == "3.0.0" and v3["info"]["title"] == "My API"
    assert "x-markergen-external-references" not in v2


def test_kep2022_undiscriminated_union_is_a_list_on_the_struct() -> None:
    s = struct(
        "OneOf",
        [
            fld("A", ptr(builtin("int")), "a", omitempty=True),
            fld("B", ptr(builtin("int")), "b", omitempty=True),
        ],
        [
            union(
                key("OneOf"),
                dialect="kep2022",
                origin="discriminated",
                members=[member("A", "a"), member("B", "b")],
                mode="exactly-one",
            )
        ],
    )
    d = v2_defs(model([s]))[DEF + "OneOf"]
    assert d["x-kubernetes-unions"] == [{"fields-to-discriminateBy": {"a": "A", "b": "B"}}]


def test_kep2022_discriminator_without_enum_lists_member_values() -> None:
    s = struct(
        "U",
        [
            fld("Kind", builtin("string"), "kind"),
            fld("A", ptr(builtin("int")), "a", omitempty=True),
        ],
        [
            union(
                key("U"),
                dialect="kep2022",
                origin="discriminated",
                discriminator=disc("Kind", "kind", required=True),
                members=[member("A", "a")],
                empty=("",),
            )
        ],
    )
    p = v2_defs(model([s]))[DEF + "U"]["properties"]["kind"]
    assert p["x-kubernetes-unions"] == {
        "fieldMembers": {"": None, "A": {"name": "a", "optional": False}}
    }


def test_documents_report_externals_not_defined_locally() -> None:
    for doc in docs(types_model()):
        references = doc["x-markergen-external-references"]
        assert "org.example.other-mod.v1.Thing" in references
        assert all(not r.startswith("com.example") for r in references)


def test_kep004_constant_prefix_trimmed_only_when_it_leads() -> None:
    e = enum("E", [("EA", "x", "Selects EA for real.")], KEP004)
    s = struct("S", [fld("E", named("E", KEP004), "e")], pkg=KEP004)
    p = v2_defs(model([s], enums=[e], types=[named_type("E", builtin("string"), KEP004)]))
    desc = p[DEF4 + "S"]["properties"]["e"]["description"]
    assert desc == 'Possible enum values:\n - `"x"` Selects EA for real.'
