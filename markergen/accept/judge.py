"""The API server's verdict on the objects of a union at one schema node.

An object of the union is a *state*: each of the union's fields left out (ABSENT), set to
a small value its schema accepts (SAMPLE), or holding one of the values the rules compare
it with. The server, on create: applies each left-out field's `default`, prunes fields the
schema does not declare, rejects a value outside the field's `enum` and a `required`
field left out, then runs the node's rules. What a rule that errors means is the judge's
`errors` policy: "reject" (the server rejects the request) or "accept" (markergen cannot
tell, and an object is not dropped for markergen's own shortcoming).

The verdict is a conjunction of tests that each read a few fields (one per field, one per
rule), so the questions "which object does one side accept and the other reject" are
answered with `markergen.accept.space.first`, group by group of the fields the tests
read, instead of over the product of every field's states.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from markergen.accept.celeval import CelError, CelEvaluator
from markergen.accept.reads import mentions
from markergen.accept.space import ABSENT, SET_BY_TYPE, Condition, first
from markergen.celcost.escape import escape_property


class _Sample:
    """A field set to a small value its schema accepts (`sample_value`)."""

    def __repr__(self) -> str:
        return "SAMPLE"


SAMPLE: Any = _Sample()


class _Empty:
    """A field set to an empty list or map: present (`has` is true), yet of size 0, which
    validation-gen's "len" members count as unset."""

    def __init__(self, value: list[Any] | dict[str, Any]) -> None:
        self._value = value

    def value(self) -> list[Any] | dict[str, Any]:
        return type(self._value)()

    def __repr__(self) -> str:
        return repr(self._value)


EMPTY_LIST: Any = _Empty([])
EMPTY_MAP: Any = _Empty({})

State = tuple[tuple[str, Any], ...]  # (field, ABSENT | SAMPLE | EMPTY_* | value), in order


class Schema(Protocol):
    """A schema node: its properties (JSON name → schema) and its required fields."""

    @property
    def properties(self) -> Mapping[str, Any]: ...

    @property
    def required(self) -> frozenset[str]: ...


def sample_value(schema: Any) -> Any:
    """A small value the schema accepts, that validation-gen would count as set (not its
    zero value): rules at the parent see only that the field is there."""
    if not isinstance(schema, dict):
        return SET_BY_TYPE["string"]
    if "default" in schema and schema["default"] not in (None, "", 0, False, [], {}):
        return schema["default"]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return next((v for v in enum if v not in ("", None)), enum[0])
    t = schema.get("type")
    if t == "object":
        props = schema.get("properties")
        required = schema.get("required")
        out: dict[str, Any] = {}
        if isinstance(props, dict) and isinstance(required, list):
            for name in required:
                if isinstance(name, str) and name in props:
                    out[name] = sample_value(props[name])
        return out
    if t == "array":
        return [sample_value(schema.get("items"))]
    if t == "integer":
        return max(SET_BY_TYPE["integer"], int(schema.get("minimum", 1) or 1))
    if t in ("number", "boolean"):
        return SET_BY_TYPE[t]
    return SET_BY_TYPE["string"]


def choices(fields: Sequence[str], values: Mapping[str, Sequence[Any]]) -> list[list[Any]]:
    """Each field's states, left out first: its values when the rules compare it with
    values, else SAMPLE."""
    return [[ABSENT, *values[f]] if f in values else [ABSENT, SAMPLE] for f in fields]


def gone(node: Schema, state: State) -> list[str]:
    """The fields `state` sets that `node` does not declare (the server prunes them)."""
    return [f for f, v in state if v is not ABSENT and f not in node.properties]


def rule_passes(evaluator: CelEvaluator, rule: str, obj: Any, errors: str = "reject") -> bool:
    """The rule's verdict on `obj`; a rule that errors (does not compile, fails on the
    object) rejects under `errors="reject"`, as the API server rejects the request, and
    accepts under `errors="accept"`, where markergen cannot tell and must not drop the
    object for its own shortcoming."""
    try:
        return evaluator.passes(rule, obj)
    except CelError:
        return errors == "accept"


