"""Satisfiable by construction, and never more (or less) than what is missing.

First, the union's markers define a family of small objects, each allowed or forbidden:
for every discriminator value, the object that sets exactly that value's members
(allowed), the same object with a member of another value set (forbidden), without a
required member (forbidden); for unions without a discriminator, each member alone
(allowed) and two members together (forbidden). The API server's verdict on each object
— the schema's `required` list for the union's fields, the discriminator's `enum`, and
the rules, evaluated by a real CEL engine — must match, or nothing is written (MG506).

Then which rules are written is decided on the whole space of the union's objects (every
discriminator value and unset, every set of members; `markergen.crd.search`), with the
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

from markergen.celcost.escape import escape_property
from markergen.crd.cel import (
    FORBIDDEN,
    INVALID,
    REQUIRED,
    Rule,
    json_value,
    text_of,
)
from markergen.crd.celeval import CelError, CelEvaluator
from markergen.crd.search import ABSENT, Check, Field, OverBudget, find, mentions, reads_values
from markergen.model import Member, Union

_SET: dict[str, Any] = {}  # a member's value does not matter to the rules, only presence


@dataclass(frozen=True)
class Probe:
    obj: dict[str, Any]  # JSON names
    allowed: bool
    about: str  # the member (or discriminator) the object tests
    why: str  # how to read the object, for messages


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


_SET_K8S: dict[str, Any] = {"string": "x", "integer": 1, "number": 1.5, "boolean": True}
_ZERO_K8S: dict[str, Any] = {"string": "", "integer": 0, "number": 0.0, "boolean": False}


def _k8s_values(m: Member, schema_type: str) -> tuple[Any, Any]:
    """A value validation-gen counts as set for member `m`, and the value it counts as
    unset that JSON can still carry (`_ABSENT` when only leaving it out is unset)."""
    if m.zero == "len":
        return (["x"], []) if schema_type == "array" else ({"k": "v"}, {})
    if m.zero == "zero":
        return _SET_K8S.get(schema_type, "x"), _ZERO_K8S.get(schema_type, "")
    return _SET, _ABSENT


_ABSENT = object()


def _with(obj: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
    out = {k: v for k, v in obj.items() if k != name}
    if value is not _ABSENT:
        out[name] = value
    return out


def family_k8s(
    union: Union, members: Sequence[Member], enum: Sequence[Any] | None, types: Mapping[str, str]
) -> list[Probe]:
    """validation-gen's verdicts (docs/k8s.md) on small objects: a member at its Go zero
    value (`""`, 0, false, `[]`) or left out is unset; the discriminator is optional and
    names the one member that may and must be set; without one, exactly one (or at most
    one) member is set. Each set of set members is tried with the unset members at their
    zero value and left out, and each discriminator value with "" also left out."""
    vals = {m.json_name: _k8s_values(m, types.get(m.json_name, "")) for m in members}
    disc = union.discriminator
    names = [m.json_name for m in members]

    def verdict(chosen: frozenset[str], value: str) -> bool:
        if union.modes:
            return all(
                _mode_allows(union, m.json_name, m.json_name in chosen, value) for m in members
            )
        if disc is not None:
            return all((m.value == value) == (m.json_name in chosen) for m in members)
        return len(chosen) == 1 or (not chosen and union.mode != "exactly-one")

    def objects(chosen: frozenset[str], value: str | None) -> list[dict[str, Any]]:
        base: dict[str, Any] = {} if value is None else {disc.json_name: value} if disc else {}
        zeroed = dict(base)
        absent = dict(base)
        for n in names:
            good, zero = vals[n]
            if n in chosen:
                zeroed[n] = absent[n] = good
            elif zero is not _ABSENT:
                zeroed[n] = zero
        return [zeroed] if zeroed == absent else [zeroed, absent]

    sets: list[frozenset[str]] = []
    values: list[str] = [""]
    if disc is not None:
        values = sorted({m.value for m in members} | set(union.empty_values) | {""})
        if enum:
            values = list(dict.fromkeys([*map(str, enum), *values]))
        if union.modes:
            values = sorted({r.value for r in union.modes} | set(values))
        for v in values:
            if union.modes:
                own = frozenset(
                    m.json_name for m in members if _mode_allows(union, m.json_name, True, v)
                )
            else:
                own = frozenset(m.json_name for m in members if m.value == v)
            sets.append(own)
            sets.extend(own - {n} for n in own)
            sets.extend(own | {n} for n in names if n not in own)
    else:
        sets.append(frozenset())
        sets.extend(frozenset({n}) for n in names)
        sets.extend(frozenset({a, b}) for i, a in enumerate(names) for b in names[i + 1 :])
    out: list[Probe] = []
    seen: set[str] = set()
    for chosen in dict.fromkeys(sets):
        for v in values if disc is not None else [""]:
            for value in [v, None] if v == "" and disc is not None else [v if disc else None]:
                for obj in objects(chosen, value):
                    key = repr(sorted(obj.items(), key=lambda kv: kv[0]))
                    if key in seen:
                        continue
                    seen.add(key)
                    what = (
                        f'{disc.json_name}="{value}"'
                        if disc is not None and value is not None
                        else "no discriminator"
                    )
                    shown = ", ".join(sorted(chosen)) or "no member set"
                    about = next(iter(sorted(chosen)), "")
                    out.append(Probe(obj, verdict(chosen, v), about, f"{what} with {shown}"))
    return out


def _mode_allows(union: Union, field: str, is_set: bool, value: str) -> bool:
    """A mode union's verdict on one field: its rules for the mode, else forbidden."""
    own = [r for r in union.modes if r.json_name == field and r.value == value]
    if not own:
        return not is_set
    if is_set:
        return not any(r.rule == "forbidden" for r in own)
    return not any(r.rule == "required" for r in own)


