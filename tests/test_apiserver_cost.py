"""markergen's port of the API server's CEL cost estimate (markergen.celcost,
docs/cel-cost.md) against the real CRD API server (tests/kubeserver.py).

For each case the CRD is built so that markergen's estimate sits right at a limit: one
copy of the rule where markergen says it fits (at the limit or just under) and one where
markergen says it is over by the least step. The server must accept the first and refuse
the second with its cost message, whose factor (`exceeds budget by factor of 1.000012x`,
six decimals below 1.5) must be the one markergen's estimate gives. Many cases share one
CRD (the server reports every rule over budget, by its path), so the server is called a
few times only:

- per rule (10,000,000): rules on the items of a list whose `maxItems` sets the number of
  times the rule may run, so every per-call cost is compared exactly; and rules on nodes
  below unbounded lists and maps, whose count comes from the node's smallest serialized
  size;
- per CRD version (100,000,000): versions of one CRD (each version's schema is summed on
  its own) whose rules total exactly the limit, or one more;
- markergen's own decisions (`markergen crd` on testdata/crd/cost): the rules it writes
  are accepted, and the rules it withholds for cost (MG512) are the ones the server
  refuses with a cost message.
"""

from __future__ import annotations

import copy
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import kubeserver
import pytest
import yaml
from helpers import TESTDATA, run_cli

from markergen.crd.cost import (
    STATIC_ESTIMATED_COST_LIMIT,
    STATIC_ESTIMATED_CRD_COST_LIMIT,
    estimate,
    hand_cost,
    hand_rules,
)

RULE_LIMIT = STATIC_ESTIMATED_COST_LIMIT
CRD_LIMIT = STATIC_ESTIMATED_CRD_COST_LIMIT
BUDGET = "exceeds budget by factor of "
SPEC = ("properties", "spec", "properties")


def factor(cost: int, limit: int) -> str:
    """The factor the API server's message gives (getCostErrorMessage in
    apiextensions-apiserver's validation.go)."""
    x = cost / limit
    if x > 100.0:
        return "more than 100x"
    if x < 1.5:
        return f"{x:f}x"
    return f"{x:.1f}x"


def obj(required: tuple[str, ...] = (), **props: Any) -> dict[str, Any]:
    s: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        s["required"] = list(required)
    return s


