"""The API server's static CEL cost estimate (markergen.celcost, docs/cel-cost.md).

Each expected figure is worked out by hand from the rules the docs quote (cel-go's
checker/cost.go as the API server configures it; sizes from the schema); the ones marked
"Kubernetes:" are also cases of apiextensions-apiserver's own tables, copied here (the
bench script replays the whole tables from a checkout)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTDATA, run_cli

from markergen.celcost.decl import schema_decl
from markergen.celcost.rulecost import (
    CannotEstimate,
    call_cost,
    cardinality,
    context_cardinality,
    rule_cost,
)
from markergen.crd.cel import FORBIDDEN, INVALID, REQUIRED, Rule, compact
from markergen.crd.cost import (
    STATIC_ESTIMATED_COST_LIMIT,
    STATIC_ESTIMATED_CRD_COST_LIMIT,
    estimate,
    upper_bound_call_cost,
)
from markergen.yamlio import load_documents

MIB3 = 3 * 1024 * 1024
FIXTURE = TESTDATA / "crd" / "cost"
CRD = Path("config") / "crd" / "bases" / "routing.example.com_routers.yaml"


def obj(required: tuple[str, ...] = (), **props: Any) -> dict[str, Any]:
    s: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        s["required"] = list(required)
    return s


STR10 = {"type": "string", "maxLength": 10}
NODE = obj(
    s={"type": "string", "maxLength": 5},
    t=STR10,
    u=STR10,
    open={"type": "string"},
    a={"type": "integer"},
    b={"type": "integer"},
    l={"type": "array", "maxItems": 10, "items": {"type": "integer"}},
)


def cost(rule: str, schema: dict[str, Any] = NODE) -> int:
    d = schema_decl(schema)
    assert d is not None
    return call_cost(rule, d)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        # an identifier or a field selection on an object costs 1, a literal 0
        ("self.a == self.b", 4),  # 2 + 2, equality of two ints (size 0) adds ceil(0) = 0
        ("has(self.a)", 1),  # presence test costs 0 on the server (PresenceTestHasCost(false))
        ("!has(self.a)", 2),  # the operator call adds 1
        # string equality: 0.1 x the smaller max size, rounded up
        ('self.s == "abc"', 3),  # 2 + ceil(0.1 x min(5*4, 3))
        ("self.t == self.u", 8),  # 2 + 2 + ceil(0.1 x 40): maxLength counts code points, x4
        ('self.open == "abc"', 3),  # unbounded string: min(3 MiB - 2, 3)
        # &&/|| add nothing beyond their operands; ?: takes the dearer branch
        ("has(self.a) && has(self.b)", 2),
        ("has(self.a) ? has(self.b) : !has(self.b)", 3),  # 1 + max(1, 2)
        ("(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) <= 1", 4),  # 1 + 1 + 1 (+) + 1 (<=)
        # regex: ceil(0.1 x (size + 1)) x ceil(0.25 x pattern length), plus the target
        ('self.s.matches("^a+$")', 5),  # 2 + ceil(2.1) x ceil(1.0)
        # comprehension: range + init + result + count x (loop condition + step)
        ("self.l.all(x, x > 0)", 53),  # 2 + 0 + 1 + 10 x (2 + 3)
        # a list literal costs 10 plus its elements; filter's step appends a new list
        ("[has(self.a), has(self.b)].filter(x, x).size() <= 1", 53),
    ],
)
def test_per_call_costs_worked_out_by_hand(rule: str, expected: int) -> None:
    assert cost(rule) == expected


def test_figures_of_kubernetes_own_tables() -> None:
    # Kubernetes: TestCostEstimation "number array with all": unbounded, then maxItems 10
    numbers: dict[str, Any] = {"type": "array", "items": {"type": "number"}}
    assert cost("self.all(x, true)", numbers) == 4718591  # 1 + 1 + (3 MiB - 2) / 2 x 3
    assert cost("self.all(x, true)", {**numbers, "maxItems": 10}) == 32
    # Kubernetes: TestCostEstimation "string with contains"
    assert cost("self.contains('test')", {"type": "string"}) == 314574
    # Kubernetes: TestCelEstimatedCostStability "unicode strings"
    assert cost("self.val1.indexOf('o') == 1", obj(val1={"type": "string"})) == 314576
    # Kubernetes: TestCostEstimation "enums with maxLength equals to the longest possible
    # value": the longest enum value bounds an otherwise unbounded string
    enum = {"type": "string", "enum": ["A", "B", "C", "LongValue"]}
    assert cost("self.contains('A')", enum) == 2


def test_schema_sizes_follow_the_api_server() -> None:
    s = schema_decl(STR10)
    assert s is not None and s.max_elements == 40
    unbounded = schema_decl({"type": "string"})
    assert unbounded is not None and unbounded.max_elements == MIB3 - 2
    item = obj(("name",), name={"type": "string"})
    d = schema_decl({"type": "array", "items": item})
    assert d is not None and d.elem is not None
    assert d.elem.min_size == 2 + len("name") + 2 + 4  # {} plus "name":"" and separators
    assert d.max_elements == (MIB3 - 2) // 13
    with_default = obj(("name",), name={"type": "string", "default": "x"})
    assert (schema_decl(with_default) or d).min_size == 2  # the server fills defaults in


def test_cardinality_multiplies_bounds_and_else_counts_the_node_in_a_request() -> None:
    root = obj(
        spec=obj(
            bounded={"type": "array", "maxItems": 16, "items": obj()},
            open={"type": "array", "items": obj(("kind",), kind={"type": "string"})},
            byName={
                "type": "object",
                "maxProperties": 4,
                "additionalProperties": {"type": "array", "maxItems": 8, "items": obj()},
            },
            empty={"type": "array", "items": obj()},
        )
    )
    spec = ("properties", "spec", "properties")
    assert cardinality(root, (*spec, "bounded", "items")) == 16
    assert cardinality(root, (*spec, "byName", "additionalProperties", "items")) == 32
    assert context_cardinality(root, (*spec, "open", "items")) is None
    # unbounded: 3 MiB / (the node's smallest serialized size + 1)
    assert cardinality(root, (*spec, "open", "items")) == MIB3 // (2 + 4 + 2 + 4 + 1)
    assert cardinality(root, (*spec, "empty", "items")) == MIB3 // 3 == 1_048_576
    assert cardinality(root, ("properties", "spec")) == 1


ROUTE = obj(
    type={"type": "string"},
    aws=obj(),
    gcp=obj(),
)
IN_LIST = obj(spec=obj(routes={"type": "array", "items": ROUTE}))
ITEMS = ("properties", "spec", "properties", "routes", "items")


def test_union_rules_cost_no_more_than_the_hand_written_rule_at_the_same_node() -> None:
    sel = '(has(self.type) && self.type == "AWS")'
    split = [f"has(self.aws) || !{sel}", f"{sel} || !has(self.aws)"]
    merged = f"{sel} ? has(self.aws) : !has(self.aws)"
    # the same meaning written by hand (unset type handled too), and the shape users
    # write when `type` is required (it fails on an unset type instead)
    hand = 'has(self.type) && self.type == "AWS" ? has(self.aws) : !has(self.aws)'
    hand_required = 'self.type == "AWS" ? has(self.aws) : !has(self.aws)'
    per_call = {r: rule_cost(r, IN_LIST, ITEMS).per_call for r in [*split, merged, hand]}
    assert [per_call[r] for r in split] == [6, 6]  # 1 + (1 + (1 + 3)); (1 + 3) + 2
    assert per_call[merged] == per_call[hand] == 6  # 4 + max(1, 2)
    assert rule_cost(hand_required, IN_LIST, ITEMS).per_call == 5
    # at most one of two: the counted form markergen writes against the filter form
    counted = "(has(self.aws) ? 1 : 0) + (has(self.gcp) ? 1 : 0) <= 1"
    filtered = "[has(self.aws), has(self.gcp)].filter(x, x).size() <= 1"
    assert rule_cost(counted, IN_LIST, ITEMS).per_call == 4
    assert rule_cost(filtered, IN_LIST, ITEMS).per_call == 53
    # in the unbounded list each rule runs on up to 1,048,576 routes
    assert rule_cost(merged, IN_LIST, ITEMS).total == 6 * 1_048_576 < STATIC_ESTIMATED_COST_LIMIT


def test_compact_merges_each_pair_only_when_both_are_there() -> None:
    m = Rule("s ? has(self.x) : !has(self.x)", "x (union U.t)", INVALID, ".x")
    r1 = Rule("has(self.x) || !s", "x must (union U.t)", REQUIRED, ".x", m)
    r2 = Rule("s || !has(self.x)", "x may only (union U.t)", FORBIDDEN, ".x", m)
    other = Rule("has(self.t)", "t (union U.t)", REQUIRED, ".t")
    assert compact([other, r1, r2]) == [other, m]
    assert compact([r2, other]) == [r2, other]  # the pair's partner was dropped: keep it


def test_a_rule_the_port_cannot_read_falls_back_to_the_upper_bound_with_the_reason() -> None:
    # message construction is not read (two-variable comprehensions and ext.Lists now are)
    rule = "google.protobuf.Int64Value{value: 1} == self.l[0]"
    with pytest.raises(CannotEstimate, match="not supported"):
        cost(rule)
    est = estimate(rule, IN_LIST, ())
    assert "not supported" in est.fallback
    assert est.per_call == upper_bound_call_cost(rule)
    assert estimate("self.nope == 1", IN_LIST, ()).fallback == "undefined field 'nope'"


def _fixture(tmp_path: Path) -> Path:
    project = tmp_path / "routing"
    shutil.copytree(FIXTURE, project)
    return project


def _route_rules(path: Path) -> tuple[list[str], list[str]]:
    (doc,) = load_documents(path.read_text(encoding="utf-8"))
    schema = doc.value["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]

    def rules(part: str) -> list[str]:
        items = schema[part]["properties"]["routes"]["items"]
        return [r["rule"] for r in items.get("x-kubernetes-validations", [])]

    return rules("spec"), rules("status")


def test_union_in_an_unbounded_list_is_written_in_the_form_the_server_accepts(
    tmp_path: Path,
) -> None:
    # Five members under spec and status: the Required/Forbidden pairs would total
    # 2 x 5 x 12 x 1,048,576 = 125,829,120 (over 100,000,000); one rule per member
    # totals 62,914,560, as the same rules written by hand would.
    project = _fixture(tmp_path)
    res = run_cli(["crd", str(CRD.parent)], project)
    assert res.code == 0, res.stderr
    assert "MG512" not in res.stderr
    spec, status = _route_rules(project / CRD)
    assert spec == status and len(spec) == 5
    assert (
        spec[0]
        == '(has(self.type) && self.type == "Direct") ? has(self.direct) : !has(self.direct)'
    )
    total = sum(
        rule_cost(
            r, _schema(project), (*("properties", part, "properties"), "routes", "items")
        ).total
        for part in ("spec", "status")
        for r in spec
    )
    assert total == 10 * 6 * 1_048_576 <= STATIC_ESTIMATED_CRD_COST_LIMIT
    assert run_cli(["crd", "--verify", str(CRD.parent)], project).code == 0  # stable


def _schema(project: Path) -> Any:
    (doc,) = load_documents((project / CRD).read_text(encoding="utf-8"))
    return doc.value["spec"]["versions"][0]["schema"]["openAPIV3Schema"]


def test_bounded_list_keeps_the_precise_pairs(tmp_path: Path) -> None:
    project = _fixture(tmp_path)
    crd = project / CRD
    crd.write_text(
        crd.read_text(encoding="utf-8").replace(
            "                description: routes has no maxItems.\n",
            "                description: routes has no maxItems.\n                maxItems: 64\n",
        ),
        encoding="utf-8",
    )
    assert run_cli(["crd", str(CRD.parent)], project).code == 0
    spec, status = _route_rules(crd)
    # spec: 64 x 60 = 3,840; status: 60 x 1,048,576 = 62,914,560; the pairs fit
    assert len(spec) == len(status) == 10
    assert spec[0].startswith("has(self.direct) || !")


def test_mg512_when_not_even_the_compact_form_fits(tmp_path: Path) -> None:
    # A hand-written rule at both nodes: 2 (!has) + 2 + 10 + 6 (in a list of 6) = 20 per
    # call, 2 x 20 x 1,048,576 = 41,943,040; with the compact union rules' 62,914,560
    # the schema is over 100,000,000, so no union rule is written.
    project = _fixture(tmp_path)
    crd = project / CRD
    hand = '!has(self.type) || self.type in ["Direct", "Mirror", "Split", "Redirect", "Fault", "X"]'
    assert rule_cost(hand, IN_LIST, ITEMS).per_call == 20
    item_end = "                      type: string\n                  type: object\n"
    text = crd.read_text(encoding="utf-8")
    assert text.count(item_end) == 2
    crd.write_text(
        text.replace(
            item_end,
            f"{item_end}                  x-kubernetes-validations:\n                  - rule: '{hand}'\n",
        ),
        encoding="utf-8",
    )
    res = run_cli(["crd", str(CRD.parent)], project)
    assert res.code == 0, res.stderr
    assert "MG512" in res.stderr and "41,943,040 for the rules already there" in res.stderr
    assert _route_rules(crd) == ([hand], [hand])


def test_shapes_of_real_hand_written_rules_are_estimated() -> None:
    # rules of this shape are served by API servers in public CRDs
    meta = obj(metadata=obj(name={"type": "string"}, namespace={"type": "string"}))
    templates = obj(templates={"type": "array", "maxItems": 4, "items": meta})
    # a reserved word reaches the escaped property (`__namespace__`), as the server's
    # type provider does; the size lookup does not, so the string counts as unsized
    assert cost("self.templates.all(t, !has(t.metadata.namespace))", templates) == 1 + 1 + 1 + 4 * (
        2 + (1 + 3)
    )
    # `format.dns1123Label()` is a global function of the format library
    assert cost("format.dns1123Label().validate(self.s) == optional.none()") > 0
    # optionalOldSelf: true makes oldSelf an optional; optional chaining selects through it
    d = schema_decl(NODE)
    assert d is not None
    # (1 + 1 + 1) + ((1 + 1 + 1) + 2 + 0): the ints compare at size 0
    assert call_cost("!oldSelf.hasValue() || oldSelf.value().a == self.a", d, True) == 8
    # (1 + 1 + 0) for `.?a`, + 1 for orValue, + 2 for self.a, + 0 (self.a has size 0)
    assert call_cost("oldSelf.?a.orValue(0) == self.a", d, True) == 5


def test_conversion_of_an_int_or_string_covers_every_overload() -> None:
    # string(self) of an int-or-string (maxLength 32: size 128) may be bytes_to_string,
    # which is sized: 1 + ceil(12.8); quantity() then costs ceil(0.1 x 128) = 13 more,
    # isLessThan 1 (+ quantity('16384'): ceil(0.5)), and ! 1: 14 + 13 + 1 + 1 + 1 = 30
    d = schema_decl({"x-kubernetes-int-or-string": True, "maxLength": 32})
    assert d is not None
    assert call_cost("!quantity(string(self)).isLessThan(quantity('16384'))", d) == 30


OBJS = obj(
    s=STR10,
    strs={"type": "array", "maxItems": 16, "items": {"type": "string", "maxLength": 64}},
    l={"type": "array", "maxItems": 10, "items": {"type": "integer"}},
    objs={
        "type": "array",
        "maxItems": 5,
        "items": obj(
            ("name",),
            name=STR10,
            tags={"type": "array", "maxItems": 16, "items": {"type": "string", "maxLength": 64}},
        ),
    },
)

OBJS_MAP = obj(m={"type": "object", "maxProperties": 12, "additionalProperties": STR10})


def test_sets_functions_cost_every_pair_as_cel_go_s_extension_estimates() -> None:
    # found by tests/test_apiserver_cost.py: the API server said 31, 33, 33 where the
    # port took a plain call (1): m x n (x 2 for equivalent) + 1, plus the operands
    assert cost("sets.contains(self.strs, [self.s])", OBJS) == 16 * 1 + 1 + 2 + (10 + 2)
    assert cost("sets.intersects(self.l, [1, 2])", OBJS) == 10 * 2 + 1 + 2 + 10
    assert cost("sets.equivalent(self.l, [1])", OBJS) == 2 * 10 * 1 + 1 + 2 + 10


def test_a_selection_through_an_outer_variable_rewrites_the_inner_range_s_path() -> None:
    # found by tests/test_apiserver_cost.py (the server: 2.4 x markergen's figure). A
    # comprehension costs its range + init + result (1) + count x (condition (2) + step
    # (1 + body)). The inner body `t != o.name` costs 1 + 2 + ceil(0.1 x min(256, 40)) = 7;
    # its range o.tags is sized after the body, when cel-go's shared path array reads
    # `o.name` (maxLength 10: size 40), not `o.tags` (16 items).
    def outer(inner_count: int) -> int:
        inner = 2 + 0 + 1 + inner_count * (2 + 1 + 7)
        return 2 + 0 + 1 + 5 * (2 + 1 + inner)

    assert cost("self.objs.all(o, o.tags.all(t, t != o.name))", OBJS) == outer(40) == 2033
    assert outer(16) == 833  # what the paths read as written would give
    # no selection through `o` in the inner body: the range keeps its own size
    assert cost("self.objs.all(o, o.tags.all(t, t == t))", OBJS) == 2513


def test_cel_bind_is_not_in_the_crd_environment() -> None:
    with pytest.raises(CannotEstimate, match=r"cel\.bind is not available"):
        cost("cel.bind(n, self.l.size(), n > 1 && n < 5)")


def test_two_variable_comprehensions_are_estimated_as_the_server_does() -> None:
    # figures the API server gave (tests/test_apiserver_cost.py): the index or key and
    # the item are local variables sized from the range (`@indices`/`@keys`, `@items`)
    # range 2 + result 1 + 10 x (condition 2 + step 1 + two comparisons of 2)
    assert cost("self.l.all(i, v, i < 3 || v > 0)", OBJS) == 2 + 1 + 10 * (2 + 1 + 4)
    assert cost("self.strs.existsOne(i, v, i == 1)", OBJS) == 68
    assert cost("self.l.transformList(i, v, i > 1, v).all(x, x > 0)", OBJS) == 214
    assert cost('self.m.transformMap(k, v, v + "x").size() > 0', OBJS_MAP) == 143
    assert cost("self.strs.transformMapEntry(i, v, {v: i}).size() > 0", OBJS) == 579
    # the shared-path sizing holds for them too
    assert cost("self.objs.all(i, o, o.tags.all(j, t, t != o.name))", OBJS) == 2033


def test_list_extension_functions_cost_as_cel_go_s_estimators() -> None:
    # figures the API server gave (tests/test_apiserver_cost.py): 1 + 10 for the new
    # list, plus its size x 1 (slice, reverse, range; flatten: x depth) or the size
    # squared x 2 (distinct, sort; + 0.1 for strings), plus the operands
    assert cost("self.l.slice(0, 2).size() < 3", OBJS) == 2 + (11 + 2) + 1 + 1
    assert cost("self.l.distinct().size() < 3", OBJS) == 2 + (200 + 11) + 1 + 1
    assert cost('self.strs.sort()[0] == "a"', OBJS) == 552
    assert cost("lists.range(3).size() == 3", OBJS) == (3 + 11) + 1 + 1
    # sortBy binds the list (its empty range: 10), maps it to its keys (1 + 10 + 1 +
    # 10 x 13) and sorts those (10^2 x 2 + 11)
    assert cost("self.l.sortBy(x, x).size() > 0", OBJS) == 2 + 10 + (1 + 142 + 211) + 1 + 1
    # a string has no reverse() in the API server's environment
    with pytest.raises(CannotEstimate, match=r"string\.reverse"):
        cost('self.s.reverse() == "x"', OBJS)