def family(union: Union, members: Sequence[Member], enum: Sequence[Any] | None) -> list[Probe]:
    disc = union.discriminator
    out: list[Probe] = []
    if disc is not None and union.semantics == "kep1027":
        values = sorted({m.value for m in members} | set(union.empty_values))
        if enum:
            values = list(dict.fromkeys([*map(text_of, enum), *values]))
        for v in values:
            # The object holds the value as JSON of its type: 1, not "1".
            base: dict[str, Any] = {disc.json_name: json_value(v, disc.value_type)}
            own = [m for m in members if m.value == v]
            obj = {**base, **{m.json_name: _SET for m in own}}
            what = f'{disc.json_name}="{v}"'
            names = ", ".join(m.json_name for m in own) or "no member"
            # A value no marked member claims may be the one an unmatched member (MG340)
            # was meant for: what it allows is unknown, so it is not claimed as allowed.
            if own or not union.unmatched:
                out.append(
                    Probe(obj, True, own[0].json_name if own else "", f"{what} with {names}")
                )
            for m in own:
                without = {k: x for k, x in obj.items() if k != m.json_name}
                out.append(Probe(without, m.optional, m.json_name, f"{what} without {m.json_name}"))
            for m in members:
                if m.value != v:
                    out.append(
                        Probe(
                            {**obj, m.json_name: _SET},
                            False,
                            m.json_name,
                            f"{what} with {m.json_name}",
                        )
                    )
        if not disc.required:
            own = [m for m in members if m.value == ""]
            out.append(Probe({m.json_name: _SET for m in own}, True, "", "no discriminator"))
        return out
    for m in members:
        alone: dict[str, Any] = {m.json_name: _SET}
        if disc is not None:
            alone[disc.json_name] = json_value(m.value, disc.value_type)
        out.append(Probe(alone, True, m.json_name, f"{m.json_name} alone"))
    if disc is not None and union.semantics == "kep2019" and union.mode != "exactly-one":
        # The 2019 KEP allows at most one member: a member's value with the member left
        # out is allowed. A hand-written rule that requires the member for its value
        # (openshift/api's `self.type == 'Custom' ? has(self.custom) : !has(self.custom)`)
        # rejects it on the API server, where the markers accept it (MG508).
        allowed_values = None if enum is None else {text_of(e) for e in enum}
        for m in members:
            if allowed_values is not None and text_of(m.value) not in allowed_values:
                continue  # the schema's enum rejects the value by itself
            what = f'{disc.json_name}="{m.value}" without {m.json_name}'
            value = json_value(m.value, disc.value_type)
            out.append(Probe({disc.json_name: value}, True, m.json_name, what))
    for i, a in enumerate(members):
        for b in members[i + 1 :]:
            out.append(
                Probe(
                    {a.json_name: _SET, b.json_name: _SET},
                    False,
                    b.json_name,
                    f"{a.json_name} and {b.json_name} together",
                )
            )
    return out


def _cel_obj(obj: dict[str, Any]) -> dict[str, Any]:
    return {escape_property(k) or k: v for k, v in obj.items()}


@dataclass(frozen=True)
class NodeFacts:
    """What the schema node says about the union's fields besides `required` and `enum`:
    the API server applies `default`s before it validates, and rules on the
    discriminator's own schema (`self in ['', 'AWS']`) narrow its values further."""

    defaults: tuple[tuple[str, str], ...] = ()  # (JSON name, JSON text of the default)
    discriminator_rules: tuple[str, ...] = ()


# A value no member claims and no enum forbids (a discriminator without enum).
_OTHER = "__markergen_other__"
# the JSON a set member holds in the enumeration: its schema type's, so that a rule
# comparing it (`self.name != ""`) reads a value of the right type
_SET_BY_TYPE: dict[str, Any] = {
    "string": "x",
    "integer": 1,
    "number": 1.5,
    "boolean": True,
    "array": [{}],
}


