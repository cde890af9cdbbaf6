"""The API server's static CEL cost check at CRD creation, estimated for markergen's rules.

k8s.io/apiextensions-apiserver (pkg/apis/apiextensions/validation/validation.go) refuses a
CRD when one rule's estimated cost exceeds `StaticEstimatedCostLimit` (10,000,000) or the
rules of the whole schema together exceed `StaticEstimatedCRDCostLimit` (100,000,000). A
rule's estimated cost is its per-call cost times the cardinality of its node
(`getExpressionCost`): the product of `maxItems` / `maxProperties` of the enclosing lists
and maps (`extractMaxElements`), or, when one of them is unbounded, the number of elements
that fit in a request, `MaxRequestSizeBytes / (minimum serialized size + 1)` with
`MaxRequestSizeBytes` = 3 MiB (k8s.io/apiserver/pkg/apis/cel/config.go), 1,048,576 for
objects (`{}` plus a comma).

The per-call cost follows cel-go's cost model for the shapes markergen writes: 1 for
`self`, 1 per field selection (also inside `has()`), 1 per comparison, `!`, `+` and `?:`;
`&&`/`||` add nothing beyond their operands; a string comparison with a literal costs
ceil(0.1 x literal length) on top. Both branches of `?:` are summed (cel-go takes the
larger), so the estimate is an upper bound within a factor of two.
"""

from __future__ import annotations

import math
import re
from typing import Any

from markergen.crd.yamlio import PathKey

STATIC_ESTIMATED_COST_LIMIT = 10_000_000
STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000
MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024
UNBOUNDED_OBJECTS = MAX_REQUEST_SIZE_BYTES // 3  # `{}` and a comma

_TOKENS = re.compile(
    r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|==|!=|<=|>=|&&|\|\||[!+?<>]|\bself\b|\.[A-Za-z_]\w*'
)


def call_cost(rule: str) -> int:
    """An upper bound of cel-go's estimated per-call cost of `rule` (see the module doc)."""
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


def cardinality(schema: Any, below: PathKey) -> int:
    """How many times a rule at `below` (a path under openAPIV3Schema) may run per object."""
    node = schema
    total = 1
    steps = list(below)
    i = 0
    while i < len(steps):
        step = steps[i]
        if not isinstance(node, dict):
            break
        if step in ("items", "additionalProperties"):
            bound = node.get("maxItems" if step == "items" else "maxProperties")
            if not isinstance(bound, int) or isinstance(bound, bool):
                return UNBOUNDED_OBJECTS
            total *= max(bound, 0)
            node = node.get(step)
        elif step == "properties" and i + 1 < len(steps):
            props = node.get("properties")
            node = props.get(str(steps[i + 1])) if isinstance(props, dict) else None
            i += 1
        else:
            node = node.get(str(step))
        i += 1
    return total


def rule_cost(rule: str, schema: Any, below: PathKey) -> int:
    return call_cost(rule) * cardinality(schema, below)