def crd(versions: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A CRD whose versions have the given root schemas (the first is stored)."""
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "costs.cost.example.com"},
        "spec": {
            "group": "cost.example.com",
            "names": {"kind": "Cost", "listKind": "CostList", "plural": "costs", "singular": "cost"},
            "scope": "Namespaced",
            "versions": [
                {"name": name, "served": True, "storage": i == 0, "schema": {"openAPIV3Schema": s}}
                for i, (name, s) in enumerate(versions.items())
            ],
        },
    }  # fmt: skip


@dataclass(frozen=True)
class Refusal:
    field: str
    message: str


def refusals(kube: kubeserver.Server, doc: dict[str, Any]) -> list[Refusal]:
    """The causes of the server's refusal of `doc` (none when it is created)."""
    code, body = kube.request(
        "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", doc
    )
    if code in (200, 201):
        kube.request(
            "DELETE",
            f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{doc['metadata']['name']}",
        )
        return []
    causes = (body.get("details") or {}).get("causes") or []
    assert causes, f"refused without causes ({code}): {body.get('message', body)}"
    return [Refusal(c.get("field", ""), c.get("message", "")) for c in causes]


# --- per-rule cases with a bounded count ----------------------------------------------

STR10 = {"type": "string", "maxLength": 10}
STR64 = {"type": "string", "maxLength": 64}
STRS = {"type": "array", "maxItems": 16, "items": STR64}
INTS = {"type": "array", "maxItems": 10, "items": {"type": "integer"}}
NODE = obj(
    s=STR10,
    t=STR64,
    open={"type": "string"},
    e={"type": "string", "enum": ["A", "B", "LongValue"]},
    a={"type": "integer"},
    b={"type": "integer"},
    p={"type": "integer"},
    l=INTS,
    strs=STRS,
    openl={"type": "array", "items": {"type": "string"}},
    grid={"type": "array", "maxItems": 8, "items": {"type": "array", "maxItems": 20, "items": {"type": "integer"}}},
    opengrid={"type": "array", "maxItems": 4, "items": {"type": "array", "items": STR10}},
    m={"type": "object", "maxProperties": 12, "additionalProperties": STR10},
    openm={"type": "object", "additionalProperties": {"type": "integer"}},
    objs={"type": "array", "maxItems": 5, "items": obj(("name",), name=STR10, tags=STRS)},
    d={"type": "string", "format": "duration"},
    ts={"type": "string", "format": "date-time"},
    day={"type": "string", "format": "date"},
    raw={"type": "string", "format": "byte", "maxLength": 30},
    q={"x-kubernetes-int-or-string": True, "maxLength": 32},
    n={"type": "number"},
    flag={"type": "boolean"},
    any={"type": "object", "x-kubernetes-preserve-unknown-fields": True},
    namespace=STR10,
    dashed_name=STR10,
    type={"type": "string", "enum": ["Direct", "Mirror"]},
    direct=obj(),
    mirror=obj(),
)  # fmt: skip
NODE["properties"]["dashed-name"] = NODE["properties"].pop("dashed_name")

# Each: (id, rule). The rules are shapes markergen writes, shapes real CRDs hold, and the
# string, list, map and library functions whose cost the port computes.
RULES: list[tuple[str, str]] = [
    ("has", "has(self.p)"),
    ("not-has", "!has(self.p)"),
    ("double-not", "!!has(self.p)"),
    ("int-eq", "self.a == self.b"),
    ("str-eq-bounded", 'self.s == "abc"'),
    ("str-eq-two", "self.s == self.t"),
    ("str-eq-open", 'self.open == "abc"'),
    ("str-ne-open", "self.open != self.t"),
    ("str-lt", "self.s < self.t"),
    ("enum-contains", 'self.e.contains("A")'),
    ("in-list-literal", 'self.s in ["a", "b", "c"]'),
    ("in-list", "self.a in self.l"),
    ("in-map", '"k" in self.m'),
    ("ternary", "has(self.a) ? self.a > 1 : !has(self.b)"),
    ("concat", 'self.s + "x" == self.t'),
    ("list-concat", "(self.l + [1, 2]).size() < 5"),
    ("size", "self.s.size() <= 5 && size(self.l) < 4"),
    ("matches", 'self.t.matches("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")'),
    ("matches-open", 'self.open.matches("^a+$")'),
    ("starts-ends", 'self.t.startsWith("ab") && self.t.endsWith(self.s)'),
    ("contains-open", 'self.open.contains("test")'),
    ("contains-bounded", "self.t.contains(self.s)"),
    ("lower-upper", 'self.t.lowerAscii() == "x" || self.s.upperAscii() == "Y"'),
    ("split", 'self.t.split(",").size() < 3'),
    ("split-n", 'self.t.split(",", 2)[0] == self.s'),
    ("join", 'self.strs.join(",") == self.t'),
    ("replace", 'self.t.replace("a", "bb") == self.s'),
    ("replace-n", 'self.t.replace(self.s, "xyz", 2) != ""'),
    ("index-of", 'self.t.indexOf("o") == 1 && self.t.lastIndexOf(self.s) > 0'),
    ("substring", "self.t.substring(1, 3) == self.s"),
    ("trim", 'self.t.trim() == ""'),
    ("char-at", 'self.t.charAt(2) == "x"'),
    ("find", 'self.t.find("[0-9]+") == "1"'),
    ("find-all", 'self.t.findAll("[a-z]").size() > 2'),
    ("format", '"%s-%d".format([self.s, self.a]) == self.t'),
    ("quote", "strings.quote(self.s) == self.t"),
    ("all-ints", "self.l.all(x, x > 0)"),
    ("exists-strs", 'self.strs.exists(x, x == "a")'),
    ("exists-one", "self.strs.exists_one(x, x.startsWith(self.s))"),
    ("map", "self.l.map(x, x * 2).all(y, y < 100)"),
    ("map-filter", "self.l.map(x, x > 1, x).size() < 3"),
    ("filter", 'self.strs.filter(x, x.contains("-")).size() == 0'),
    ("nested-all", "self.grid.all(row, row.all(x, x >= 0))"),
    ("nested-open", "self.opengrid.all(row, row.all(x, x.size() < 5))"),
    ("pairs", "self.strs.all(x, self.strs.exists_one(y, y == x))"),
    ("objs", 'self.objs.all(o, o.name.startsWith("x") && o.tags.all(t, t != o.name))'),
    ("map-all", "self.m.all(k, self.m[k] == k)"),
    ("open-map", "self.openm.all(k, self.openm[k] > 0)"),
    ("open-list", "self.openl.all(x, x.size() < 10)"),
    ("sorted", "self.l.isSorted() && self.l.sum() < 10 && self.l.min() >= 0 && self.l.max() < 9"),
    ("index-of-list", "self.l.indexOf(3) < 2 && self.strs.lastIndexOf(self.s) == -1"),
    ("sets", "sets.contains(self.strs, [self.s]) || sets.intersects(self.l, [1, 2])"),
    ("optional", 'self.?s.orValue("") == self.t'),
    ("optional-index", 'self.m[?"k"].orValue("") == self.s'),
    ("url", 'isURL(self.t) && url(self.t).getHost() == "x"'),
    ("ip", "isIP(self.s) && ip(self.s).family() == 4"),
    ("cidr", 'isCIDR(self.t) && cidr(self.t).containsIP(ip("10.0.0.1"))'),
    ("quantity", 'isQuantity(self.s) && quantity(self.s).isGreaterThan(quantity("1Gi"))'),
    ("int-or-string", "!quantity(string(self.q)).isLessThan(quantity('16384'))"),
    ("semver", 'isSemver(self.s) && semver(self.s).isGreaterThan(semver("1.0.0"))'),
    ("duration", 'self.d > duration("1s") && duration(self.open) < duration("1h")'),
    ("timestamp", 'self.ts > timestamp("2020-01-01T00:00:00Z") && self.day < timestamp("2030-01-01T00:00:00Z")'),
    ("bytes", "self.raw.size() < 10 && string(self.raw) == self.s"),
    ("number", "self.n > 1.5 && int(self.n) < 3 && double(self.a) < self.n"),
    ("format-lib", "!format.dns1123Label().validate(self.s).hasValue()"),
    ("escaped", 'self.namespace == self.dashed__dash__name && !has(self.__namespace__)'),
    ("union-pair", 'has(self.direct) || !(has(self.type) && self.type == "Direct")'),
    ("union-compact", '(has(self.type) && self.type == "Direct") ? has(self.direct) : !has(self.direct)'),
    ("union-count", "(has(self.direct) ? 1 : 0) + (has(self.mirror) ? 1 : 0) <= 1"),
    ("union-filter", "[has(self.direct), has(self.mirror)].filter(x, x).size() <= 1"),
    ("two-var-all", 'self.objs.all(i, o, i < 3 || o.name == "x")'),
    ("two-var-exists", "self.strs.exists(i, v, v == self.s)"),
    ("two-var-map", "self.m.all(k, v, k == v)"),
    ("two-var-exists-one", "self.strs.existsOne(i, v, i == 1)"),
    ("transform-list", "self.l.transformList(i, v, v * i).size() < 3"),
    ("transform-list-filter", "self.l.transformList(i, v, i > 1, v).all(x, x > 0)"),
    ("two-var-nested", "self.grid.all(i, r, r.all(j, x, x > i))"),
    ("two-var-shared-path", "self.objs.all(i, o, o.tags.all(j, t, t != o.name))"),
    ("list-slice", "self.l.slice(1, self.l.size()).size() < 3"),
    ("list-distinct", "self.l.distinct().size() < 3"),
    ("list-reverse", 'self.strs.reverse().all(x, x != "")'),
    ("list-sort", "self.l.sort()[0] > 1"),
    ("list-sort-strings", 'self.strs.sort()[0] == "a"'),
    ("lists-range", "lists.range(3).size() == 3"),
    ("list-flatten", "self.grid.flatten().size() < 3 && self.grid.flatten(2).size() < 9"),
    ("sort-by", 'self.objs.sortBy(o, o.name)[0].name == "x"'),
    ("sort-by-ints", "self.l.sortBy(x, -x)[0] > 1"),
    ("transform-map", 'self.m.transformMap(k, v, v + "x").size() > 0'),
    ("transform-map-filter", "self.l.transformMap(i, v, i > 2, v * 2).size() < 3"),
    ("transform-map-entry", "self.strs.transformMapEntry(i, v, {v: i}).size() > 0"),
    ("map-literal", '{"a": 1, "b": 2}[self.s] == 1'),
]  # fmt: skip


@dataclass
class PerRule:
    """One rule at a node the test places so that markergen's estimate is at a limit."""

    id: str
    rule: str
    prop: str  # the property of `spec` that holds it
    fits: bool  # markergen's verdict
    total: int  # markergen's estimate of rule x count
    index: int = 0  # its place in the node's x-kubernetes-validations


@dataclass
class PerRuleCRD:
    spec: dict[str, Any] = field(default_factory=lambda: obj())
    cases: list[PerRule] = field(default_factory=list)
    cannot: list[str] = field(default_factory=list)  # cases markergen cannot estimate

    def root(self) -> dict[str, Any]:
        return obj(spec=self.spec)


def _rule(text: str) -> dict[str, Any]:
    return {"rule": text}


def _bounded(doc: PerRuleCRD) -> None:
    """Each rule on the items of a list of NODE objects whose maxItems sets its count:
    N = limit // per-call cost fits, N + 1 does not."""
    for case_id, rule in RULES:
        probe = {"type": "array", "maxItems": 1, "items": {**NODE, "x-kubernetes-validations": [_rule(rule)]}}  # fmt: skip
        below = (*SPEC, "probe", "items")
        est = estimate(rule, obj(spec=obj(probe=probe)), below)
        if est.fallback:
            doc.cannot.append(f"{case_id}: {est.fallback}")
            continue
        per_call = est.per_call
        assert per_call > 0, case_id
        fit = RULE_LIMIT // per_call
        for fits, bound in ((True, fit), (False, fit + 1)):
            prop = f"{'f' if fits else 'o'}-{case_id}"
            items = {**NODE, "x-kubernetes-validations": [_rule(rule)]}
            doc.spec["properties"][prop] = {"type": "array", "maxItems": bound, "items": items}
            mine = estimate(rule, doc.root(), (*SPEC, prop, "items"))
            assert mine.total == per_call * bound and (mine.total <= RULE_LIMIT) == fits
            doc.cases.append(PerRule(case_id, rule, prop, fits, mine.total))


# --- per-rule cases whose count comes from the node's smallest size --------------------

# Nodes below an unbounded list or map: the count is 3 MiB / (smallest size + 1).
UNBOUNDED: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("plain", {"type": "array", "items": obj(p={"type": "integer"})}, ("items",)),
    (
        "required-string",
        {"type": "array", "items": obj(("type",), type={"type": "string"}, p={"type": "integer"})},
        ("items",),
    ),
    (
        "required-kinds",
        {
            "type": "array",
            "items": obj(
                ("name", "n", "on", "inner", "when", "day", "d", "tags", "m", "q"),
                name={"type": "string", "minLength": 3},
                n={"type": "integer"},
                on={"type": "boolean"},
                inner=obj(("x",), x={"type": "number"}),
                when={"type": "string", "format": "date-time"},
                day={"type": "string", "format": "date"},
                d={"type": "string", "format": "duration"},
                tags={"type": "array", "items": {"type": "string"}},
                m={"type": "object", "additionalProperties": {"type": "string"}},
                q={"x-kubernetes-int-or-string": True},
                p={"type": "integer"},
            ),
        },
        ("items",),
    ),
    (
        "required-with-default",
        {
            "type": "array",
            "items": obj(
                ("kind", "size"),
                kind={"type": "string", "default": "A"},
                size={"type": "integer"},
                p={"type": "integer"},
            ),
        },
        ("items",),
    ),
    (
        "required-enum",
        {
            "type": "array",
            "items": obj(("mode",), mode={"type": "string", "enum": ["Alpha", "Beta"]}, p={"type": "integer"}),
        },
        ("items",),
    ),
    (
        "map-values",
        {"type": "object", "additionalProperties": obj(("k",), k={"type": "string"}, p={"type": "integer"})},
        ("additionalProperties",),
    ),
    (
        "bounded-in-unbounded",
        {"type": "array", "items": {"type": "array", "maxItems": 3, "items": obj(p={"type": "integer"})}},
        ("items", "items"),
    ),
    (
        "unbounded-in-bounded",
        {"type": "array", "maxItems": 3, "items": {"type": "array", "items": obj(p={"type": "integer"})}},
        ("items", "items"),
    ),
    (
        "object-in-list",
        {"type": "array", "items": obj(("inner",), inner=obj(("z",), z={"type": "integer"}, p={"type": "integer"}))},
        ("items", "properties", "inner"),
    ),
    (
        "embedded",
        {
            "type": "array",
            "items": {
                "type": "object",
                "x-kubernetes-embedded-resource": True,
                "x-kubernetes-preserve-unknown-fields": True,
                "properties": {"p": {"type": "integer"}},
            },
        },
        ("items",),
    ),
    ("strings", {"type": "array", "items": {"type": "string"}}, ("items",)),
    ("ints", {"type": "array", "items": {"type": "integer"}}, ("items",)),
]  # fmt: skip