def _set_value(schema_type: str) -> Any:
    return _SET_BY_TYPE.get(schema_type, {})


@dataclass(frozen=True)
class _Space:
    """The union's fields (JSON names) with the states the schema lets each take, the
    discriminator first."""

    fields: tuple[tuple[str, tuple[Any, ...]], ...]
    defaults: tuple[tuple[str, Any], ...] = ()
    pinned: frozenset[str] = frozenset()  # fields whose value must be one of the states

    def admit(self, obj: Mapping[str, Any]) -> dict[str, Any] | None:
        """`obj` defaulted as the API server does, or None when the schema rejects it."""
        out = dict(obj)
        defaults = dict(self.defaults)
        for name, states in self.fields:
            if name not in out:
                if name in defaults:
                    out[name] = defaults[name]
                elif ABSENT not in states:
                    return None
            elif name in self.pinned and not any(
                s is not ABSENT and s == out[name] for s in states
            ):
                return None
        return out

    def search_fields(self) -> list[Field]:
        return [Field(escape_property(n) or n, states) for n, states in self.fields]


def _space(
    union: Union,
    members: Sequence[Member],
    required: Sequence[str],
    enum: Sequence[Any] | None,
    types: Mapping[str, str],
    facts: NodeFacts,
    evaluator: CelEvaluator,
) -> _Space:
    defaults = {k: json.loads(v) for k, v in facts.defaults}
    fields: list[tuple[str, tuple[Any, ...]]] = []

    def with_schema(name: str, states: list[Any]) -> tuple[Any, ...]:
        if name in defaults:
            states = [defaults[name] if s is ABSENT else s for s in states]
        elif name in required:
            states = [s for s in states if s is not ABSENT]
        out: list[Any] = []
        for s in states:
            if not any(s is o or (o is not ABSENT and s is not ABSENT and s == o) for o in out):
                out.append(s)
        return tuple(out)

    disc = union.discriminator
    if disc is not None:
        if enum is not None:
            values: list[Any] = list(enum)
        else:
            texts = {m.value for m in members} | set(union.empty_values)
            texts |= {r.value for r in union.modes}
            if disc.value_type == "string":
                texts |= {"", _OTHER}
            values = [json_value(v, disc.value_type) for v in sorted(texts)]
        values = [
            v
            for v in values
            if not any(evaluator.verdict(r, v) is False for r in facts.discriminator_rules)
        ]
        fields.append((disc.json_name, with_schema(disc.json_name, [ABSENT, *values])))
    for m in members:
        if union.semantics == "k8s":
            good, zero = _k8s_values(m, types.get(m.json_name, ""))
            states = [ABSENT, good] + ([] if zero is _ABSENT else [zero])
        else:
            states = [ABSENT, _set_value(types.get(m.json_name, ""))]
        fields.append((m.json_name, with_schema(m.json_name, states)))
    names = {n for n, _ in fields}
    return _Space(
        tuple(fields),
        tuple((k, v) for k, v in sorted(defaults.items()) if k in names),
        frozenset({disc.json_name} if disc is not None else ()),
    )


def _typed(obj: Mapping[str, Any], types: Mapping[str, str]) -> dict[str, Any]:
    """A family object with each set member holding a value of its schema type."""
    return {k: _set_value(types.get(k, "")) if v is _SET else v for k, v in obj.items()}


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
    space of the union's objects (`markergen.crd.search`): a rule is left out when every
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
    space = _space(union, members, req, enum, types, facts, evaluator)

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
        if union.semantics != "k8s" and _set_value(types.get(m.json_name, "")) == {}
    }
    pruning = [
        t
        for t in hand
        if (found := mentions(t)) is not None
        and found <= names
        and not reads_values(t, names - {d_name}, objects)
    ]
    allowed = [
        a for p in probes if p.allowed and (a := space.admit(_typed(p.obj, types))) is not None
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
    allowances = _allowances(union, members, rules, hand, allowed, space, types, evaluator)
    if allowances:
        return Proof((), (), False, contradictions, allowances)
    keep, exhaustive = _needed(rules, pruning, space, evaluator)
    # said only when the hand-written rules are the reason: not when the schema alone
    # already rejects everything the rules would
    covered = bool(hand and not keep and exhaustive and _needed(rules, [], space, evaluator)[0])
    return Proof((), tuple(keep), covered, contradictions, (), exhaustive)


def _reads(rule: str, names: set[str]) -> bool:
    found = mentions(rule)
    return found is None or bool(found & names)


def _needed(
    rules: Sequence[Rule], hand: Sequence[str], space: _Space, evaluator: CelEvaluator
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
    space: _Space,
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
                flipped[m.json_name] = _set_value(types.get(m.json_name, ""))
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
