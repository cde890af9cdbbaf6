"""The object space of a union and the search over it.

A union's objects, as the API server validates them, differ only in the discriminator's
value (each value the schema allows, `""`, left out) and in which members are set (every
subset of them, up to all). That space grows as 2^members, but a rule reads only the
fields it names. Two devices keep every question exact without listing the space:

- the tests (rules, and the schema's per-field checks) are grouped by the fields they
  read (connected components): groups over disjoint fields are searched independently,
  and a group whose product is large is split on its most-read field (the discriminator):
  for each of that field's states, what remains falls apart into one group per member;
- within a group, fields are assigned one by one and each test is evaluated as soon as
  every field it reads is assigned, which prunes whole subtrees.

`first` answers "the first object, in the order of the fields' states, on which every
test holds": the same object a walk over `itertools.product` of the states would meet
first. `find` answers the same question for CEL checks, under a budget of evaluations
(`OverBudget`: the caller takes the safe side).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markergen.accept.celeval import CelEvaluator
from markergen.accept.reads import mentions


class _Absent:
    """A field left out of the object (a state distinct from every JSON value)."""

    def __repr__(self) -> str:
        return "ABSENT"


# The one "left out" of markergen: a state of a field, never a JSON value.
ABSENT: Any = _Absent()

# The JSON a set field holds where only its presence matters, by its schema type: of the
# right type, so that a rule comparing it (`self.name != ""`) reads a value it can compare,
# and not the Go zero value, which validation-gen counts as unset.
SET_BY_TYPE: Mapping[str, Any] = {"string": "x", "integer": 1, "number": 1.5, "boolean": True}
# The Go zero value JSON can still carry, by schema type (validation-gen counts it unset).
ZERO_BY_TYPE: Mapping[str, Any] = {"string": "", "integer": 0, "number": 0.0, "boolean": False}


def set_value(schema_type: str) -> Any:
    """A member's value in the union's space: a scalar of its type, a list of one empty
    object, else an empty object (the union's rules read presence, not what is inside)."""
    if schema_type == "array":
        return [{}]
    return SET_BY_TYPE.get(schema_type, {})


@dataclass(frozen=True)
class Condition:
    """A predicate over an assignment of some fields (by index), and which it reads."""

    reads: frozenset[int]
    holds: Callable[[Mapping[int, Any]], bool]


# Above this many assignments a group is split on its most-read field.
_SPLIT = 256


def first(states: Sequence[Sequence[Any]], tests: Sequence[Condition]) -> tuple[int, ...] | None:
    """The first assignment (each field's state index; fields in order, the last varying
    fastest) on which every test holds, or None. Fields no test reads take their first
    state."""
    return _first(states, tests, {})


def _components(
    free: Sequence[int], tests: Sequence[Condition]
) -> list[tuple[list[int], list[Condition]]]:
    parent = {f: f for f in free}

    def root(f: int) -> int:
        while parent[f] != f:
            parent[f] = parent[parent[f]]
            f = parent[f]
        return f

    # a test's fixed fields (not in `free`) hold one state: they join nothing
    free_reads = [sorted(f for f in t.reads if f in parent) for t in tests]
    for fs in free_reads:
        for f in fs[1:]:
            parent[root(f)] = root(fs[0])
    fields: dict[int, list[int]] = {}
    for f in free:
        fields.setdefault(root(f), []).append(f)
    grouped: dict[int, list[Condition]] = {}
    for t, fs in zip(tests, free_reads, strict=True):
        grouped.setdefault(root(fs[0]), []).append(t)
    return [(fs, grouped.get(r, [])) for r, fs in fields.items()]


def _first(
    states: Sequence[Sequence[Any]], tests: Sequence[Condition], fixed: Mapping[int, int]
) -> tuple[int, ...] | None:
    assigned = {i: states[i][s] for i, s in fixed.items()}
    open_tests: list[Condition] = []
    for t in tests:
        if t.reads <= fixed.keys():
            if not t.holds(assigned):
                return None
        else:
            open_tests.append(t)
    free = [i for i in range(len(states)) if i not in fixed]
    out = dict(fixed)
    for fields, group in _components(free, open_tests):
        if not group:
            out.update((f, 0) for f in fields)
            continue
        found = _group(states, fields, group, fixed)
        if found is None:
            return None
        out.update(found)
    return tuple(out[i] for i in range(len(states)))


def _group(
    states: Sequence[Sequence[Any]],
    fields: list[int],
    tests: list[Condition],
    fixed: Mapping[int, int],
) -> dict[int, int] | None:
    size = 1
    for f in fields:
        size *= len(states[f])
    if size > _SPLIT and len(fields) > 1:
        # split on the field most tests read: the discriminator of a union whose rules
        # each tie one member to it
        counts = {f: sum(f in t.reads for t in tests) for f in fields}
        hub = max(fields, key=lambda f: (counts[f], -f))
        best: tuple[int, ...] | None = None
        for s in range(len(states[hub])):
            found = _first(states, tests, {**fixed, hub: s})
            if found is not None:
                key = tuple(found[f] for f in fields)
                if best is None or key < best:
                    best = key
        return None if best is None else dict(zip(fields, best, strict=True))
    return _walk(states, fields, tests, fixed)


def _walk(
    states: Sequence[Sequence[Any]],
    fields: list[int],
    tests: list[Condition],
    fixed: Mapping[int, int],
) -> dict[int, int] | None:
    position = {f: k for k, f in enumerate(fields)}
    at: list[list[Condition]] = [[] for _ in fields]
    for t in tests:
        at[max(position[f] for f in t.reads if f in position)].append(t)
    assigned: dict[int, Any] = {i: states[i][s] for i, s in fixed.items()}
    chosen: dict[int, int] = {}

    def walk(k: int) -> bool:
        if k == len(fields):
            return True
        f = fields[k]
        for s, value in enumerate(states[f]):
            assigned[f] = value
            chosen[f] = s
            if all(t.holds(assigned) for t in at[k]) and walk(k + 1):
                return True
        del assigned[f]
        del chosen[f]
        return False

    return dict(chosen) if walk(0) else None


@dataclass(frozen=True)
class Field:
    """One field of the union's node: its CEL name and the states it takes (ABSENT: left
    out), after the schema's `required`, `enum` and `default` are applied."""

    name: str
    states: tuple[Any, ...]


@dataclass(frozen=True)
class Check:
    """A rule and the verdict the searched object must get: `passes` True means "not
    rejected" (a definite false prunes; an error does not), False means "definitely
    rejected" (false without an error)."""

    rule: str
    passes: bool


class OverBudget(Exception):
    """The search needed more evaluations than its budget."""


BUDGET = 20_000


def find(
    fields: Sequence[Field],
    checks: Sequence[Check],
    evaluator: CelEvaluator,
    budget: int = BUDGET,
) -> dict[str, Any] | None:
    """An object (CEL names) made of the fields' states on which every check holds, or
    None when there is none; raises OverBudget. A check naming a field outside `fields`
    (or reading `self` whole) is evaluated once every field is assigned."""
    targets = [c for c in checks if not c.passes]
    first_read = {n for c in targets for n in (mentions(c.rule) or ())}
    # the fields the rules that must reject read come first: their check prunes early
    order = sorted(range(len(fields)), key=lambda i: (fields[i].name not in first_read, i))
    position = {fields[i].name: k for k, i in enumerate(order)}
    everything = frozenset(range(len(order)))
    spent = 0

    def test(check: Check) -> Condition:
        names = mentions(check.rule)
        if names is None or any(n not in position for n in names):
            reads = everything
        else:
            reads = frozenset(position[n] for n in names)

        def holds(assigned: Mapping[int, Any]) -> bool:
            nonlocal spent
            spent += 1
            if spent > budget:
                raise OverBudget
            obj = {fields[order[k]].name: v for k, v in sorted(assigned.items()) if v is not ABSENT}
            verdict = evaluator.verdict(check.rule, obj)
            return verdict is not False if check.passes else verdict is False

        return Condition(reads, holds)

    if not order:
        return {} if all(test(c).holds({}) for c in checks) else None
    found = first([fields[i].states for i in order], [test(c) for c in checks])
    if found is None:
        return None
    out: dict[str, Any] = {}
    for k, s in enumerate(found):
        state = fields[order[k]].states[s]
        if state is not ABSENT:
            out[fields[order[k]].name] = state
    return out