def _chain(n: int, primitive: bool) -> str:
    """A rule whose per-call cost is `n` (1 per term)."""
    term = "!false" if primitive else "has(self.p)"
    return " && ".join([term] * n)


def _set_at(node: dict[str, Any], path: tuple[str, ...], rules: list[dict[str, Any]]) -> None:
    target = node
    steps = list(path)
    while steps:
        step = steps.pop(0)
        target = target["properties"][steps.pop(0)] if step == "properties" else target[step]
    target["x-kubernetes-validations"] = rules


def _unbounded(doc: PerRuleCRD) -> None:
    """Two rules at each node: the dearest per-call cost whose total fits, and one more."""
    for case_id, schema, inner in UNBOUNDED:
        prop = f"u-{case_id}"
        doc.spec["properties"][prop] = schema = copy.deepcopy(schema)
        below = (*SPEC, prop, *inner)
        primitive = case_id in ("strings", "ints")
        count = estimate(_chain(1, primitive), doc.root(), below).cardinality
        n = RULE_LIMIT // count
        rules = [_chain(n, primitive), _chain(n + 1, primitive)]
        _set_at(schema, inner, [_rule(r) for r in rules])
        for i, rule in enumerate(rules):
            mine = estimate(rule, doc.root(), below)
            assert mine.per_call == n + i and mine.cardinality == count
            doc.cases.append(PerRule(case_id, rule, prop, i == 0, mine.total, i))


