"""What a union allows, decided once for every semantics (kep1027, kep2019, smd, k8s).

`family` and `family_k8s` are the union's verdicts on small objects (each discriminator
value with its own members, with another value's member, without a required member; each
member alone and two together), the reference the CRD proofs hold the rules to and the
runtime's validation is tested against. `space` is the whole space of the union's objects
(every discriminator value, `""` and left out, every set of members), with the schema's
`required`, `enum` and defaults applied as the API server applies them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markergen.accept.celeval import CelEvaluator
from markergen.accept.space import ABSENT, SET_BY_TYPE, ZERO_BY_TYPE, Field, set_value
from markergen.celcost.escape import escape_property
from markergen.model import Member, Union, json_scalar

SET: dict[str, Any] = {}  # a member's value does not matter to the rules, only presence


def json_value(value: str, value_type: str) -> Any:
    """A discriminator value (model text) as the JSON value an object holds: `1` for an
    integer discriminator, `true` for a boolean one, the text itself for strings."""
    typed = json_scalar(value, value_type)
    if value_type == "number" and isinstance(typed, int):
        return float(typed)  # CEL reads a `type: number` property as a double
    return value if typed is None else typed


def text_of(value: Any) -> str:
    """The model's text of a JSON scalar (`1` → "1", `true` → "true")."""
    return value if isinstance(value, str) else json.dumps(value)


@dataclass(frozen=True)
class Probe:
    obj: dict[str, Any]  # JSON names
    allowed: bool
    about: str  # the member (or discriminator) the object tests
    why: str  # how to read the object, for messages


def k8s_values(m: Member, schema_type: str) -> tuple[Any, Any]:
    """A value validation-gen counts as set for member `m`, and the value it counts as
    unset that JSON can still carry (ABSENT when only leaving it out is unset)."""
    if m.zero == "len":
        return (["x"], []) if schema_type == "array" else ({"k": "v"}, {})
    if m.zero == "zero":
        return SET_BY_TYPE.get(schema_type, "x"), ZERO_BY_TYPE.get(schema_type, "")
    return SET, ABSENT


def family_k8s(
    union: Union, members: Sequence[Member], enum: Sequence[Any] | None, types: Mapping[str, str]
) -> list[Probe]:
    """validation-gen's verdicts (docs/k8s.md) on small objects: a member at its Go zero
    value (`""`, 0, false, `[]`) or left out is unset; the discriminator is optional and
    names the one member that may and must be set; without one, exactly one (or at most
    one) member is set. Each set of set members is tried with the unset members at their
    zero value and left out, and each discriminator value with "" also left out."""
    vals = {m.json_name: k8s_values(m, types.get(m.json_name, "")) for m in members}
    disc = union.discriminator
    names = [m.json_name for m in members]

    def verdict(chosen: frozenset[str], value: str) -> bool:
        if union.modes:
            return all(
                mode_allows(union, m.json_name, m.json_name in chosen, value) for m in members
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
            elif zero is not ABSENT:
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
                    m.json_name for m in members if mode_allows(union, m.json_name, True, v)
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


def mode_allows(union: Union, field: str, is_set: bool, value: str) -> bool:
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
            obj = {**base, **{m.json_name: SET for m in own}}
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
                            {**obj, m.json_name: SET},
                            False,
                            m.json_name,
                            f"{what} with {m.json_name}",
                        )
                    )
        if not disc.required:
            own = [m for m in members if m.value == ""]
            out.append(Probe({m.json_name: SET for m in own}, True, "", "no discriminator"))
        return out
    for m in members:
        alone: dict[str, Any] = {m.json_name: SET}
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
                    {a.json_name: SET, b.json_name: SET},
                    False,
                    b.json_name,
                    f"{a.json_name} and {b.json_name} together",
                )
            )
    return out


@dataclass(frozen=True)
class NodeFacts:
    """What the schema node says about the union's fields besides `required` and `enum`:
    the API server applies `default`s before it validates, and rules on the
    discriminator's own schema (`self in ['', 'AWS']`) narrow its values further."""

    defaults: tuple[tuple[str, str], ...] = ()  # (JSON name, JSON text of the default)
    discriminator_rules: tuple[str, ...] = ()


# A value no member claims and no enum forbids (a discriminator without enum).
OTHER = "__markergen_other__"


@dataclass(frozen=True)
class Space:
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


def space(
    union: Union,
    members: Sequence[Member],
    required: Sequence[str],
    enum: Sequence[Any] | None,
    types: Mapping[str, str],
    facts: NodeFacts,
    evaluator: CelEvaluator,
) -> Space:
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
                texts |= {"", OTHER}
            values = [json_value(v, disc.value_type) for v in sorted(texts)]
        values = [
            v
            for v in values
            if not any(evaluator.verdict(r, v) is False for r in facts.discriminator_rules)
        ]
        fields.append((disc.json_name, with_schema(disc.json_name, [ABSENT, *values])))
    for m in members:
        if union.semantics == "k8s":
            good, zero = k8s_values(m, types.get(m.json_name, ""))
            states = [ABSENT, good] + ([] if zero is ABSENT else [zero])
        else:
            states = [ABSENT, set_value(types.get(m.json_name, ""))]
        fields.append((m.json_name, with_schema(m.json_name, states)))
    names = {n for n, _ in fields}
    return Space(
        tuple(fields),
        tuple((k, v) for k, v in sorted(defaults.items()) if k in names),
        frozenset({disc.json_name} if disc is not None else ()),
    )
