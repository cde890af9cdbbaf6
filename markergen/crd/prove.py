"""Satisfiable by construction: a union's rules are evaluated before they are written.

The union's markers define a family of small objects, each allowed or forbidden: for every
discriminator value, the object that sets exactly that value's members (allowed), the
same object with a member of another value set (forbidden), without a required member
(forbidden); for unions without a discriminator, each member alone (allowed) and two
members together (forbidden). The API server's verdict on each object — the schema's
`required` list for the union's fields, the discriminator's `enum`, and the rules,
evaluated by a real CEL engine — must match. The same family tells which of the rules a
node's hand-written rules already enforce, and which hand-written rule contradicts the
markers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markergen.crd.cel import Rule, escape_property, json_value, text_of
from markergen.crd.celeval import CelError, CelEvaluator
from markergen.model import Member, Union

_SET: dict[str, Any] = {}  # a member's value does not matter to the rules, only presence


@dataclass(frozen=True)
class Probe:
    obj: dict[str, Any]  # JSON names
    allowed: bool
    about: str  # the member (or discriminator) the object tests
    why: str  # how to read the object, for messages


@dataclass(frozen=True)
class Proof:
    problems: tuple[str, ...]  # why the rules cannot be written (empty: they can)
    rules: tuple[Rule, ...]  # the rules to write: those not already enforced by hand
    covered: bool  # hand-written rules enforce the whole union already
    contradictions: tuple[str, ...]  # hand-written rules that reject an allowed object


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


def prove_union(
    union: Union,
    rules: Sequence[Rule],
    properties: Iterable[str],
    required: Iterable[str],
    enum: Sequence[Any] | None,
    evaluator: CelEvaluator,
    existing: Sequence[str] = (),
    types: Mapping[str, str] | None = None,
) -> Proof:
    """Check `rules` (with the schema) on the union's family of objects; `existing` are the
    node's hand-written rule texts."""
    present = set(properties)
    members = [m for m in union.members if m.json_name in present and escape_property(m.json_name)]
    disc = union.discriminator
    fields = {m.json_name for m in members} | ({disc.json_name} if disc else set())
    req = [r for r in required if r in fields]
    if union.semantics == "k8s":
        probes = family_k8s(union, members, enum, types or {})
    else:
        probes = family(union, members, enum)
    names = [escape_property(f) or f for f in fields]
    # only hand-written rules about this union's fields can enforce or contradict it
    existing = [t for t in existing if any(f"self.{n}" in t for n in names)]
    enum_texts = None if enum is None else {text_of(e) for e in enum}

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

    hand: dict[int, bool] = {}  # by id(probe): asked for contradictions and per rule

    def hand_verdict(p: Probe) -> bool:
        """False when some hand-written rule rejects the probe's object (rules that cannot
        be evaluated on these small objects, e.g. transition rules, give no verdict)."""
        found = hand.get(id(p))
        if found is None:
            found = True
            for text in existing:
                try:
                    if not evaluator.passes(text, _cel_obj(p.obj)):
                        found = False
                        break
                except CelError:
                    continue
            hand[id(p)] = found
        return found

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
    contradictions = tuple(
        f"a hand-written rule rejects {p.why}, which the union allows"
        for p in probes
        if p.allowed and not hand_verdict(p)
    )
    if not existing:
        return Proof((), tuple(rules), False, contradictions)
    keep: list[Rule] = []
    for r in rules:
        rejected = [p for p in probes if not evaluator.passes(r.rule, _cel_obj(p.obj))]
        if any(hand_verdict(p) for p in rejected):
            keep.append(r)
    return Proof((), tuple(keep), not keep, contradictions)


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