# A bound of the schema moves the estimate across the per-rule limit: (id, the node's
# schema for a bound b, its rule, what holds the node (maxItems of a list, or
# maxProperties of a map for a transition rule, which a list's items cannot hold)).
BOUNDS: list[tuple[str, Any, str, str]] = [
    ("maxLength-matches", lambda b: obj(s={"type": "string", "maxLength": b}),
     'self.s.matches("^[a-z]+$")', "list"),
    ("maxLength-contains", lambda b: obj(s={"type": "string", "maxLength": b}),
     'self.s.contains("abc")', "list"),
    ("maxLength-split", lambda b: obj(s={"type": "string", "maxLength": b}),
     'self.s.split(",").size() < 2', "list"),
    ("maxItems-nested", lambda b: obj(grid={"type": "array", "maxItems": 8, "items": {
        "type": "array", "maxItems": b, "items": {"type": "integer"}}}),
     "self.grid.all(r, r.all(x, x > 0))", "list"),
    ("maxItems-strings", lambda b: obj(s=STR10, strs={"type": "array", "maxItems": b, "items": STR64}),
     "self.strs.exists(x, x == self.s)", "list"),
    ("maxProperties", lambda b: obj(m={"type": "object", "maxProperties": b, "additionalProperties": STR10}),
     "self.m.all(k, self.m[k].size() < 5)", "list"),
    ("transition", lambda b: {"type": "string", "maxLength": b},
     "self == oldSelf", "map"),
    ("optional-old-self", lambda b: {"type": "string", "maxLength": b},
     "!oldSelf.hasValue() || self == oldSelf.value()", "map"),
]  # fmt: skip
HOLDERS = 1000  # how many nodes the list or map above each holds


