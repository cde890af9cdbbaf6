"""Which object one version of a union accepts and another refuses: `diff`'s Go side.

A side is what the API server enforces over a union's fields as the markers describe it:
the fields the schema declares (a field it does not declare is refused under strict field
validation, kubectl's default, and dropped otherwise: never what the client sent), the
enums of plain fields, and the union: its discriminator (required, its values, its
default, which the server applies before it validates) and its members under the union's
semantics. kep1027, kep2022 and k8s unions share one rule: the discriminator's value
(left out reads as `""`) selects the members that must be set (unless `,optional`) and
forbids the others; without a discriminator, exactly one (or at most one) member is set.
The 2019 design deduces the discriminator from the member set: at most one member.

The objects are those of `markergen.accept.space`: each discriminator (or enum field)
left out, `""`, each value either side names and one value neither names; each member
left out or set. A change is breaking exactly when `refused` finds an object the base
accepts and the head refuses; that object is the witness.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import Any

from markergen.accept.space import ABSENT, Condition, first, set_value


@dataclass(frozen=True)
class Discriminator:
    field: str
    required: bool
    values: tuple[Any, ...] | None  # None: any string
    default: Any = ABSENT  # the value the server sets when it is left out


@dataclass(frozen=True)
class Member:
    field: str
    value: Any  # the discriminator value that selects it
    optional: bool = False  # kep1027 `,optional`: may be unset when selected
    kind: str = ""  # the JSON type of its values: what it holds when set (`set_value`)


@dataclass(frozen=True)
class Union:
    discriminator: Discriminator | None
    members: tuple[Member, ...]
    mode: str = "at-most-one"  # without a discriminator: "exactly-one" or "at-most-one"
    # "kep1027" (kep1027, kep2022, k8s: the discriminator selects) or "kep2019" (the
    # server deduces the discriminator from the member set)
    family: str = "kep1027"


@dataclass(frozen=True)
class Side:
    union: Union | None  # None: nothing ties the fields together
    known: frozenset[str] | None = None  # the fields the schema declares; None: all
    required: frozenset[str] = frozenset()  # fields an object must set
    enums: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)  # plain fields

    def declared(self, names: Iterable[str], present: AbstractSet[str]) -> Side:
        """This side with `names` declared exactly when `present` has them."""
        if self.known is None:
            return self
        named = set(names)
        return replace(self, known=(self.known - named) | (named & present))

    def edited(
        self,
        drop: str = "",
        add: Member | None = None,
        lost: Iterable[Any] = (),
        gained: Iterable[Any] = (),
        **discriminator: Any,
    ) -> Side:
        """This side with one change of its union: member `drop` gone, `add` added (in
        place of the member of its field), the discriminator's enum losing `lost` and
        gaining `gained`, or the discriminator's own facts changed."""
        u = self.union
        assert u is not None
        members = [m for m in u.members if m.field not in (drop, add.field if add else drop)]
        disc = u.discriminator
        if disc is not None and disc.values is not None:
            kept = [v for v in disc.values if v not in set(lost)]
            disc = replace(disc, values=(*kept, *sorted(set(gained) - set(kept))))
        if disc is not None and discriminator:
            disc = replace(disc, **discriminator)
        members += [add] if add is not None else []
        return replace(self, union=replace(u, discriminator=disc, members=tuple(members)))


def _value_fields(sides: Sequence[Side]) -> dict[str, list[Any]]:
    """The fields that hold values (a discriminator, an enum field) with every value a
    side names: its enum, its members' values, its default."""
    out: dict[str, list[Any]] = {}

    def add(name: str, values: Sequence[Any]) -> None:
        known = out.setdefault(name, [])
        known.extend(v for v in values if v is not ABSENT and v not in known)

    for s in sides:
        for name, values in s.enums.items():
            add(name, values)
        u = s.union
        if u is not None and u.discriminator is not None:
            d = u.discriminator
            add(d.field, [*(d.values or ()), *(m.value for m in u.members), d.default])
    return out


def _others(values: Sequence[Any]) -> list[Any]:
    """Values no side names, of the values' JSON type: what a field without enum (or
    with another enum) takes. A string field also takes `""`, which reads as unset."""
    if all(isinstance(v, str) for v in values):
        names = (f"other{i}" if i else "other" for i in range(len(values) + 1))
        return [next(c for c in names if c not in values), ""]
    if all(isinstance(v, bool) for v in values):
        return [b for b in (True, False) if b not in values]
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return [max(values) + 1]
    return []


