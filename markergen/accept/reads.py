"""Which fields of `self` a CEL rule reads, and how: read from the rule's syntax tree
(`markergen.celcost.syntax`, the parser the cost estimate runs on), never from its text,
so that a string literal that spells `self.x` or a rule laid out over lines reads the same
as the API server's compiler reads it.

A read is one of: a presence test (`has(self.f)`), a comparison of the field with string
literals (`self.f == 'A'`, `'A' != self.f`, `self.f in ['A', 'B']`), a read of a field
inside it (`self.f.g`), or any other use of the value (`size(self.f)`,
`self.f.startsWith('x')`). Any use of `self` that is not a field read (`size(self)`,
`self.all(...)`, `self[k]`) may read every field.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from markergen.celcost.syntax import (
    Call,
    CelSyntaxError,
    Comprehension,
    Expr,
    Ident,
    ListExpr,
    Literal,
    MapExpr,
    Select,
    parse,
)


def _children(e: Expr) -> Iterator[Expr]:
    if isinstance(e, Select):
        yield e.operand
    elif isinstance(e, Call):
        if e.target is not None:
            yield e.target
        yield from e.args
    elif isinstance(e, ListExpr):
        yield from e.elements
    elif isinstance(e, MapExpr):
        for k, v in e.entries:
            yield k
            yield v
    elif isinstance(e, Comprehension):
        yield from (e.iter_range, e.accu_init, e.loop_condition, e.loop_step, e.result)


@dataclass(frozen=True, slots=True)
class Read:
    """One use of `self` in a rule."""

    field: str | None  # the CEL name read; None: `self` used whole
    how: str  # "has", "compare", "nested", "nested-has", "value", "whole"
    literals: tuple[str, ...] = ()  # the string literals a comparison names


def _reads(expr: Expr) -> list[Read]:
    parent: dict[int, Expr] = {}
    stack = [expr]
    selves: list[Ident] = []
    while stack:
        e = stack.pop()
        if isinstance(e, Ident) and e.name == "self":
            selves.append(e)
        for c in _children(e):
            parent[id(c)] = e
            stack.append(c)
    out: list[Read] = []
    for ident in sorted(selves, key=lambda i: i.id):
        p = parent.get(id(ident))
        if not isinstance(p, Select) or p.operand is not ident:
            out.append(Read(None, "whole"))
            continue
        if p.test_only:
            out.append(Read(p.field, "has"))
            continue
        q = parent.get(id(p))
        if isinstance(q, Select) and q.operand is p:
            out.append(Read(p.field, "nested-has" if q.test_only else "nested"))
        elif isinstance(q, Call) and q.target is None and q.function in ("_==_", "_!=_"):
            other = q.args[1] if q.args[0] is p else q.args[0]
            if isinstance(other, Literal) and isinstance(other.value, str):
                out.append(Read(p.field, "compare", (other.value,)))
            else:
                out.append(Read(p.field, "value"))
        elif (
            isinstance(q, Call)
            and q.function == "@in"
            and q.args[0] is p
            and isinstance(q.args[1], ListExpr)
        ):
            lits = tuple(
                x.value
                for x in q.args[1].elements
                if isinstance(x, Literal) and isinstance(x.value, str)
            )
            out.append(Read(p.field, "compare", lits))
        else:
            out.append(Read(p.field, "value"))
    return out


# A pure function of the rule's text, asked for each rule by every side and node of a
# comparison (a CRD repeats its rules across versions and copies): parsed once a process.
@functools.lru_cache(maxsize=8192)
def reads(rule: str) -> tuple[Read, ...] | None:
    """Every use of `self` in `rule`, in source order; None when the rule does not parse."""
    try:
        return tuple(_reads(parse(rule)))
    except CelSyntaxError:
        return None


def mentions(rule: str) -> frozenset[str] | None:
    """The CEL names of the fields `rule` reads from `self`; None when it may read any."""
    found = reads(rule)
    if found is None or any(r.field is None for r in found):
        return None
    return frozenset(r.field for r in found if r.field is not None)


def reads_values(
    rule: str, names: set[str] | frozenset[str], objects: set[str] | frozenset[str] = frozenset()
) -> bool:
    """Whether `rule`'s verdict may depend on the value of one of the fields `names`, not
    only on whether it is set: the enumeration gives a set member one value, so such a
    rule's "false" would hold for that value only. `has(self.name)` reads presence only;
    for the fields in `objects` (set as `{}` in the enumeration) a read of a field inside
    (`self.name.field`) fails on `{}` and gives no verdict, so it is harmless too."""
    found = reads(rule)
    if found is None:
        return True
    for r in found:
        if r.field is None or r.field not in names or r.how == "has":
            continue
        if r.field in objects and r.how == "nested":
            continue
        return True
    return False


@dataclass(frozen=True, slots=True)
class Refs:
    """A rule that reads the node's fields only through presence tests and comparisons
    with string literals (JSON names)."""

    presence: frozenset[str]
    values: Mapping[str, frozenset[str]]  # compared field → literals

    @property
    def fields(self) -> frozenset[str]:
        return self.presence | frozenset(self.values)


def presence_and_values(rule: str, names: Mapping[str, str]) -> Refs | None:
    """The node's fields (`names`: CEL name → JSON name) `rule` refers to, when every
    reference is a presence test or a comparison with string literals and there are at
    least two fields; None otherwise. Transition rules (`oldSelf`) judge changes, not
    objects: None."""
    if "oldSelf" in rule:
        return None
    found = reads(rule)
    if found is None:
        return None
    presence: set[str] = set()
    values: dict[str, set[str]] = {}
    for r in found:
        field = names.get(r.field) if r.field is not None else None
        if field is None or r.how not in ("has", "compare"):
            return None
        if r.how == "has":
            presence.add(field)
        else:
            values.setdefault(field, set()).update(r.literals)
    if len(presence | set(values)) < 2:
        return None
    return Refs(frozenset(presence), {k: frozenset(v) for k, v in values.items()})
