"""Satisfiable by construction, and never more (or less) than what is missing.

First, the union's markers define a family of small objects, each allowed or forbidden:
for every discriminator value, the object that sets exactly that value's members
(allowed), the same object with a member of another value set (forbidden), without a
required member (forbidden); for unions without a discriminator, each member alone
(allowed) and two members together (forbidden). The API server's verdict on each object
— the schema's `required` list for the union's fields, the discriminator's `enum`, and
the rules, evaluated by a real CEL engine — must match, or nothing is written (MG506).

Then which rules are written is decided on the whole space of the union's objects (every
discriminator value and unset, every set of members; `markergen.accept`), with the
schema's defaults and the rules on the discriminator's own schema applied as the API
server applies them: a rule is written only when some object it rejects passes the
schema, the node's hand-written rules and the rules written before it. So a union the
hand-written rules fully enforce gets nothing (MG509), a weaker hand rule gets exactly
what it misses, and a rule the schema already implies is never written. A hand-written
rule that ties a member to the discriminator and allows, one member away from an allowed
object, what a rule would reject is a disagreement: nothing is written (MG508).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markergen.accept.celeval import CelError, CelEvaluator
from markergen.accept.reads import mentions, reads_values
from markergen.accept.space import Check, OverBudget, find, set_value
from markergen.accept.union import (
    SET,
    NodeFacts,
    Probe,
    Space,
    family,
    family_k8s,
    space,
    text_of,
)
from markergen.celcost.escape import escape_property
from markergen.crd.cel import FORBIDDEN, INVALID, REQUIRED, Rule
from markergen.model import Member, Union


@dataclass(frozen=True)
class Allowance:
    """An object the hand-written rules accept and a rule of markergen would reject."""

    text: str  # for the message
    member: str  # the JSON name of the member whose presence differs from an allowed object
    reason: str  # the rejecting rule's reason (REQUIRED: the markers make it required)


@dataclass(frozen=True)
class Proof:
    problems: tuple[str, ...]  # why the rules cannot be written (empty: they can)
    rules: tuple[Rule, ...]  # the rules to write: those not already enforced by hand
    covered: bool  # hand-written rules enforce the whole union already
    contradictions: tuple[str, ...]  # hand-written rules that reject an allowed object
    # hand-written rules that allow, on purpose, an object a rule would reject: the
    # markers and the CRD disagree, and nothing is written for the union
    allowances: tuple[Allowance, ...] = ()
    exhaustive: bool = True  # every search of the union's objects finished in budget


def _cel_obj(obj: dict[str, Any]) -> dict[str, Any]:
    return {escape_property(k) or k: v for k, v in obj.items()}


def _typed(obj: Mapping[str, Any], types: Mapping[str, str]) -> dict[str, Any]:
    """A family object with each set member holding a value of its schema type."""
    return {k: set_value(types.get(k, "")) if v is SET else v for k, v in obj.items()}


def _describe(obj: Mapping[str, Any], union: Union) -> str:
    disc = union.discriminator
    names = sorted(k for k in obj if disc is None or k != disc.json_name)
    shown = ", ".join(names) or "no member set"
    if disc is None:
        return f"{{{shown}}}"
    if disc.json_name not in obj:
        return f"no {disc.json_name} with {shown}"
    return f"{disc.json_name}={json.dumps(obj[disc.json_name])} with {shown}"


# Which of markergen's rules the greedy proof tries first: those that forbid a member
# outright, then the ones that tie a member to a value, then the ones that require one.
# A hand-written "exactly one of" already requires a member; with the "forbidden" rules
# written, the "required" ones then follow and need not be written.
_ORDER = {FORBIDDEN: 0, INVALID: 1, REQUIRED: 2}


def prove_union(
    union: Union,
    rules: Sequence[Rule],
    properties: Iterable[str],
    required: Iterable[str],
    enum: Sequence[Any] | None,
    evaluator: CelEvaluator,
    existing: Sequence[str] = (),
    types: Mapping[str, str] | None = None,
    facts: NodeFacts | None = None,
) -> Proof:
    """Check `rules` (with the schema) on the union's family of objects; `existing` are the
    node's hand-written rule texts. Which rules are written is then decided on the whole
    space of the union's objects (`markergen.accept`): a rule is left out when every
    object it rejects is already rejected by the schema, the hand-written rules and the
    rules kept before it; when a hand-written rule that ties a member to the
    discriminator accepts an object that differs from an allowed one by that member alone
    and that a rule would reject, the two disagree (`allowances`) and nothing is
    written."""
    types = types or {}
    facts = facts or NodeFacts()
    present = set(properties)
    members = [m for m in union.members if m.json_name in present and escape_property(m.json_name)]
    disc = union.discriminator
    fields = {m.json_name for m in members} | ({disc.json_name} if disc else set())
    req = [r for r in required if r in fields]
    if union.semantics == "k8s":
        probes = family_k8s(union, members, enum, types)
    else:
        probes = family(union, members, enum)
    enum_texts = None if enum is None else {text_of(e) for e in enum}
    space_ = space(union, members, req, enum, types, facts, evaluator)

    def schema_ok(obj: dict[str, Any]) -> bool:
        if any(r not in obj for r in req):
            return False
        return not (
            disc is not None
            and enum_texts is not None
            and disc.json_name in obj
            and text_of(obj[disc.json_name]) not in enum_texts
        )

    if union.semantics == "k8s":
        # what the schema alone rejects (a required field left out, a value outside the
        # enum) it rejects on its own; the rules must be right on everything else
        probes = [p for p in probes if schema_ok(p.obj)]
    # an object the API server defaults is validated as another object of the family
    defaulted = {n for n, _ in facts.defaults}
    probes = [p for p in probes if not any(n not in p.obj for n in defaulted & fields)]

    problems: list[str] = []
    try:
        verdicts = {
            id(p): schema_ok(p.obj)
            and all(evaluator.passes(r.rule, _cel_obj(p.obj)) for r in rules)
            for p in probes
        }
    except CelError as e:
        return Proof((f"a rule does not evaluate ({e})",), (), False, ())
    for p in probes:
        if verdicts[id(p)] == p.allowed:
            continue
        if p.allowed:
            problems.append(_why_rejected(p, union, members, req, enum))
        else:
            problems.append(f"{p.why} is accepted, though the union forbids it")
    if problems:
        return Proof(tuple(dict.fromkeys(problems)), (), False, ())

    names = {escape_property(f) or f for f in fields}
    hand = [t for t in existing if "oldSelf" not in t and _reads(t, names)]
    # rules that read only the union's fields give a verdict on every object of the
    # space; one that also reads another property (or `self` whole) may decide on that
    # property, and one that reads a member's value (`self.name == "a"`, not only
    # `has(self.name)`) decides on a value the space does not vary: its "rejected" is
    # no proof
    d_name = escape_property(disc.json_name) if disc is not None else None
    objects = {
        escape_property(m.json_name) or m.json_name
        for m in members
        if union.semantics != "k8s" and set_value(types.get(m.json_name, "")) == {}
    }
    pruning = [
        t
        for t in hand
        if (found := mentions(t)) is not None
        and found <= names
        and not reads_values(t, names - {d_name}, objects)
    ]
    allowed = [
        a for p in probes if p.allowed and (a := space_.admit(_typed(p.obj, types))) is not None
    ]
    rejected = list(
        dict.fromkeys(
            _describe(a, union)
            for a in allowed
            if any(evaluator.verdict(t, _cel_obj(a)) is False for t in pruning)
        )
    )
    # one finding per union, naming every allowed object a hand-written rule rejects
    contradictions = (
        (f"a hand-written rule rejects {'; '.join(rejected)}, which the union allows",)
        if rejected
        else ()
    )
    allowances = _allowances(union, members, rules, hand, allowed, space_, types, evaluator)
    if allowances:
        return Proof((), (), False, contradictions, allowances)
    keep, exhaustive = _needed(rules, pruning, space_, evaluator)
    # said only when the hand-written rules are the reason: not when the schema alone
    # already rejects everything the rules would
    covered = bool(hand and not keep and exhaustive and _needed(rules, [], space_, evaluator)[0])
    return Proof((), tuple(keep), covered, contradictions, (), exhaustive)


def _reads(rule: str, names: set[str]) -> bool:
    found = mentions(rule)
    return found is None or bool(found & names)


def _needed(
    rules: Sequence[Rule], hand: Sequence[str], space: Space, evaluator: CelEvaluator
) -> tuple[list[Rule], bool]:
    """The rules to write, in their order, and whether every search finished: a rule is
    needed when some object of the space passes the schema, the hand-written rules and the
    rules already kept, and it rejects (tried in `_ORDER`, so that a rule kept earlier
    can make a later one unnecessary, never the reverse)."""
    fields = space.search_fields()
    order = sorted(range(len(rules)), key=lambda i: _ORDER.get(rules[i].reason, 1))
    kept: list[int] = []
    exhaustive = True
    for i in order:
        checks = [Check(t, True) for t in hand]
        checks += [Check(rules[j].rule, True) for j in kept]
        checks.append(Check(rules[i].rule, False))
        try:
            witness = find(fields, checks, evaluator)
        except OverBudget:
            exhaustive, witness = False, {}  # unknown: written, which is always safe
        if witness is not None:
            kept.append(i)
    return [rules[i] for i in sorted(kept)], exhaustive


def _allowances(
    union: Union,
    members: Sequence[Member],
    rules: Sequence[Rule],
    hand: Sequence[str],
    allowed: Sequence[dict[str, Any]],
    space: Space,
    types: Mapping[str, str],
    evaluator: CelEvaluator,
) -> tuple[Allowance, ...]:
    """Where the hand-written rules deliberately allow what a rule would reject: an
    object one member away from an allowed one (that member set or left out), which a
    rule rejects while every hand-written rule accepts it, and one of them names both
    that member and the discriminator (`type == 'X' ? true : !has(self.x)`: it says,
    value by value, when the member may be set). A hand-written rule that never ties the
    member to the discriminator (a count such as controller-gen's ExactlyOneOf, or a
    rule about other members) says nothing about it: the rule is then missing, not
    contradicted, and is written."""
    disc = union.discriminator
    if not hand or disc is None:
        return ()
    d = escape_property(disc.json_name) or disc.json_name
    named: set[str] = set()
    for t in hand:
        found_names = mentions(t) or frozenset()
        if d in found_names:
            named |= found_names
    found: list[Allowance] = []
    for base in allowed:
        for m in members:
            esc = escape_property(m.json_name) or m.json_name
            if esc not in named:
                continue
            flipped = dict(base)
            if m.json_name in flipped:
                del flipped[m.json_name]
            else:
                flipped[m.json_name] = set_value(types.get(m.json_name, ""))
            obj = space.admit(flipped)
            if obj is None:
                continue
            cel = _cel_obj(obj)
            rejecting = [r for r in rules if evaluator.verdict(r.rule, cel) is False]
            if not rejecting or not all(evaluator.verdict(t, cel) is True for t in hand):
                continue
            found.append(
                Allowance(
                    f"the hand-written rules allow {_describe(obj, union)}, which the rule "
                    f"`{rejecting[0].message}` would reject",
                    m.json_name,
                    rejecting[0].reason,
                )
            )
    return tuple(dict.fromkeys(found))


def _why_rejected(
    p: Probe,
    union: Union,
    members: Sequence[Member],
    req: Sequence[str],
    enum: Sequence[Any] | None,
) -> str:
    disc = union.discriminator
    for m in members:
        if m.json_name not in p.obj:
            continue
        if disc is not None and enum is not None and m.value not in [text_of(e) for e in enum]:
            shown = ", ".join(f'"{e}"' for e in enum)
            return (
                f'member {m.json_name} selects {disc.json_name}="{m.value}", which is not an '
                f"allowed value ({shown}), so it could never be set; fix: give the member the "
                f'enum\'s spelling with `+unionMember=<value>`, or add "{m.value}" to the enum'
            )
    missing = [r for r in req if r not in p.obj]
    if missing:
        return (
            f"{p.why} is rejected: the schema requires {', '.join(missing)} always; fix: make "
            "the member optional (`+optional`, `omitempty`)"
        )
    return f"{p.why} is rejected by the rules"


def prove_items(union: Union, rules: Sequence[Rule], evaluator: CelEvaluator) -> list[str]:
    """A union of list items (`+k8s:item`), proved on small lists: each set of member
    items (none, one, two), with an item that is no member beside them, must get
    validation-gen's verdict (exactly one, or at most one). Empty: the rules are right."""
    items = []
    for m in union.members:
        item: dict[str, Any] = {}
        for key, value in m.selector:
            item[escape_property(key) or key] = json.loads(value)
        items.append((m.json_name, item))
    other = {"__markergen_other__": "x"}
    sets: list[list[int]] = [[]]
    sets += [[i] for i in range(len(items))]
    sets += [[i, j] for i in range(len(items)) for j in range(i + 1, len(items))]
    problems: list[str] = []
    for chosen in sets:
        allowed = len(chosen) == 1 or (not chosen and union.mode != "exactly-one")
        listed = [other] + [items[i][1] for i in chosen]
        try:
            verdict = all(evaluator.passes(r.rule, listed) for r in rules)
        except CelError as e:
            return [f"a rule does not evaluate ({e})"]
        if verdict != allowed:
            shown = ", ".join(items[i][0] for i in chosen) or "no member item"
            how = (
                "rejected, though the union allows it"
                if allowed
                else "accepted, though the union forbids it"
            )
            problems.append(f"a list with {shown} is {how}")
    return problems
