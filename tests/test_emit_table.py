"""The runtime table."""

from __future__ import annotations

import ast
import json
from typing import Any

from test_emit_models import (
    KEP004,
    builtin,
    fld,
    kep000_model,
    kep004_model,
    map_,
    model,
    named,
    ptr,
    slice_,
    struct,
)

from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.emit.table import build_table
from markergen.model import Model

DEF = "com.example.kep.kep000."
DEF4 = "com.example.kep.kep004."


def tables(m: Model, options: EmitOptions | None = None) -> tuple[Any, Any]:
    out = render_outputs(m, options or EmitOptions())
    return json.loads(out["unions_table.json"]), ast.literal_eval(
        out["unions_table.py"].split("TABLE = ", 1)[1])


def test_kep004_union_entry_matches_design_shape() -> None:
    tj, tp = tables(kep004_model())
    assert tj == tp and tj["version"] == 1
    entry = tj["types"][DEF4 + "Union"]
    assert entry["fields"] == {"unionType": {"kind": "scalar"}, "fieldA": {"kind": "scalar"},
                               "fieldB": {"kind": "scalar"}}
    assert entry["patchStrategies"] == {}
    assert entry["unions"] == [{
        "dialect": "kep1027", "semantics": "kep1027",
        "discriminator": "unionType", "discriminatorRequired": True,
        "values": ["", "FieldA", "FieldB", "FieldC", "FieldD"],
        "members": [{"field": "fieldA", "value": "FieldA", "optional": False},
                    {"field": "fieldB", "value": "FieldB", "optional": True}],
        "mode": "exactly-one", "deduceInvalidDiscriminator": False}]


def test_inlined_struct_fields_and_unions_appear_in_parent() -> None:
    t = build_table(kep004_model(), EmitOptions())
    top = t["types"][DEF4 + "TopLevelUnion"]
    assert sorted(top["fields"]) == ["fieldA", "fieldB", "name", "unionType"]
    assert top["unions"] == t["types"][DEF4 + "Union"]["unions"]


def test_kep2019_unions_in_openapi_gen_order_with_empty_values() -> None:
    t = build_table(kep000_model(), EmitOptions())
    unions = t["types"][DEF + "InlinedUnion"]["unions"]
    assert [u["discriminator"] for u in unions] == ["unionType", "type", None]
    assert all(u["values"] == [] and u["semantics"] == "kep2019" for u in unions)
    assert unions[2]["members"] == [{"field": "field1", "value": "Field1", "optional": False},
                                    {"field": "field2", "value": "Field2", "optional": False}]


def test_field_kinds_types_and_list_map_keys() -> None:
    item = struct("Item", [])
    s = struct("S", _fields())
    t = build_table(model([s, item]), EmitOptions())["types"][DEF + "S"]
    assert t["fields"] == {
        "obj": {"kind": "object", "type": DEF + "Item"},
        "objPtr": {"kind": "object", "type": DEF + "Item"},
        "list": {"kind": "list", "type": DEF + "Item", "listMapKeys": ["name"]},
        "merge": {"kind": "list", "type": DEF + "Item", "listMapKeys": ["key"]},
        "strings": {"kind": "list"},
        "raw": {"kind": "scalar"},
        "byName": {"kind": "map", "type": DEF + "Item"},
        "labels": {"kind": "map"},
    }
    assert t["patchStrategies"] == {"merge": "merge", "objPtr": "retainKeys"}


def _fields() -> list[Any]:
    return [
        fld("Obj", named("Item"), "obj"),
        fld("ObjPtr", ptr(named("Item")), "objPtr", patch_strategy="retainKeys"),
        fld("List", slice_(named("Item")), "list", list_type="map", list_map_keys=("name",),
            patch_merge_key="ignored"),
        fld("Merge", slice_(ptr(named("Item"))), "merge", patch_strategy="merge",
            patch_merge_key="key"),
        fld("Strings", slice_(builtin("string")), "strings"),
        fld("Raw", slice_(builtin("byte")), "raw"),
        fld("ByName", map_(named("Item")), "byName"),
        fld("Labels", map_(builtin("string")), "labels"),
    ]


def test_semantics_overrides_most_specific_first() -> None:
    m = kep004_model()
    union_key = f"{DEF4}Union.unionType"
    opts = EmitOptions(semantics={"kep1027": "kep2019", union_key: "smd"},
                       deduce_invalid_discriminator=True)
    t = build_table(m, opts)["types"]
    assert t[DEF4 + "Union"]["unions"][0]["semantics"] == "smd"
    assert t[DEF4 + "Union"]["unions"][0]["deduceInvalidDiscriminator"] is True
    # The inlined copy in TopLevelUnion is another definition: the dialect key applies.
    assert t[DEF4 + "TopLevelUnion"]["unions"][0]["semantics"] == "kep2019"
    assert t[DEF4 + "TopLevelUnion"]["unions"][0]["deduceInvalidDiscriminator"] is False
    # Go type keys work too.
    go_key = f"{KEP004}.Union"
    t2 = build_table(m, EmitOptions(semantics={go_key: "smd"}))["types"]
    assert t2[DEF4 + "Union"]["unions"][0]["semantics"] == "smd"
