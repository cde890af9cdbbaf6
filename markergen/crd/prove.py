"""Satisfiable by construction: a union's rules are evaluated before they are written.

For every discriminator value the object that sets exactly that value's members must be
accepted, and the object that also sets a member of another value must be rejected. The
verdict is the API server's for the union's fields: the schema's `required` list, the
discriminator's `enum`, and every rule, evaluated by a real CEL engine. When this cannot
hold (a member whose value is not among the enum values, a member the schema requires
always), the union gets no rules and the reasons are returned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from markergen.crd.cel import Rule, escape_property
from markergen.crd.celeval import CelError, CelEvaluator
from markergen.model import Member, Union

_Accepts = Callable[[dict[str, Any]], bool]
_SET: dict[str, Any] = {}  # a member's value does not matter to the rules, only presence


def prove_union(
    union: Union,
    rules: Sequence[Rule],
    properties: Iterable[str],
    required: Iterable[str],
    enum: Sequence[Any] | None,
    evaluator: CelEvaluator,
) -> list[str]:
    """Why the rules cannot be written (empty when every check holds)."""
    present = set(properties)
    members = [
        m for m in union.members if m.json_name in present and escape_property(m.json_name)
    ]
    disc = union.discriminator
    union_fields = {m.json_name for m in members} | ({disc.json_name} if disc else set())
    req = [r for r in required if r in union_fields]

    def accepts(obj: dict[str, Any]) -> bool:
        if any(r not in obj for r in req):
            return False
        if disc is not None and enum is not None and disc.json_name in obj:
            if obj[disc.json_name] not in enum:
                return False
        cel_obj = {escape_property(k) or k: v for k, v in obj.items()}
        return all(evaluator.passes(r.rule, cel_obj) for r in rules)

    try:
        if disc is not None and union.semantics == "kep1027":
            return _discriminated(union, members, enum, accepts)
        return _counted(union, members, accepts)
    except CelError as e:
        return [f"a rule does not evaluate ({e})"]


def _discriminated(
    union: Union, members: list[Member], enum: Sequence[Any] | None, accepts: _Accepts
) -> list[str]:
    disc = union.discriminator
    assert disc is not None
    if enum:
        values = list(dict.fromkeys(str(v) for v in enum))
    else:
        values = sorted({m.value for m in members} | set(union.empty_values))
    if not disc.required and "" not in values:
        values.append("")
    problems: list[str] = []
    settable: set[str] = set()
    for v in values:
        base: dict[str, Any] = {disc.json_name: v}
        if v == "" and not disc.required:
            base = {}
        own = [m for m in members if m.value == v]
        obj = {**base, **{m.json_name: _SET for m in own}}
        if not accepts(obj):
            names = ", ".join(m.json_name for m in own) or "no member"
            problems.append(
                f'{disc.json_name}="{v}" with exactly its members set ({names}) is rejected'
            )
            continue
        settable.update(m.json_name for m in own)
        for m in members:
            if m.value != v and accepts({**obj, m.json_name: _SET}):
                problems.append(f'{m.json_name} is accepted when {disc.json_name}="{v}"')
    for m in members:
        if m.json_name not in settable:
            shown = ", ".join(f'"{v}"' for v in values if v)
            problems.append(
                f'member {m.json_name} selects {disc.json_name}="{m.value}", which is not an '
                f"allowed value ({shown}): it could never be set; fix: give the member its "
                f"enum value with `+unionMember=<value>` (or add \"{m.value}\" to the enum)"
            )
    return problems


def _counted(union: Union, members: list[Member], accepts: _Accepts) -> list[str]:
    disc = union.discriminator
    problems: list[str] = []
    for m in members:
        obj: dict[str, Any] = {m.json_name: _SET}
        if disc is not None:
            obj[disc.json_name] = m.value
        if not accepts(obj):
            problems.append(f"member {m.json_name} set alone is rejected")
    if len(members) > 1:
        a, b = members[0].json_name, members[1].json_name
        if accepts({a: _SET, b: _SET}):
            problems.append(f"{a} and {b} set together are accepted")
    return problems
