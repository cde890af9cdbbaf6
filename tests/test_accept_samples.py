"""The kept objects' parts at a schema node, as the API server defaults and prunes them,
and the first a rule rejects (markergen.accept.samples)."""

from __future__ import annotations

from typing import Any

from markergen.accept.celeval import CelEvaluator
from markergen.accept.samples import KeptParts

NODE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "type": {"type": "string", "default": "A"},
        "a": {"type": "object"},
        "b": {"type": "array", "items": {"type": "string"}},
        "x-y": {"type": "string"},
    },
}
ONE_MEMBER = "(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) == 1"


def _kept(values: list[tuple[Any, str]], schema: Any = NODE, items: bool = False) -> KeptParts[str]:
    return KeptParts(CelEvaluator(), schema, values, items=items)


def test_parts_that_differ_only_inside_nested_values_are_one_part() -> None:
    kept = _kept([({"a": {"p": 1}}, "first"), ({"a": {"q": [2]}}, "second"), ("text", "no part")])
    assert [first for _, first in kept.parts] == ["first"]


def test_the_first_object_a_rule_rejects_is_named() -> None:
    kept = _kept([({"a": {}}, "ok"), ({"a": {}, "b": ["x"]}, "both"), ({}, "none")])
    assert kept.rejected(ONE_MEMBER) == "both"
    assert kept.rejected("true") is None


def test_a_left_out_field_is_judged_with_its_default() -> None:
    kept = _kept([({"a": {}}, "defaulted")])
    assert kept.rejected("self.type == 'A'") is None
    assert kept.rejected("!has(self.type)") == "defaulted"
    assert list(kept.values("type")) == [("A", "defaulted")]
    # a null is left out too
    assert list(_kept([({"type": None}, "null")]).values("type")) == [("A", "null")]


def test_a_field_the_node_does_not_declare_is_pruned() -> None:
    kept = _kept([({"a": {}, "extra": 1}, "extra")])
    assert kept.rejected("!has(self.extra)") is None


def test_names_reach_cel_escaped() -> None:
    kept = _kept([({"x-y": "v"}, "dashed")])
    assert kept.rejected("self.x__dash__y == 'v'") is None
    assert kept.rejected("self.x__dash__y == 'w'") == "dashed"


def test_a_rule_that_errors_accepts() -> None:
    assert _kept([({"a": {}}, "o")]).rejected("self.nosuch.deeper == 1") is None


def test_a_nested_value_has_no_scalar_value() -> None:
    assert list(_kept([({"a": {"k": "v"}}, "o")]).values("a")) == []


def test_the_rules_of_a_list_see_every_item_defaulted() -> None:
    schema = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"kind": {"type": "string", "default": "K"}, "n": {"type": "integer"}},
        },
    }
    kept = _kept([([{"n": 1}, {"kind": "L"}], "two"), ([], "empty"), ({"n": 1}, "no list")],
                 schema, items=True)  # fmt: skip
    assert [first for _, first in kept.parts] == ["two", "empty"]
    assert kept.rejected("self.exists(i, i.kind == 'K')") == "empty"
    assert kept.rejected("self.all(i, i.kind == 'K')") == "two"


def test_an_empty_list_or_map_is_present_but_of_size_zero() -> None:
    # validation-gen's "len" members count an empty list or map as unset; `has` sees it
    kept = _kept([({"b": []}, "empty list"), ({"a": {}}, "empty map"), ({"b": ["x"]}, "full")])
    assert [first for _, first in kept.parts] == ["empty list", "empty map", "full"]
    assert kept.rejected("!has(self.b) || size(self.b) > 0") == "empty list"
    assert kept.rejected("!has(self.a) || size(self.a) > 0") == "empty map"
    assert kept.rejected("has(self.a) || has(self.b)") is None
