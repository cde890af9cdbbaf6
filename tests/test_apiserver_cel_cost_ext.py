"""markergen's port of the CEL cost estimate (markergen.celcost) against the real API
server, for what issue 39 added: two-variable comprehensions, the ext.Lists functions,
and the authorization library (which a CRD rule cannot reach).

For each rule the port's per-call estimate c is put to the server's per-rule limit
(cost x cardinality <= 10,000,000): the rule sits in the items of a list whose
`maxItems` M sets its cardinality, and the server must accept the CRD with
M = floor(10,000,000 / c) and refuse it with M + 1. Both hold only when the server's
estimate is exactly c (M is in the tens of thousands, so one unit of cost moves the
product past the limit). CRDs are created with dryRun, nothing is stored.
"""

from __future__ import annotations

import copy
from typing import Any

import kubeserver
import pytest

from markergen.celcost.rulecost import STATIC_ESTIMATED_COST_LIMIT, CannotEstimate, rule_cost

ITEM: dict[str, Any] = {
    "type": "object",
    "properties": {
        "l": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 5}},
        "n": {"type": "array", "maxItems": 20, "items": {"type": "integer"}},
        "m": {"type": "object", "maxProperties": 4, "additionalProperties": {"type": "integer"}},
        "u": {"type": "array", "maxItems": 100, "items": {"type": "string"}},
    },
}

RULES = [
    # two-variable comprehensions (cel-go ext/comprehensions.go)
    'self.l.all(i, v, i < 5 && v == "a")',
    "self.m.exists(k, v, v > 1)",
    'self.l.existsOne(i, v, v == "a")',
    "self.n.exists_one(i, v, v == i)",
    'self.l.transformList(i, v, v + "x").size() > 0',
    "self.n.transformList(i, v, i > 1, v * 2).size() > 0",
    "self.m.transformMap(k, v, v * 2).size() > 0",
    'self.m.transformMap(k, v, k != "a", v).size() > 0',
    "self.m.transformMapEntry(k, v, {k: v}).size() > 0",
    "self.u.all(i, v, v.size() < 4)",
    # ext.Lists, version 3 (its own cost estimators)
    "self.l.slice(1, 3).size() == 2",
    "self.n.slice(0, self.n.size() - 1).size() >= 0",
    "self.l.reverse().size() == 1",
    "self.n.distinct().size() == 1",
    "self.l.sort().size() == 1",
    "self.n.sort()[0] == 1",
    "lists.range(5).size() == 5",
    "[[1], [2]].flatten().size() == 2",
    "[[[1]], [[2]]].flatten(2).size() == 2",
    "self.n.reverse().transformList(i, v, v + i).sort().size() > 0",
    # a one-variable map's result is typed by its element, as cel-go infers it: the
    # sort overload (and its cost factor) after it follows
    "self.n.map(v, v + 1).sort().size() > 0",
    "self.l.filter(v, v != 'a').sort().size() > 0",
    # ext.Lists' sortBy macro: a bind of the list, sorted by the map of its keys
    "self.n.sortBy(v, -v).size() > 0",
    "self.l.sortBy(v, v + 'x')[0] != 'a'",
    "self.m.transformList(k, v, v).sortBy(x, x).size() > 0",
]


def _crd(rule: str, max_items: int) -> dict[str, Any]:
    item = copy.deepcopy(ITEM)
    item["x-kubernetes-validations"] = [{"rule": rule}]
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "costs.cost.example.com"},
        "spec": {
            "group": "cost.example.com",
            "names": {"kind": "Cost", "listKind": "CostList", "plural": "costs", "singular": "cost"},
            "scope": "Namespaced",
            "versions": [{
                "name": "v1", "served": True, "storage": True,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {
                        "items": {"type": "array", "maxItems": max_items, "items": item},
                    }},
                }}},
            }],
        },
    }  # fmt: skip


def _create(kube: kubeserver.Server, crd: dict[str, Any]) -> tuple[bool, str]:
    code, body = kube.request(
        "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All", crd
    )
    return code in (200, 201), str(body.get("message", body))


def _root(crd: dict[str, Any]) -> Any:
    return crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]


@pytest.mark.parametrize("rule", RULES)
def test_the_estimate_is_the_servers(kube: kubeserver.Server, rule: str) -> None:
    probe = _crd(rule, 1)
    cost = rule_cost(rule, _root(probe), ("properties", "spec", "properties", "items", "items"))
    assert cost.cardinality == 1
    at_limit = STATIC_ESTIMATED_COST_LIMIT // cost.per_call
    assert at_limit >= 1000, cost  # one unit of cost must move the product past the limit
    ok, message = _create(kube, _crd(rule, at_limit))
    assert ok, f"per-call {cost.per_call}, maxItems {at_limit}: {message}"
    ok, message = _create(kube, _crd(rule, at_limit + 1))
    assert not ok, f"per-call {cost.per_call}, maxItems {at_limit + 1}: accepted"
    assert "estimated rule cost exceeds budget" in message, message


def test_a_crd_rule_cannot_reach_the_authorization_library(kube: kubeserver.Server) -> None:
    # the library is in the server's environment, but only admission policies declare
    # `authorizer`: a CRD rule naming it (or its field and label selectors) is refused
    for rule in (
        "authorizer.group('').resource('pods').check('get').allowed()",
        "authorizer.group('').resource('pods').fieldSelector('a=b').check('list').allowed()",
    ):
        crd = _crd(rule, 10)
        ok, message = _create(kube, crd)
        assert not ok and "undeclared reference to 'authorizer'" in message, message
        path = ("properties", "spec", "properties", "items", "items")
        with pytest.raises(CannotEstimate, match="undeclared reference to 'authorizer'"):
            rule_cost(rule, _root(crd), path)
