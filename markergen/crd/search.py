"""The whole space of a union's objects, searched instead of sampled.

A union's objects, as the API server validates them, differ only in the discriminator's
value (each value the schema allows, `""`, left out) and in which members are set (every
subset of them, up to all). That space grows as 2^members, but a rule reads only the
fields it names: a search that assigns the fields one by one and evaluates each rule as
soon as every field it reads is assigned prunes whole subtrees, so the questions "is
there an object these rules accept and that one rejects?" are answered exactly, with a
real CEL engine, without listing every object. A budget of evaluations bounds the rare
search that cannot prune (a count over many members); over it, the answer is "unknown"
and the caller takes the safe side.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markergen.crd.celeval import CelEvaluator


class _Absent:
    """A field left out of the object (a state distinct from every JSON value)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()

# `self.name` not followed by `(`: a field read. Any other use of `self` (`self.all(...)`,
# `size(self)`, `self[...]`) may read every field.
_SELF = re.compile(r"\bself\b(\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)(\s*\()?)?")


def mentions(rule: str) -> frozenset[str] | None:
    """The CEL names of the fields `rule` reads from `self`; None when it may read any."""
    found: set[str] = set()
    for m in _SELF.finditer(rule):
        if m.group(2) is None or m.group(3) is not None:
            return None
        found.add(m.group(2))
    return frozenset(found)


_FIELD = re.compile(r"\bself\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)")
_HAS_BEFORE = re.compile(r"\bhas\(\s*$")
_CLOSE_AFTER = re.compile(r"^\s*\)")
_NESTED_AFTER = re.compile(r"^\s*\.\s*[A-Za-z_][A-Za-z0-9_]*\b(?!\s*\()")


def reads_values(
    rule: str, names: set[str] | frozenset[str], objects: set[str] | frozenset[str] = frozenset()
) -> bool:
    """Whether `rule`'s verdict may depend on the value of one of the fields `names`, not
    only on whether it is set: the enumeration gives a set member one value, so such a
    rule's "false" would hold for that value only. `has(self.name)` reads presence only;
    for the fields in `objects` (set as `{}` in the enumeration) a read of a field inside
    (`self.name.field`) fails on `{}` and gives no verdict, so it is harmless too."""
    for m in _FIELD.finditer(rule):
        name = m.group(1)
        if name not in names:
            continue
        before, after = rule[: m.start()], rule[m.end() :]
        if _HAS_BEFORE.search(before) and _CLOSE_AFTER.match(after):
            continue  # has(self.name)
        if name in objects and not _HAS_BEFORE.search(before) and _NESTED_AFTER.match(after):
            continue  # self.name.field: no such key on {}
        return True
    return False


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
    first = {n for c in targets for n in (mentions(c.rule) or ())}
    # the fields the rules that must reject read come first: their check prunes early
    order = sorted(range(len(fields)), key=lambda i: (fields[i].name not in first, i))
    position = {fields[i].name: k for k, i in enumerate(order)}
    last = len(order) - 1
    at: list[list[Check]] = [[] for _ in order]
    for c in checks:
        names = mentions(c.rule)
        if names is None or any(n not in position for n in names):
            at[max(last, 0)].append(c)
        else:
            at[max((position[n] for n in names), default=0)].append(c)
    spent = 0
    obj: dict[str, Any] = {}

    def holds(check: Check) -> bool:
        nonlocal spent
        spent += 1
        if spent > budget:
            raise OverBudget
        verdict = evaluator.verdict(check.rule, obj)
        return verdict is not False if check.passes else verdict is False

    def walk(k: int) -> dict[str, Any] | None:
        if k == len(order):
            return dict(obj)
        field = fields[order[k]]
        for state in field.states:
            if state is ABSENT:
                obj.pop(field.name, None)
            else:
                obj[field.name] = state
            if all(holds(c) for c in at[k]):
                found = walk(k + 1)
                if found is not None:
                    return found
        obj.pop(field.name, None)
        return None

    if not order:
        return dict(obj) if all(holds(c) for c in checks) else None
    return walk(0)