def _holder(kind: str, node: dict[str, Any]) -> dict[str, Any]:
    if kind == "map":
        return {"type": "object", "maxProperties": HOLDERS, "additionalProperties": node}
    return {"type": "array", "maxItems": HOLDERS, "items": node}


def _bound_total(doc: PerRuleCRD, case: tuple[str, Any, str, str], bound: int, prop: str) -> int:
    """markergen's estimate of the case's rule with `bound`, placed at spec.`prop`."""
    _id, schema, rule, kind = case
    optional = "hasValue" in rule
    entry: dict[str, Any] = {"rule": rule, **({"optionalOldSelf": True} if optional else {})}
    node = {**schema(bound), "x-kubernetes-validations": [entry]}
    doc.spec["properties"][prop] = _holder(kind, node)
    inner = "additionalProperties" if kind == "map" else "items"
    return estimate(rule, doc.root(), (*SPEC, prop, inner), optional).total


def _bounds(doc: PerRuleCRD) -> None:
    """The largest bound whose estimate fits, and the bound one more."""
    for case in BOUNDS:
        lo, hi = 0, 1
        while _bound_total(doc, case, hi, "probe") <= RULE_LIMIT:
            lo, hi = hi, hi * 2
            assert hi < 2**31, f"{case[0]}: the bound does not move the estimate"
        while hi - lo > 1:  # lo fits, hi does not
            mid = (lo + hi) // 2
            fits = _bound_total(doc, case, mid, "probe") <= RULE_LIMIT
            lo, hi = (mid, hi) if fits else (lo, mid)
        del doc.spec["properties"]["probe"]
        for fits, bound in ((True, lo), (False, lo + 1)):
            prop = f"{'f' if fits else 'o'}-{case[0]}"
            mine = _bound_total(doc, case, bound, prop)
            assert (mine <= RULE_LIMIT) == fits
            doc.cases.append(PerRule(f"{case[0]} {bound}", case[2], prop, fits, mine))


_RULE_FIELD = re.compile(
    # a CRD whose versions share one schema is validated as `spec.validation`
    r"^spec\.(?:versions\[0\]\.schema|validation)\.openAPIV3Schema\.properties\[spec\]\.properties\[([^\]]+)\]"
    r".*x-kubernetes-validations\[(\d+)\]\.rule$"
)


@pytest.fixture(scope="module")
def per_rule(kube: kubeserver.Server) -> tuple[PerRuleCRD, list[Refusal]]:
    doc = PerRuleCRD()
    _bounded(doc)
    _unbounded(doc)
    _bounds(doc)
    return doc, refusals(kube, crd({"v1": doc.root()}))


def test_markergen_estimates_every_rule_of_the_table(
    per_rule: tuple[PerRuleCRD, list[Refusal]],
) -> None:
    doc, _ = per_rule
    assert doc.cannot == []