class Judge:
    """The server's verdict on the objects of a union at a node; `errors` is what a rule
    that errors means ("reject" or "accept")."""

    def __init__(self, evaluator: CelEvaluator, errors: str = "reject") -> None:
        if errors not in ("reject", "accept"):
            raise ValueError(f"errors must be 'reject' or 'accept', not {errors!r}")
        self.evaluator = evaluator
        self.errors = errors
        # a rule's verdict by node and by the states of the fields it reads: the searches
        # ask it again for every object that differs only in other fields
        self._verdicts: dict[tuple[int, str, tuple[tuple[str, Any], ...]], bool] = {}

    def value(self, node: Schema, field: str, s: Any) -> Any:
        """The field's value after defaulting (ABSENT: left out), or pruned (ABSENT)."""
        prop = node.properties.get(field)
        if field not in node.properties:
            return ABSENT
        if s is ABSENT:
            if isinstance(prop, dict) and "default" in prop:
                return prop["default"]
            return ABSENT
        if isinstance(s, _Empty):
            return s.value()
        return sample_value(prop) if s is SAMPLE else s

    def field_ok(self, node: Schema, field: str, s: Any) -> bool:
        """The schema's own verdict on one field: its `enum`, and `required`."""
        value = self.value(node, field, s)
        if value is ABSENT:
            return field not in node.required
        prop = node.properties.get(field)
        enum = prop.get("enum") if isinstance(prop, dict) else None
        return not (isinstance(enum, list) and value not in enum)

    def rule_ok(self, node: Schema, rule: str, assigned: Mapping[str, Any]) -> bool:
        key = (id(node), rule, tuple(sorted(assigned.items(), key=lambda kv: kv[0])))
        found = self._verdicts.get(key)
        if found is None:
            found = rule_passes(self.evaluator, rule, self.cel_object(node, assigned), self.errors)
            self._verdicts[key] = found
        return found

    def cel_object(self, node: Schema, assigned: Mapping[str, Any]) -> dict[str, Any]:
        """The object the rules at `node` see for these fields' states: defaulted, pruned,
        with CEL names."""
        obj = {}
        for field, s in assigned.items():
            value = self.value(node, field, s)
            if value is not ABSENT:
                obj[escape_property(field) or field] = value
        return obj

    def accepts(self, node: Schema, rules: Iterable[str], state: State) -> bool:
        if not all(self.field_ok(node, f, s) for f, s in state):
            return False
        assigned = dict(state)
        return all(self.rule_ok(node, r, assigned) for r in rules)

    def tests(
        self, node: Schema, rules: Sequence[str], fields: Sequence[str], accept: bool = True
    ) -> list[Condition]:
        """The node's verdict over `fields` as tests, one per field and one per rule;
        `accept` False: each test is the negation (a way for the node to reject)."""
        index = {f: i for i, f in enumerate(fields)}
        cel = {escape_property(f) or f: i for i, f in enumerate(fields)}
        every = frozenset(range(len(fields)))
        out: list[Condition] = []

        def named(reads: frozenset[int]) -> Callable[[Mapping[int, Any]], dict[str, Any]]:
            return lambda a: {fields[i]: a[i] for i in reads}

        for f, i in index.items():

            def field_test(a: Mapping[int, Any], f: str = f, i: int = i) -> bool:
                return self.field_ok(node, f, a[i]) is accept

            out.append(Condition(frozenset({i}), field_test))
        for r in rules:
            names = mentions(r)
            reads = (
                every
                if names is None or any(n not in cel for n in names)
                else frozenset(cel[n] for n in names)
            )
            view = named(reads)

            def rule_test(
                a: Mapping[int, Any], r: str = r, view: Callable[..., dict[str, Any]] = view
            ) -> bool:
                return self.rule_ok(node, r, view(a)) is accept

            out.append(Condition(reads, rule_test))
        return out


def where(
    fields: Sequence[str], states: Sequence[Sequence[Any]], tests: Sequence[Condition]
) -> State | None:
    """The first state (in the order of `itertools.product` over `states`) on which every
    test holds."""
    found = first(states, tests)
    if found is None:
        return None
    return tuple((f, states[i][s]) for i, (f, s) in enumerate(zip(fields, found, strict=True)))


def first_of(
    candidates: Iterable[State | None], fields: Sequence[str], states: Sequence[Sequence[Any]]
) -> State | None:
    """The earliest of several states, in the order of `itertools.product`."""

    def key(state: State) -> tuple[int, ...]:
        return tuple(
            next(
                k
                for k, x in enumerate(states[i])
                if x is v or (x is not ABSENT and v is not ABSENT and x == v)
            )
            for i, (_, v) in enumerate(state)
        )

    found = [c for c in candidates if c is not None]
    return min(found, key=key) if found else None


@dataclass(frozen=True)
class Side:
    """One side of a comparison: the node and the rules of the union at it."""

    node: Schema
    rules: tuple[str, ...]


def set_test(i: int) -> Condition:
    return Condition(frozenset({i}), lambda a: a[i] is not ABSENT)


def unset_test(i: int) -> Condition:
    return Condition(frozenset({i}), lambda a: a[i] is ABSENT)


def known_test(node: Schema, fields: Sequence[str], i: int) -> Condition:
    """Field `i` is left out or declared by `node` (a client of `node` may send it)."""
    f = fields[i]
    return Condition(frozenset({i}), lambda a: a[i] is ABSENT or f in node.properties)


# Up to this many objects, one walk of the space is cheaper than a search per way the
# rejecting side can reject.
_ONE_WALK = 4096


def first_accepted_rejected(
    judge: Judge,
    fields: Sequence[str],
    states: Sequence[Sequence[Any]],
    accepting: Side,
    rejecting: Side,
    also: Sequence[Condition] = (),
    gone_rejects: bool = False,
) -> State | None:
    """The first state `accepting` accepts and `rejecting` rejects, among those on which
    the tests `also` hold; with `gone_rejects`, a field `rejecting` does not declare
    counts as rejected (strict field validation)."""
    base = [*also, *judge.tests(accepting.node, accepting.rules, fields)]
    size = 1
    for choices_ in states:
        size *= len(choices_)
    if size <= _ONE_WALK:
        # a small space: one walk, the rejecting side judged whole at each object
        whole = judge.tests(rejecting.node, rejecting.rules, fields)
        gone_ = [
            i for i, f in enumerate(fields) if gone_rejects and f not in rejecting.node.properties
        ]

        def rejected(a: Mapping[int, Any]) -> bool:
            if any(a[i] is not ABSENT for i in gone_):
                return True
            return not all(t.holds(a) for t in whole)

        every = frozenset(range(len(fields)))
        return where(fields, states, [*base, Condition(every, rejected)])
    ways: list[list[Condition]] = [
        [t] for t in judge.tests(rejecting.node, rejecting.rules, fields, False)
    ]
    if gone_rejects:
        for i, f in enumerate(fields):
            if f not in rejecting.node.properties:
                ways.append([set_test(i)])
    return first_of((where(fields, states, [*base, *w]) for w in ways), fields, states)
