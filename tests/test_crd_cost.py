"""The API server's static CEL cost check (apiextensions-apiserver: per-call cost times
the cardinality of the node; 10,000,000 per rule, 100,000,000 per CRD)."""

from __future__ import annotations

from markergen.crd.cost import (
    STATIC_ESTIMATED_COST_LIMIT,
    UNBOUNDED_OBJECTS,
    call_cost,
    cardinality,
    rule_cost,
)

LIST = {
    "properties": {
        "spec": {
            "properties": {
                "bounded": {"type": "array", "maxItems": 16, "items": {"type": "object"}},
                "open": {"type": "array", "items": {"type": "object"}},
                "byName": {
                    "type": "object",
                    "maxProperties": 4,
                    "additionalProperties": {
                        "type": "array",
                        "maxItems": 8,
                        "items": {"type": "object"},
                    },
                },
            }
        }
    }
}
COUNT5 = " + ".join(f"(has(self.m{i}) ? 1 : 0)" for i in range(5)) + " <= 1"


def test_call_cost_counts_self_selections_and_operators() -> None:
    # self, .email, !, self, .method, self, .method, ==, "Email" (ceil(0.5))
    assert call_cost('has(self.email) || !(has(self.method) && self.method == "Email")') == 9
    # per member: self, .mN, ?; four +, one <=
    assert call_cost(COUNT5) == 5 * 3 + 4 + 1


def test_cardinality_multiplies_bounds_and_falls_back_to_the_request_size() -> None:
    spec = ("properties", "spec", "properties")
    assert cardinality(LIST, (*spec, "bounded", "items")) == 16
    assert cardinality(LIST, (*spec, "byName", "additionalProperties", "items")) == 4 * 8
    assert cardinality(LIST, (*spec, "open", "items")) == UNBOUNDED_OBJECTS == 1_048_576
    assert cardinality(LIST, ("properties", "spec")) == 1


def test_a_counted_union_in_an_unbounded_list_is_over_the_limit_and_bounded_is_not() -> None:
    spec = ("properties", "spec", "properties")
    assert rule_cost(COUNT5, LIST, (*spec, "open", "items")) > STATIC_ESTIMATED_COST_LIMIT
    assert rule_cost(COUNT5, LIST, (*spec, "bounded", "items")) < STATIC_ESTIMATED_COST_LIMIT