def test_server_refuses_exactly_the_rules_markergen_says_are_over_the_rule_limit(
    per_rule: tuple[PerRuleCRD, list[Refusal]],
) -> None:
    doc, causes = per_rule
    over: dict[tuple[str, int], str] = {}
    other: list[str] = []
    for c in causes:
        m = _RULE_FIELD.match(c.field)
        if m and "estimated rule cost " + BUDGET in c.message:
            over[(m.group(1), int(m.group(2)))] = c.message.split(BUDGET, 1)[1].split(" ", 1)[0]
        elif "rule cost total" not in c.message:  # the per-CRD sum: tested below
            other.append(f"{c.field}: {c.message}")
    assert other == [], "the server refused for other reasons than cost:\n" + "\n".join(other)
    disagree = []
    for case in doc.cases:
        server = over.pop((case.prop, case.index), None)
        mine = None if case.fits else factor(case.total, RULE_LIMIT)
        if server != mine:
            disagree.append(
                f"{case.id} at {case.prop}[{case.index}] `{case.rule}`: markergen "
                f"{case.total:,} ({'fits' if case.fits else mine}), server {server or 'fits'}"
            )
    assert disagree == [], "\n".join(disagree)
    assert over == {}
    assert sum(not c.fits for c in doc.cases) == len(
        {(c.prop, c.index) for c in doc.cases if not c.fits}
    )


def test_rules_markergen_cannot_estimate_here_are_refused_by_the_server(
    kube: kubeserver.Server,
) -> None:
    # markergen cannot estimate these because they do not compile in a CRD: the server
    # refuses them for the same reason (a rule markergen estimated compiles: above)
    node = copy.deepcopy(NODE)
    cases = {
        "cel.bind(n, self.l.size(), n > 1 && n < 5)": "undeclared reference to 'cel'",
        "has(self.any.x)": "undefined field 'x'",
        # ext.Strings version 2 in the CRD environment: no reverse() of a string
        'self.s.reverse() == "x"': "undeclared function string.reverse()",
    }
    node["x-kubernetes-validations"] = [_rule(r) for r in cases]
    root = obj(spec=obj(n=node))
    for rule, reason in cases.items():
        est = estimate(rule, root, (*SPEC, "n"))
        assert reason in est.fallback, (rule, est)
    causes = refusals(kube, crd({"v1": root}))
    compiled = {c.field: c.message for c in causes if "compilation failed" in c.message}
    for i, reason in enumerate(cases.values()):
        field = f"properties[n].x-kubernetes-validations[{i}].rule"
        (message,) = [m for f, m in compiled.items() if f.endswith(field)]
        assert "reverse" in reason or reason in message, message


# --- the server's verdicts on whole CRD versions ----------------------------------------


def _path(version: int, below: tuple[str | int, ...]) -> str:
    out = f"spec.versions[{version}].schema.openAPIV3Schema"
    steps = list(below)
    while steps:
        step = steps.pop(0)
        out += f".properties[{steps.pop(0)}]" if step == "properties" else f".{step}"
    return out


def expected_refusals(versions: list[dict[str, Any]]) -> dict[str, str]:
    """What markergen's estimate says the server refuses, by the field the server names:
    each rule (and messageExpression) over the per-rule limit, and each version whose
    rules total over the per-CRD limit, with the factor of the message."""
    out: dict[str, str] = {}
    for i, root in enumerate(versions):
        seen: dict[tuple[str | int, ...], int] = {}
        for below, r in hand_rules(root):
            index = seen.get(below, 0)
            seen[below] = index + 1
            for key in ("rule", "messageExpression"):
                text = r.get(key)
                if not text:
                    continue
                est = estimate(text, root, below, r.get("optionalOldSelf") is True)
                assert not est.fallback, (text, est.fallback)
                cost = est.total if key == "rule" else est.per_call
                if cost > RULE_LIMIT:
                    field = f"{_path(i, below)}.x-kubernetes-validations[{index}].{key}"
                    out[field] = factor(cost, RULE_LIMIT)
        total, unknown = hand_cost(root, lambda r: False)
        assert unknown == []
        if total > CRD_LIMIT:
            out[_path(i, ())] = factor(total, CRD_LIMIT)
    return out


def server_refusals(causes: list[Refusal]) -> tuple[dict[str, str], list[str]]:
    """The server's cost refusals by field with their factor, and its other causes."""
    found: dict[str, str] = {}
    other: list[str] = []
    for c in causes:
        if BUDGET in c.message:
            found[c.field] = c.message.split(BUDGET, 1)[1].split(" ", 1)[0]
        elif "contributed to estimated rule cost total" not in c.message:
            other.append(f"{c.field}: {c.message}")
    return found, other


def judge(kube: kubeserver.Server, versions: list[dict[str, Any]]) -> dict[str, str]:
    """Install one CRD with `versions` (root schemas, which must differ) and return the
    cost refusals; every one must be what markergen's estimate says."""
    assert len({repr(v) for v in versions}) == len(versions)
    causes = refusals(kube, crd({f"v{i + 1}": v for i, v in enumerate(versions)}))
    found, other = server_refusals(causes)
    assert other == [], "refused for other reasons than cost:\n" + "\n".join(other)
    assert found == expected_refusals(versions)
    return found


