"""The API server's static cost estimate of CRD validation rules (see docs/cel-cost.md).

`rule_cost` gives what apiextensions-apiserver computes for one `x-kubernetes-validations`
rule at a schema node: cel-go's estimated max cost of one evaluation (`MaxCost`), and that
times the number of nodes the rule may run on (`getExpressionCost`), which is compared
with the per-rule limit; the CRD's rules together are compared with the per-CRD limit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from markergen.celcost.check import Checker, CheckError, decl_type, optional_of
from markergen.celcost.decl import Decl, max_cardinality, schema_decl
from markergen.celcost.estimate import MAX_U64, Coster, SizeEstimator
from markergen.celcost.syntax import CelSyntaxError, Expr, parse

# k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
STATIC_ESTIMATED_COST_LIMIT = 10_000_000
STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000
# k8s.io/apiserver pkg/apis/cel/config.go (the runtime limit of one evaluation)
PER_CALL_LIMIT = 1_000_000


class CannotEstimate(Exception):
    """The estimate cannot be made; the message says why."""


NOT_VISIBLE = "the node is not visible to CEL (no type the API server maps)"


@dataclass(frozen=True, slots=True)
class RuleCost:
    per_call: int  # cel-go's estimated max cost of one evaluation (CompilationResult.MaxCost)
    cardinality: int  # how many times it may run per object
    total: int  # per_call x cardinality, saturating at 2^64 - 1 as the API server does


def call_cost(
    rule: str,
    node: Decl,
    optional_old_self: bool = False,
    parse_rule: Callable[[str], Expr] = parse,
) -> int:
    """cel-go's estimated max cost of `rule` evaluated with `self` of type `node`
    (`oldSelf` the same type, or an optional of it for `optionalOldSelf: true`).
    `parse_rule` may return one tree for many calls: nothing here changes it."""
    try:
        expr = parse_rule(rule)
    except CelSyntaxError as e:
        raise CannotEstimate(f"cannot parse the rule: {e}") from e
    t = decl_type(node)
    checker = Checker({"self": t, "oldSelf": optional_of(t) if optional_old_self else t})
    try:
        checker.check(expr)
    except CheckError as e:
        raise CannotEstimate(str(e)) from e
    except RecursionError as e:
        raise CannotEstimate("the rule is nested too deeply") from e
    coster = Coster(checker.out, SizeEstimator(node))
    return coster.cost(expr).max


def _step(schema: Any, step: str | int) -> Any:
    return schema.get(str(step)) if isinstance(schema, dict) else None


def node_schema(root: Any, below: Sequence[str | int]) -> tuple[Any, list[Any]]:
    """The schema at `below` (a path of schema keys under openAPIV3Schema) and the
    schemas of its ancestors whose child it is (properties, items, additionalProperties)."""
    node = root
    parents: list[Any] = []
    steps = list(below)
    i = 0
    while i < len(steps):
        step = steps[i]
        if step == "properties" and i + 1 < len(steps):
            parents.append(node)
            node = _step(_step(node, "properties"), steps[i + 1])
            i += 2
            continue
        if step in ("items", "additionalProperties"):
            parents.append(node)
        node = _step(node, step)
        i += 1
    return node, parents


def _max_elements(s: Any) -> int | None:
    """extractMaxElements: how many children a schema may have per occurrence (None: unbounded)."""
    if not isinstance(s, dict):
        return 1
    t = s.get("type")
    if t == "object":
        if s.get("additionalProperties") is not None:
            mp = s.get("maxProperties")
            return max(mp, 0) if isinstance(mp, int) and not isinstance(mp, bool) else None
        return 1
    if t == "array":
        mi = s.get("maxItems")
        return max(mi, 0) if isinstance(mi, int) and not isinstance(mi, bool) else None
    return 1


def node_context(root: Any, below: Sequence[str | int]) -> tuple[Any, int | None]:
    """The schema at `below` and CELSchemaContext.MaxCardinality there: the product of
    the bounds of the lists and maps above it (saturating at 2^64 - 1), None when one is
    unbounded. With whether the node is a resource's root, all a rule's estimate depends
    on besides the node's own schema."""
    node, parents = node_schema(root, below)
    total = 1
    for p in parents:
        m = _max_elements(p)
        if m is None:
            return node, None
        total = min(total * m, MAX_U64)
    return node, total


def context_cardinality(root: Any, below: Sequence[str | int]) -> int | None:
    """CELSchemaContext.MaxCardinality at `below` (`node_context`)."""
    return node_context(root, below)[1]


def cardinality(root: Any, below: Sequence[str | int], node: Decl | None = None) -> int:
    """How many times a rule at `below` may run (`getExpressionCost`): the context's
    MaxCardinality, or when unbounded `maxCardinality(MinSerializedSize)` of the node."""
    total = context_cardinality(root, below)
    if total is not None:
        return total
    if node is None:
        node = node_decl(root, below)
    return max_cardinality(node.min_size if node is not None else 2)


def is_resource_root(s: Any, below: Sequence[str | int]) -> bool:
    """Whether the node `s` at `below` is the root of a resource (the schema's root, or
    an `x-kubernetes-embedded-resource`): CEL sees its kind, apiVersion and metadata."""
    return not below or (isinstance(s, dict) and s.get("x-kubernetes-embedded-resource") is True)


def node_decl(root: Any, below: Sequence[str | int]) -> Decl | None:
    """The CEL type of the node at `below` as the API server builds it from the root."""
    s, _ = node_schema(root, below)
    return schema_decl(s, resource_root=is_resource_root(s, below))


def rule_cost(
    rule: str, root: Any, below: Sequence[str | int], optional_old_self: bool = False
) -> RuleCost:
    """What the API server estimates for `rule` at `below` under openAPIV3Schema `root`."""
    node = node_decl(root, below)
    if node is None:
        raise CannotEstimate(NOT_VISIBLE)
    return cost_at(rule, node, context_cardinality(root, below), optional_old_self)


def cost_at(
    rule: str,
    node: Decl,
    context: int | None,
    optional_old_self: bool = False,
    parse_rule: Callable[[str], Expr] = parse,
) -> RuleCost:
    """`rule_cost` of a rule on a node of type `node` whose context's MaxCardinality
    is `context` (`node_context`)."""
    per_call = call_cost(rule, node, optional_old_self, parse_rule)
    card = context if context is not None else max_cardinality(node.min_size)
    return RuleCost(per_call, card, min(per_call * card, MAX_U64))