def states(sides: Sequence[Side]) -> tuple[list[str], list[list[Any]]]:
    """The union's fields over every side (value fields first) and each field's states:
    left out first, then the values the sides name, then those they do not."""
    valued = _value_fields(sides)
    fields = sorted(valued)
    out: list[list[Any]] = []
    for name in fields:
        named = sorted((v for v in valued[name] if v != ""), key=repr)
        out.append([ABSENT, *named, *_others(named)])
    kinds = {m.field: m.kind for s in reversed(sides) if s.union for m in s.union.members}
    for name in sorted(kinds.keys() - set(fields)):
        fields.append(name)
        out.append([ABSENT, set_value(kinds[name])])
    return fields, out


def _within(i: int, values: Sequence[Any]) -> Condition:
    """Field `i` is left out or holds one of `values`."""

    def holds(a: Mapping[int, Any]) -> bool:
        return a[i] is ABSENT or a[i] in values

    return Condition(frozenset({i}), holds)


def _present(i: int) -> Condition:
    def holds(a: Mapping[int, Any]) -> bool:
        return a[i] is not ABSENT

    return Condition(frozenset({i}), holds)


def _negated(t: Condition) -> Condition:
    def holds(a: Mapping[int, Any]) -> bool:
        return not t.holds(a)

    return Condition(t.reads, holds)


def tests(side: Side, fields: Sequence[str]) -> list[Condition]:
    """The side's verdict on the objects over `fields`, as a conjunction of tests that
    each read a few fields."""
    at = {f: i for i, f in enumerate(fields)}
    out: list[Condition] = []
    for name, i in at.items():
        if side.known is not None and name not in side.known:
            out.append(_within(i, ()))
    u = side.union
    disc = u.discriminator if u is not None else None
    for name in sorted(side.required & at.keys()):
        out.append(_present(at[name]))
    for name, values in side.enums.items():
        if name in at and (disc is None or name != disc.field):
            out.append(_within(at[name], values))
    if u is None:
        return out
    members = [(m, at[m.field]) for m in u.members if m.field in at]
    if disc is None or u.family == "kep2019":
        limit = "exactly-one" if u.mode == "exactly-one" else "at-most-one"
        idx = [i for _, i in members]

        def count(a: Mapping[int, Any], idx: list[int] = idx, limit: str = limit) -> bool:
            n = sum(a[i] is not ABSENT for i in idx)
            return n == 1 if limit == "exactly-one" else n <= 1

        if idx:
            out.append(Condition(frozenset(idx), count))
    if disc is None:
        return out
    d = at[disc.field]

    def value(a: Mapping[int, Any], d: int = d, disc: Discriminator = disc) -> Any:
        return disc.default if a[d] is ABSENT else a[d]

    def disc_ok(a: Mapping[int, Any], disc: Discriminator = disc) -> bool:
        v = value(a)
        if v is ABSENT:
            return not disc.required
        if disc.values is not None:
            return v in disc.values
        return not (disc.required and v == "")

    out.append(Condition(frozenset({d}), disc_ok))
    if u.family == "kep2019":
        # the discriminator the client sets (`""` reads as unset) agrees with the one
        # member set
        def agrees(a: Mapping[int, Any]) -> bool:
            chosen = [m for m, i in members if a[i] is not ABSENT]
            return a[d] in (ABSENT, "") or len(chosen) != 1 or chosen[0].value == a[d]

        out.append(Condition(frozenset({d, *(i for _, i in members)}), agrees))
        return out
    for m, i in members:

        def member_ok(a: Mapping[int, Any], m: Member = m, i: int = i) -> bool:
            v = value(a)
            selected = ("" if v is ABSENT else v) == m.value
            if selected:
                return m.optional or a[i] is not ABSENT
            return a[i] is ABSENT

        out.append(Condition(frozenset({d, i}), member_ok))
    return out


def refused(base: Side, head: Side) -> dict[str, Any] | None:
    """The first object `base` accepts and `head` refuses (None: there is none), in the
    order of the fields' states: left out first."""
    fields, space = states([base, head])
    accepted = tests(base, fields)
    found: list[tuple[int, ...]] = []
    for t in tests(head, fields):
        hit = first(space, [*accepted, _negated(t)])
        if hit is not None:
            found.append(hit)
    if not found:
        return None
    best = min(found)
    return {
        f: space[i][s]
        for i, (f, s) in enumerate(zip(fields, best, strict=True))
        if space[i][s] is not ABSENT
    }
