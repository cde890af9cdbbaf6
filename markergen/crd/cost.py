"""The API server's static CEL cost check at CRD creation, for the rules markergen writes.

k8s.io/apiextensions-apiserver (pkg/apis/apiextensions/validation/validation.go) refuses a
CRD version when one rule's estimated cost exceeds `StaticEstimatedCostLimit`
(10,000,000) or the rules of its whole schema together exceed
`StaticEstimatedCRDCostLimit` (100,000,000). A rule's estimated cost is cel-go's estimated
max cost of one evaluation times the cardinality of its node (`getExpressionCost`);
markergen.celcost ports both (docs/cel-cost.md).

When the port cannot estimate a rule (CEL it does not read, a function it has not
ported), `estimate` falls back to `upper_bound_call_cost`, the token count markergen used
before, and says so: it is never below cel-go's estimate for the shapes markergen writes.
"""

from __future__ import annotations

import hashlib
import math
import pickle
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from markergen.celcost.decl import MAX_REQUEST_SIZE_BYTES, Decl, max_cardinality, schema_decl
from markergen.celcost.rulecost import (
    NOT_VISIBLE,
    PER_CALL_LIMIT,
    STATIC_ESTIMATED_COST_LIMIT,
    STATIC_ESTIMATED_CRD_COST_LIMIT,
    CannotEstimate,
    cardinality,
    cost_at,
    is_resource_root,
    node_context,
)
from markergen.celcost.syntax import CelSyntaxError, Expr, parse
from markergen.yamlio import PathKey

__all__ = [
    "MAX_REQUEST_SIZE_BYTES",
    "PER_CALL_LIMIT",
    "STATIC_ESTIMATED_COST_LIMIT",
    "STATIC_ESTIMATED_CRD_COST_LIMIT",
    "CostMemo",
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


class CostMemo:
    """The estimates of one run, each made once (a feature-set variant, a copy in a Helm
    chart, the spec and status of one type repeat the same rules on the same schemas).

    An estimate depends only on the rule's text, `optionalOldSelf`, the node's own schema,
    whether that node is a resource's root and its context's MaxCardinality
    (`celcost.node_context`): those are the key, the schema by a digest of its pickle
    (equal pickles load as equal values, in the same order; a pickle also records which
    objects are shared, so equal values may get two digests: only a miss). The pickle
    is three times faster to make than the `repr`. The CEL type of a schema
    node and the parse of a rule's text are kept likewise; neither is changed by an
    estimate."""

    __slots__ = ("_decls", "_digests", "_estimates", "_parsed", "_root", "totals")

    def __init__(self) -> None:
        self._estimates: dict[tuple[str, bool, bool, int | None, bytes], Estimate] = {}
        self._decls: dict[tuple[bytes, bool], Decl | None] = {}
        self._parsed: dict[str, Expr | str] = {}  # a rule's tree, or why it cannot be read
        # hand_cost of a whole schema: (total, the reasons of rules it could not estimate)
        self.totals: dict[tuple[bytes, Callable[..., bool]], tuple[int, tuple[str, ...]]] = {}
        # digests by id() of the nodes of the schema last asked about, which is kept
        # alive so that no id is reused while it is the key
        self._root: Any = None
        self._digests: dict[int, bytes] = {}

    def estimate(
        self, rule: str, schema: Any, below: PathKey, optional_old_self: bool = False
    ) -> Estimate:
        """`estimate`, once per distinct key."""
        node, context = node_context(schema, below)
        digest = self.digest(node, schema)
        is_root = is_resource_root(node, below)
        key = (rule, optional_old_self, is_root, context, digest)
        found = self._estimates.get(key)
        if found is None:
            decl_key = (digest, is_root)
            if decl_key in self._decls:
                decl = self._decls[decl_key]
            else:
                decl = self._decls[decl_key] = schema_decl(node, resource_root=is_root)
            found = _estimate_at(rule, decl, context, optional_old_self, self.parse)
            self._estimates[key] = found
        return found

    def parse(self, rule: str) -> Expr:
        """The parsed rule; CelSyntaxError (with the same message each time) when it
        cannot be read."""
        found = self._parsed.get(rule)
        if found is None:
            try:
                found = parse(rule)
            except CelSyntaxError as e:
                found = str(e)
            self._parsed[rule] = found
        if isinstance(found, str):
            raise CelSyntaxError(found)
        return found

    def digest(self, node: Any, root: Any = None) -> bytes:
        """A digest of `node`, a node of the schema `root` (by default `node` itself):
        equal for equal values. Kept by id() while `root` is the last schema asked about."""
        root = node if root is None else root
        if root is not self._root:
            self._root = root
            self._digests = {}
        found = self._digests.get(id(node))
        if found is None:
            found = hashlib.sha256(pickle.dumps(node, protocol=5)).digest()
            self._digests[id(node)] = found
        return found


def _estimate_at(
    rule: str,
    decl: Decl | None,
    context: int | None,
    optional_old_self: bool,
    parse_rule: Callable[[str], Expr],
) -> Estimate:
    """`estimate` of a rule on a node of CEL type `decl` (None: not visible to CEL)."""
    try:
        if decl is None:
            raise CannotEstimate(NOT_VISIBLE)
        c = cost_at(rule, decl, context, optional_old_self, parse_rule)
        return Estimate(c.per_call, c.cardinality, c.total)
    except CannotEstimate as e:
        per_call = upper_bound_call_cost(rule)
        if context is not None:
            card = context
        else:
            card = max_cardinality(decl.min_size if decl is not None else 2)
        return Estimate(per_call, card, per_call * card, fallback=str(e))


def estimate(rule: str, schema: Any, below: PathKey, optional_old_self: bool = False) -> Estimate:
    """The API server's estimate for `rule` at `below` (a path under openAPIV3Schema)."""
    return CostMemo().estimate(rule, schema, below, optional_old_self)


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


def hand_cost(
    schema: Any, ours: Callable[[dict[str, Any]], bool], memo: CostMemo | None = None
) -> tuple[int, list[str]]:
    """The API server's estimated total of the rules in `schema` that are not `ours`
    (rule x cardinality, plus each messageExpression's per-call cost, as
    `TotalCost.ObserveExpressionCost` adds them), and the reasons of those it cannot
    estimate (not counted: the API server serves them, so they are within its limits).
    With `memo`, once per distinct schema (and `ours`)."""
    if memo is None:
        memo = CostMemo()
    key = (memo.digest(schema), ours)
    found = memo.totals.get(key)
    if found is not None:
        return found[0], list(found[1])
    total = 0
    unknown: list[str] = []
    for below, r in hand_rules(schema):
        if ours(r):
            continue
        for field in ("rule", "messageExpression"):
            text = r.get(field)
            if not isinstance(text, str) or not text.strip():
                continue
            est = memo.estimate(text, schema, below, r.get("optionalOldSelf") is True)
            if est.fallback:
                unknown.append(f"`{text}`: {est.fallback}")
                continue
            total += est.total if field == "rule" else est.per_call
    memo.totals[key] = (total, tuple(unknown))
    return total, unknown
