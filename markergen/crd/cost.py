"""The API server's static CEL cost check at CRD creation, for the rules markergen writes.

k8s.io/apiextensions-apiserver (pkg/apis/apiextensions/validation/validation.go) refuses a
CRD version when one rule's estimated cost exceeds `StaticEstimatedCostLimit`
(10,000,000) or the rules of its whole schema together exceed
`StaticEstimatedCRDCostLimit` (100,000,000). A rule's estimated cost is cel-go's estimated
max cost of one evaluation times the cardinality of its node (`getExpressionCost`);
markergen.crd.celcost ports both (docs/cel-cost.md).

When the port cannot estimate a rule (CEL it does not read, a function it has not
ported), `estimate` falls back to `upper_bound_call_cost`, the token count markergen used
before, and says so: it is never below cel-go's estimate for the shapes markergen writes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from markergen.crd.celcost import (
    PER_CALL_LIMIT,
    STATIC_ESTIMATED_COST_LIMIT,
    STATIC_ESTIMATED_CRD_COST_LIMIT,
    CannotEstimate,
    cardinality,
    rule_cost,
)
from markergen.crd.celcost.decl import MAX_REQUEST_SIZE_BYTES
from markergen.crd.yamlio import PathKey

__all__ = [
    "MAX_REQUEST_SIZE_BYTES",
    "PER_CALL_LIMIT",
    "STATIC_ESTIMATED_COST_LIMIT",
    "STATIC_ESTIMATED_CRD_COST_LIMIT",
    "Estimate",
    "cardinality",
    "estimate",
    "hand_cost",
    "hand_rules",
    "upper_bound_call_cost",
]

_TOKENS = re.compile(
    r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|==|!=|<=|>=|&&|\|\||[!+?<>]|\bself\b|\.[A-Za-z_]\w*'
)


def upper_bound_call_cost(rule: str) -> int:
    """The fallback: 1 per `self`, field, comparison, `!`, `+`, `?:`, and ceil(0.1 x length)
    per string literal; both branches of `?:` summed (cel-go takes the larger)."""
    cost = 0
    for m in _TOKENS.finditer(rule):
        tok = m.group(0)
        if tok in ("&&", "||"):
            continue
        if tok[0] in "\"'":
            cost += math.ceil(0.1 * (len(tok) - 2))
            continue
        cost += 1
    return cost


@dataclass(frozen=True, slots=True)
class Estimate:
    per_call: int
    cardinality: int
    total: int
    fallback: str = ""  # why the port could not estimate (then an upper bound), or ""


def estimate(
    rule: str, schema: Any, below: PathKey, optional_old_self: bool = False
) -> Estimate:
    """The API server's estimate for `rule` at `below` (a path under openAPIV3Schema)."""
    try:
        c = rule_cost(rule, schema, below, optional_old_self)
        return Estimate(c.per_call, c.cardinality, c.total)
    except CannotEstimate as e:
        per_call = upper_bound_call_cost(rule)
        card = cardinality(schema, below)
        return Estimate(per_call, card, per_call * card, fallback=str(e))


def hand_rules(schema: Any, below: PathKey = ()) -> Iterator[tuple[PathKey, dict[str, Any]]]:
    """Every `x-kubernetes-validations` entry of the schema with the path of its node."""
    if not isinstance(schema, dict):
        return
    for r in schema.get("x-kubernetes-validations") or []:
        if isinstance(r, dict):
            yield below, r
    props = schema.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            yield from hand_rules(sub, (*below, "properties", str(name)))
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            yield from hand_rules(schema[key], (*below, key))


def hand_cost(schema: Any, ours: Callable[[dict[str, Any]], bool]) -> tuple[int, list[str]]:
    """The API server's estimated total of the rules in `schema` that are not `ours`
    (rule x cardinality, plus each messageExpression's per-call cost, as
    `TotalCost.ObserveExpressionCost` adds them), and the reasons of those it cannot
    estimate (not counted: the API server serves them, so they are within its limits)."""
    total = 0
    unknown: list[str] = []
    for below, r in hand_rules(schema):
        if ours(r):
            continue
        for key in ("rule", "messageExpression"):
            text = r.get(key)
            if not isinstance(text, str) or not text.strip():
                continue
            est = estimate(text, schema, below, r.get("optionalOldSelf") is True)
            if est.fallback:
                unknown.append(f"`{text}`: {est.fallback}")
                continue
            total += est.total if key == "rule" else est.per_call
    return total, unknown