def _filled(probe: dict[str, Any], target: int) -> dict[str, Any]:
    """A root whose rules total exactly `target` by markergen's estimate: `probe`'s
    properties of spec, and lists whose items hold a rule of cost 1 to make up the rest."""
    root = obj(spec=obj(**copy.deepcopy(probe)))
    rest = target - hand_cost(root, lambda r: False)[0]
    assert rest >= 0
    item = {**obj(p={"type": "integer"}), "x-kubernetes-validations": [_rule("has(self.p)")]}
    i = 0
    while rest > 0:
        n = min(rest, RULE_LIMIT)
        root["properties"]["spec"]["properties"][f"fill{i}"] = {
            "type": "array",
            "maxItems": n,
            "items": copy.deepcopy(item),
        }
        rest -= n
        i += 1
    assert hand_cost(root, lambda r: False)[0] == target
    return root


ROUTE = obj(
    type={"type": "string"},
    direct=obj(),
    mirror=obj(),
    split=obj(),
)
COMPACT = [
    _rule(f'(has(self.type) && self.type == "{v}") ? has(self.{m}) : !has(self.{m})')
    for v, m in (("Direct", "direct"), ("Mirror", "mirror"), ("Split", "split"))
]

# Cases for the per-CRD limit: each is written twice, totalling the limit and one more.
TOTALS: dict[str, dict[str, Any]] = {
    "rules-only": {},
    # a messageExpression counts once per rule (its per-call cost), not per node
    "message-expression": {
        "named": {
            "type": "array",
            "maxItems": 1000,
            "items": {
                **obj(name=STR64),
                "x-kubernetes-validations": [
                    {"rule": "has(self.name)", "messageExpression": '"bad name " + self.name'}
                ],
            },
        }
    },
    # union rules in an unbounded list: counted per node of the smallest size
    "unbounded-union": {
        "routes": {"type": "array", "items": {**ROUTE, "x-kubernetes-validations": COMPACT}},
        "byName": {
            "type": "object",
            "additionalProperties": {**ROUTE, "x-kubernetes-validations": COMPACT[:1]},
        },
    },
    # a rule at an embedded resource sees its apiVersion, kind and metadata
    "embedded": {
        "template": {
            "type": "array",
            "maxItems": 100,
            "items": {
                "type": "object",
                "x-kubernetes-embedded-resource": True,
                "x-kubernetes-preserve-unknown-fields": True,
                "x-kubernetes-validations": [_rule('self.metadata.name.startsWith("a")')],
            },
        }
    },
}


def test_server_refuses_exactly_the_versions_markergen_totals_over_the_crd_limit(
    kube: kubeserver.Server,
) -> None:
    versions = [_filled(probe, CRD_LIMIT + over) for probe in TOTALS.values() for over in (0, 1)]
    found = judge(kube, versions)
    # every version over the limit by one, none at it
    assert sorted(found) == [_path(i, ()) for i in range(1, len(versions), 2)]
    assert set(found.values()) == {"1.000000x"}


# --- markergen's own decisions on testdata/crd/cost ----------------------------------

COST_FIXTURE = TESTDATA / "crd" / "cost"
CRD_FILE = Path("config") / "crd" / "bases" / "routing.example.com_routers.yaml"
BOUND = "                description: routes has no maxItems.\n"
ITEM_END = "                      type: string\n                  type: object\n"
# Hand-written rules of 8 per call (8,388,608 in an unbounded list: under the per-rule
# limit), three at each of the two nodes: 50,331,648, too much for the union's compact
# rules (62,914,560) beside them.
HAND = [
    f'!has(self.type) || self.type == "{a}" || self.type == "{b}"'
    for a, b in (("Direct", "Mirror"), ("Split", "Redirect"), ("Fault", "Mirror"))
]
LONG = "Direct" + "x" * 54  # a discriminator value long enough to price one pair over


