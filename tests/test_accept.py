"""markergen/accept: the search over a union's space and the reads of a rule.

`first` must give the object a walk over `itertools.product` of the fields' states meets
first (the comparison of two CRD versions shows it as the witness), whatever the groups
of fields the tests read; it is held to that walk on generated spaces and tests.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from markergen.accept.celeval import CelEvaluator
from markergen.accept.judge import SAMPLE, Judge, choices
from markergen.accept.reads import mentions, presence_and_values, reads_values
from markergen.accept.space import ABSENT, Condition, first


def _brute(states: Sequence[Sequence[Any]], tests: Sequence[Condition]) -> tuple[int, ...] | None:
    for combo in itertools.product(*(range(len(s)) for s in states)):
        assigned = {i: states[i][k] for i, k in enumerate(combo)}
        if all(t.holds(assigned) for t in tests):
            return combo
    return None


def _random_test(rng: random.Random, n: int, sizes: Sequence[int]) -> Condition:
    reads = frozenset(rng.sample(range(n), rng.randint(1, min(3, n))))
    allowed = {
        tuple(sorted((i, rng.randrange(sizes[i])) for i in reads)) for _ in range(rng.randint(1, 6))
    }
    negate = rng.random() < 0.5

    def holds(a: Mapping[int, Any]) -> bool:
        key = tuple(sorted((i, a[i]) for i in reads))
        return (key in allowed) != negate

    return Condition(reads, holds)


@pytest.mark.parametrize("seed", range(300))
def test_first_is_the_first_object_of_the_product(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 7)
    sizes = [rng.randint(1, 4) for _ in range(n)]
    states = [list(range(k)) for k in sizes]  # a state is its own index
    tests = [_random_test(rng, n, sizes) for _ in range(rng.randint(0, 6))]
    assert first(states, tests) == _brute(states, tests)


def test_a_hub_of_ten_members_is_searched_member_by_member() -> None:
    """A discriminator of ten values each tying one member: 11 x 2^10 objects, searched
    as 11 x 10 pairs; each test is counted so that a walk of the product would show."""
    calls = 0
    values = [ABSENT, *range(10)]

    def tie(m: int) -> Condition:
        def holds(a: Mapping[int, Any]) -> bool:
            nonlocal calls
            calls += 1
            return (a[0] == m) == (a[m + 1] is not ABSENT)

        return Condition(frozenset({0, m + 1}), holds)

    states = [values] + [[ABSENT, "x"]] * 10
    last = Condition(frozenset({10}), lambda a: a[10] is not ABSENT)  # member 9 set
    found = first(states, [*(tie(m) for m in range(10)), last])
    assert found == (10, *([0] * 9), 1)
    assert calls < 2_000  # the product is 11,264 objects of 10 tests each


def test_judge_applies_defaults_enum_required_and_the_error_policy() -> None:
    @dataclass(frozen=True)
    class Node:
        properties: Mapping[str, Any]
        required: frozenset[str]

    node = Node(
        {
            "type": {"type": "string", "enum": ["A", "B"], "default": "A"},
            "a": {"type": "object"},
            "name": {"type": "string"},
        },
        frozenset({"name"}),
    )

    rule = "self.type == 'A' ? has(self.a) : !has(self.a)"
    judge = Judge(CelEvaluator())
    # type defaults to A, which then requires a
    assert not judge.accepts(node, [rule], (("a", ABSENT), ("name", "n"), ("type", ABSENT)))
    assert judge.accepts(node, [rule], (("a", SAMPLE), ("name", "n"), ("type", ABSENT)))
    assert not judge.accepts(node, [rule], (("a", SAMPLE), ("name", ABSENT), ("type", "A")))
    assert not judge.accepts(node, [rule], (("a", ABSENT), ("name", "n"), ("type", "C")))
    failing = "self.missing == 'x'"
    state = (("a", SAMPLE), ("name", "n"), ("type", "A"))
    assert not judge.accepts(node, [failing], state)
    assert Judge(CelEvaluator(), errors="accept").accepts(node, [failing], state)
    assert choices(["a", "type"], {"type": ["A", "B"]}) == [[ABSENT, SAMPLE], [ABSENT, "A", "B"]]


def test_reads_come_from_the_syntax_tree() -> None:
    # a literal that spells a field is no read; a rule over lines reads as one
    assert mentions("self.a == 'self.b'") == {"a"}
    assert mentions("has(self.a) &&\n  self.\n b == 'x'") == {"a", "b"}
    assert mentions("self.a == 'x' && [1].all(x, x > 0) && size(self) > 1") is None
    assert mentions("self.a ==") is None  # does not parse: may read anything
    assert reads_values("has(self.p.q.r)", {"p"}, objects={"p"}) is False
    refs = presence_and_values(
        "has(self.a) ? self.t in ['A', \"B\"] : self.t != 'C'", {"a": "a", "t": "t"}
    )
    assert refs is not None
    assert refs.presence == {"a"}
    assert dict(refs.values) == {"t": {"A", "B", "C"}}
    assert presence_and_values("self.t == 1 && has(self.a)", {"a": "a", "t": "t"}) is None
    assert presence_and_values("has(self.a) && has(self.z)", {"a": "a"}) is None
    assert presence_and_values("has(self.a) && oldSelf == self", {"a": "a", "b": "b"}) is None


def test_the_judges_tests_together_are_its_verdict() -> None:
    """The search asks the judge test by test; together they must give `accepts` on
    every object of the union, and each way to reject must reject."""

    @dataclass(frozen=True)
    class Node:
        properties: Mapping[str, Any]
        required: frozenset[str]

    node = Node(
        {
            "type": {"type": "string", "enum": ["A", "B", ""], "default": ""},
            "a": {"type": "object"},
            "b": {"type": "string", "default": "x"},
            "c": {"type": "integer"},
        },
        frozenset({"c"}),
    )
    rules = [
        "self.type == 'A' ? has(self.a) : !has(self.a)",
        "has(self.b) && self.b != '' ? self.type != '' : true",
        "(has(self.a) ? 1 : 0) + (has(self.c) ? 1 : 0) <= 1",
    ]
    fields = ["a", "b", "c", "type"]
    states = choices(fields, {"type": ["A", "B", "", "Z"], "b": ["", "x"]})
    judge = Judge(CelEvaluator())
    tests = judge.tests(node, rules, fields)
    negated = judge.tests(node, rules, fields, accept=False)
    verdicts = set()
    for combo in itertools.product(*states):
        state = tuple(zip(fields, combo, strict=True))
        assigned = dict(enumerate(combo))
        verdict = judge.accepts(node, rules, state)
        verdicts.add(verdict)
        assert all(t.holds(assigned) for t in tests) == verdict, state
        assert any(t.holds(assigned) for t in negated) == (not verdict), state
    assert verdicts == {True, False}
