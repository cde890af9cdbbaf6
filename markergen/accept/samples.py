"""The objects a project keeps, judged at one schema node: the distinct parts they hold
there, as the API server validates them (a field left out takes its default, a field the
node does not declare is pruned: `markergen.accept.judge`), and the first of them a rule
rejects.

A part keeps its fields' scalars and empty lists and maps, and stands for any other nested
value by SAMPLE (a value of the field's schema, which counts as set): the union rules proved on kept objects read which
fields are set and the scalars they compare, so parts that differ only inside nested
values are one part. A rule that errors on a part accepts it: markergen cannot tell, and
withholds no rule for its own shortcoming.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from markergen.accept.celeval import CelEvaluator
from markergen.accept.judge import EMPTY_LIST, EMPTY_MAP, SAMPLE, Judge, State, rule_passes
from markergen.accept.space import ABSENT

T = TypeVar("T")


@dataclass(frozen=True)
class Node:
    """A CRD schema node as the judge reads it."""

    properties: Mapping[str, Any]
    required: frozenset[str]

    @staticmethod
    def of(schema: Any) -> Node:
        props = schema.get("properties") if isinstance(schema, dict) else None
        required = schema.get("required") if isinstance(schema, dict) else None
        return Node(
            props if isinstance(props, dict) else {},
            frozenset(r for r in required if isinstance(r, str))
            if isinstance(required, list)
            else frozenset(),
        )


def _stand_in(v: Any) -> Any:
    if v is None:
        return ABSENT
    if isinstance(v, (str, int, float, bool)):
        return v
    if v == []:
        return EMPTY_LIST
    return EMPTY_MAP if v == {} else SAMPLE


def _state(part: Mapping[str, Any], node: Node) -> State:
    """A part's fields at `node`: left out (or null), a scalar, an empty list or map as
    itself, or SAMPLE for the rest."""
    return tuple((f, _stand_in(part.get(f))) for f in node.properties)


class KeptParts(Generic[T]):
    """The distinct parts at one schema node of the objects a project keeps, each with the
    first object (in the order given) that holds it; with `items`, the node is a list
    whose rules see the whole list, each item judged at the list's `items` schema."""

    def __init__(
        self,
        evaluator: CelEvaluator,
        schema: Any,
        values: Iterable[tuple[Any, T]],
        items: bool = False,
    ) -> None:
        # one judge per node: its verdicts are keyed by the node, which lives as long
        self.judge = Judge(evaluator, errors="accept")
        self.items = items
        self.node = Node.of(schema.get("items") if items and isinstance(schema, dict) else schema)
        seen: dict[Any, T] = {}
        for value, first in values:
            if items and isinstance(value, list):
                listed = tuple(_state(x, self.node) for x in value if isinstance(x, dict))
                seen.setdefault(listed, first)
            elif not items and isinstance(value, dict):
                seen.setdefault(_state(value, self.node), first)
        self.parts = list(seen.items())

    def rejected(self, rule: str) -> T | None:
        """The first object whose part the rule rejects; None when it rejects none."""
        for part, first in self.parts:
            if self.items:
                objects = [self.judge.cel_object(self.node, dict(item)) for item in part]
                passes = rule_passes(self.judge.evaluator, rule, objects, errors="accept")
            else:
                passes = self.judge.rule_ok(self.node, rule, dict(part))
            if not passes:
                return first
        return None

    def values(self, field: str) -> Iterator[tuple[Any, T]]:
        """Each part's scalar value of `field` after defaulting, with its first object
        (parts that leave it out with no default, or hold a nested value, have none);
        not for a list of items."""
        for part, first in self.parts:
            s = dict(part).get(field, ABSENT)
            value = ABSENT if s is SAMPLE else self.judge.value(self.node, field, s)
            if isinstance(value, (str, int, float, bool)):
                yield value, first