def _markergen_crd(tmp: Path, name: str, *edits: tuple[str, str, str]) -> tuple[Any, str]:
    """`markergen crd` on a copy of the cost fixture with `edits` (file, old, new):
    the written CRD's first version schema and the run's stderr."""
    project = tmp / name
    shutil.copytree(COST_FIXTURE, project)
    for file, old, new in edits:
        path = project / file
        text = path.read_text(encoding="utf-8")
        assert old in text, (file, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    res = run_cli(["crd", str(CRD_FILE.parent)], project)
    assert res.code == 0, res.stderr
    doc = yaml.safe_load((project / CRD_FILE).read_text(encoding="utf-8"))
    return doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"], res.stderr


def _routes(root: Any, part: str) -> dict[str, Any]:
    items: dict[str, Any] = root["properties"][part]["properties"]["routes"]["items"]
    return items


def _with_rules(root: Any, rules: dict[str, list[dict[str, Any]]]) -> Any:
    """`root` with `rules` added at the routes items of spec and status."""
    out = copy.deepcopy(root)
    for part in ("spec", "status"):
        items = _routes(out, part)
        items["x-kubernetes-validations"] = [
            *items.get("x-kubernetes-validations", []),
            *copy.deepcopy(rules[part]),
        ]
    return out


def test_rules_markergen_withholds_for_cost_are_the_ones_the_server_refuses(
    kube: kubeserver.Server, tmp_path: Path
) -> None:
    go = "api/v1/router_types.go"
    bounded = (str(CRD_FILE), BOUND, BOUND + "                maxItems: 64\n")
    status_bound = (
        str(CRD_FILE),
        "            properties:\n              routes:\n                items:",
        "            properties:\n              routes:\n                maxItems: 64\n                items:",
    )
    hand = (
        str(CRD_FILE),
        ITEM_END,
        ITEM_END
        + "                  x-kubernetes-validations:\n"
        + "".join(f"                  - rule: '{h}'\n" for h in HAND),
    )
    long_value = (go, 'RouteDirect   RouteType = "Direct"', f'RouteDirect   RouteType = "{LONG}"')
    long_member = (
        go,
        "\t// +unionMember\n\t// +optional\n\tDirect",
        f"\t// +unionMember={LONG}\n\t// +optional\n\tDirect",
    )
    # 1. unbounded lists: the pairs would total 125,829,120, so markergen writes the
    #    compact rules (62,914,560); the pairs are the ones it writes for bounded lists
    compact, err = _markergen_crd(tmp_path, "compact")
    assert "MG512" not in err
    pairs_root, _ = _markergen_crd(tmp_path, "pairs", bounded, status_bound)
    pairs = {p: _routes(pairs_root, p)["x-kubernetes-validations"] for p in ("spec", "status")}
    assert len(pairs["spec"]) == 10
    bare = copy.deepcopy(compact)
    for part in ("spec", "status"):
        _routes(bare, part).pop("x-kubernetes-validations")
    written = {p: _routes(compact, p)["x-kubernetes-validations"] for p in ("spec", "status")}
    # 2. a hand rule at both nodes leaves no room even for the compact rules (MG512)
    withheld, err = _markergen_crd(tmp_path, "withheld", hand)
    assert "MG512" in err and "per schema; no union rule is written" in err
    # 3. a discriminator value so long that one member's pair is over the per-rule limit
    long_root, err = _markergen_crd(tmp_path, "long", long_value, long_member)
    assert err.count("over the API server's per-rule limit") == 4, err  # a pair, twice
    long_pairs_root, _ = _markergen_crd(
        tmp_path, "long-pairs", long_value, long_member, bounded, status_bound
    )
    long_pairs = {
        p: [r for r in _routes(long_pairs_root, p)["x-kubernetes-validations"] if LONG in r["rule"]]
        for p in ("spec", "status")
    }
    assert [len(v) for v in long_pairs.values()] == [2, 2]
    # 4. hand rules in two-variable comprehensions over the unbounded list (at spec):
    #    markergen used not to count them and wrote the compact rules, which the server
    #    refused (121,634,816 in all); now counted, they leave no room (MG512)
    routes_at_spec = "            properties:\n              routes:\n                description:"
    two_var = (
        str(CRD_FILE),
        routes_at_spec,
        "            x-kubernetes-validations:\n"
        + "".join(
            f"            - rule: self.routes.all(i, r, i < {k} || !has(r.type))\n"
            for k in range(8)
        )
        + routes_at_spec,
    )
    counted, err = _markergen_crd(tmp_path, "two-var", two_var)
    assert "MG512" in err and "could not be estimated" not in err, err
    versions = [
        compact,  # written: fits
        _with_rules(bare, pairs),  # the pairs markergen did not write: over the CRD limit
        withheld,  # written without union rules: fits
        _with_rules(withheld, written),  # the compact rules it withheld: over
        long_root,  # written without the dear pair: fits
        _with_rules(long_root, long_pairs),  # with it: each of the four rules over
        counted,  # written without union rules: fits
        _with_rules(counted, written),  # the compact rules it withheld: over
    ]
    found = judge(kube, versions)
    assert found[_path(1, ())] == "1.258291x"  # 125,829,120
    assert found[_path(3, ())] == "1.132462x"  # 50,331,648 + 62,914,560
    per_rule = {f: v for f, v in found.items() if f.startswith("spec.versions[5].") and "rule" in f}
    assert sorted(per_rule.values()) == ["1.153434x"] * 4  # 11 x 1,048,576
    assert found[_path(7, ())] == "1.216348x"  # 58,720,256 + 62,914,560
    assert not any(f.startswith(tuple(f"spec.versions[{i}]" for i in (0, 2, 4, 6))) for f in found)
