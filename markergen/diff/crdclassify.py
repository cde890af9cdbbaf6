"""Classify the changes between two sides of CRDs (`markergen.diff.crdsource.CrdSet`).

The rules are the Kubernetes API change conventions quoted in docs/diff.md: "Any API call
(e.g. a structure POSTed to a REST endpoint) that succeeded before your change must succeed
after your change". For a union that is a question with an exact answer: an object the
base accepted that the head rejects makes the change breaking, and the report shows that
object. The objects tried are those of `markergen.diff.crdsurface` (every combination of
the union's fields, over both sides' values), judged as the server judges them on each
side (defaults, `required`, `enum`, the rules, unknown fields pruned).

Only objects that set fields the base version knows count as witnesses of a stricter
union: a field that is new in the head was never sent by a client of the base.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markergen.accept.celeval import CelEvaluator
from markergen.accept.judge import (
    SAMPLE,
    Judge,
    Side,
    State,
    choices,
    first_accepted_rejected,
    first_of,
    gone,
    known_test,
    sample_value,
    set_test,
    unset_test,
    where,
)
from markergen.accept.space import ABSENT, Condition
from markergen.diff.classify import Change, ChangeClass
from markergen.diff.crdsource import CrdSet, CrdVersion
from markergen.diff.crdsurface import Node, NodeRule, UnionReading, nodes, readings
from markergen.diff.surface import version_stage
from markergen.yamlio import mapping_item


@dataclass(frozen=True, slots=True)
class Place:
    """Where a CRD change is shown: a version, a schema node, a property."""

    version: CrdVersion
    node: str  # shown schema path of the node ("" for the whole version)
    line: int
    base: bool  # the place is in the base side (the thing is gone from the head)


def _q(values: Iterable[str]) -> str:
    listed = list(values)
    return ", ".join(f'"{v}"' for v in listed) if listed else "(none)"


def _json_values(values: Iterable[object]) -> list[str]:
    return sorted({json.dumps(v, sort_keys=True) for v in values})


def _enum(prop: object) -> list[str] | None:
    """The enum of a property or of its items / map values, as JSON texts."""
    if not isinstance(prop, dict):
        return None
    for candidate in (prop, prop.get("items"), prop.get("additionalProperties")):
        if isinstance(candidate, dict) and isinstance(candidate.get("enum"), list):
            return _json_values(v for v in candidate["enum"] if v is not None)
    return None


class _Compare:
    def __init__(self, evaluator: CelEvaluator) -> None:
        self.judge = Judge(evaluator)
        self.out: list[Change] = []

    def add(
        self,
        cls: ChangeClass,
        kind: str,
        place: Place,
        field: str | None,
        message: str,
        rules: Sequence[str] = (),
        default: str | None = None,
        values: Sequence[str] | None = None,
        witness: object = None,
    ) -> None:
        """Record a change; `witness`: for a breaking change, the part at `place` of an
        object the base accepts and the head rejects (None: there is none)."""
        v = place.version
        subject = v.kind + (f".{place.node}" if place.node and place.node != "(root)" else "")
        self.out.append(
            Change(
                cls,
                kind,
                subject,
                field,
                message,
                go_type="",
                package=f"{v.group}/{v.version}",
                stage=version_stage(v.version),
                crd=v.name,
                crd_kind=v.kind,
                crd_version=v.version,
                crd_path=place.node,
                crd_file=v.file,
                crd_line=place.line,
                crd_base=place.base,
                crd_rules=tuple(rules),
                crd_default=default,
                crd_values=tuple(values) if values is not None else None,
                crd_witness=None if witness is None else json.dumps(witness, sort_keys=True),
            )
        )

    # -- versions ---------------------------------------------------------------------

    def crds(self, base: CrdSet, head: CrdSet) -> list[Change]:
        for key in sorted(set(base.versions) | set(head.versions)):
            b, h = base.versions.get(key), head.versions.get(key)
            if b is not None and h is None:
                self.version_gone(b)
            elif h is not None and b is None:
                self.add(
                    "compatible",
                    "version-added",
                    Place(h, "", h.line, False),
                    None,
                    f"new version {h.version} of {h.name}" + ("" if h.served else " (not served)"),
                )
            elif b is not None and h is not None:
                self.version(b, h)
        return self.out

    def version_gone(self, b: CrdVersion) -> None:
        place = Place(b, "", b.line, True)
        if b.served:
            self.add(
                "breaking",
                "version-removed",
                place,
                None,
                f"served version {b.version} of {b.name} is gone: clients of "
                f"{b.group}/{b.version} fail, and objects stored in it can no longer be "
                "read in it",
                witness=sample_value(b.schema),
            )
        else:
            self.add(
                "compatible",
                "version-removed",
                place,
                None,
                f"version {b.version} of {b.name}, not served, is gone",
            )

    def version(self, b: CrdVersion, h: CrdVersion) -> None:
        place = Place(h, "", h.line, False)
        if b.served and not h.served:
            self.add(
                "breaking",
                "version-unserved",
                place,
                None,
                f"version {h.version} of {h.name} is no longer served: clients of "
                f"{h.group}/{h.version} fail",
                witness=sample_value(b.schema),
            )
        elif h.served and not b.served:
            self.add(
                "compatible",
                "version-served",
                place,
                None,
                f"version {h.version} is now served",
            )
        if b.storage != h.storage:
            self.add(
                "compatible",
                "storage-version-changed",
                place,
                None,
                f"version {h.version} "
                + (
                    "becomes the storage version"
                    if h.storage
                    else "is no longer the storage version"
                )
                + ": objects are stored in the new storage version from now on; "
                "existing ones keep theirs until rewritten (a storage migration)",
            )
        if b.deprecated != h.deprecated:
            self.add(
                "compatible",
                "version-deprecated" if h.deprecated else "version-undeprecated",
                place,
                None,
                f"version {h.version} is "
                + ("deprecated: clients get a warning" if h.deprecated else "no longer deprecated"),
            )
        if b.served and h.served:
            self.schemas(b, h)

    # -- schema nodes -----------------------------------------------------------------

    def schemas(self, b: CrdVersion, h: CrdVersion) -> None:
        bnodes = {n.path: n for n in nodes(b.schema)}
        hnodes = {n.path: n for n in nodes(h.schema)}
        for path in sorted(set(bnodes) | set(hnodes), key=lambda p: [str(x) for x in p]):
            bn, hn = bnodes.get(path), hnodes.get(path)
            if bn is not None and hn is not None:
                self.properties(h, bn, hn)
                self.unions(b, h, bn, hn)
            elif hn is not None:
                self.node_alone(h, hn, added=True)
            elif bn is not None:
                self.node_alone(b, bn, added=False)

    def node_alone(self, v: CrdVersion, n: Node, *, added: bool) -> None:
        """A node on one side only: its fields are new (or gone) with it. A client of
        the base that sets them is refused under strict field validation (kubectl's
        default) by a head that no longer declares them."""
        for u in readings(n)[0]:
            line = v.line_of((*n.path, "x-kubernetes-validations", u.rules[0].index))
            place = Place(v, n.shown, line, not added)
            fields = _q(u.fields)
            if added:
                self.add(
                    "compatible",
                    "union-added",
                    place,
                    None,
                    f"new object {n.shown} with a union over {fields}: no stored object "
                    "sets these fields",
                    [r.rule for r in u.rules],
                )
            else:
                self.add(
                    "breaking",
                    "union-removed",
                    place,
                    None,
                    f"object {n.shown} is gone with its union over {fields}: clients "
                    "that set these fields send fields the schema no longer has",
                    [r.rule for r in u.rules],
                    witness=self._accepted(n, u),
                )

    def _accepted(self, n: Node, u: UnionReading) -> dict[str, Any] | None:
        """An object of the union at `n` that sets one of its fields and that `n`
        accepts."""
        fields = list(u.fields)
        states = choices(fields, u.values)
        accepted = self.judge.tests(n, [r.rule for r in u.rules], fields)
        found = first_of(
            (where(fields, states, [*accepted, set_test(i)]) for i in range(len(fields))),
            fields,
            states,
        )
        return None if found is None else _object(n, found)

    def _holding(self, n: Node, name: str, value: object) -> dict[str, Any]:
        """An object at `n` whose property `name` holds `value` and that `n` accepts:
        where a union reads `name` (a discriminator), the first of the union's objects
        with that value that the union accepts (its member set), else `_with_value`."""
        for u in readings(n)[0]:
            if name not in u.fields or name not in u.values:
                continue
            fields = list(u.fields)
            states = choices(fields, u.values)
            i = fields.index(name)

            def holds_value(a: Mapping[int, Any], i: int = i) -> bool:
                return bool(a[i] == value)

            holds = Condition(frozenset({i}), holds_value)
            tests = self.judge.tests(n, [r.rule for r in u.rules], fields)
            found = where(fields, states, [*tests, holds])
            if found is not None:
                return _object(n, found)
        return _with_value(n, name, value)

    def properties(self, h: CrdVersion, bn: Node, hn: Node) -> None:
        for name in sorted(set(bn.properties) & set(hn.properties)):
            bp, hp = bn.properties[name], hn.properties[name]
            path = (*hn.path, "properties", name)
            place = Place(h, hn.shown, h.line_of(path), False)
            be, he = _enum(bp), _enum(hp)
            if he is not None:
                place = Place(h, hn.shown, _enum_line(h, path), False)
            if be is not None and he is not None:
                gone = [v for v in be if v not in he]
                new = [v for v in he if v not in be]
                if gone:
                    self.add(
                        "breaking",
                        "enum-value-removed",
                        place,
                        name,
                        f"enum value(s) {', '.join(gone)} removed: objects that use them "
                        "are rejected (valid values do not become invalid)",
                        values=he,
                        witness=self._holding(bn, name, json.loads(gone[0])),
                    )
                if new:
                    self.add(
                        "compatible",
                        "enum-value-added",
                        place,
                        name,
                        f"enum value(s) {', '.join(new)} added: clients that assume they "
                        "know every value must handle them",
                        values=he,
                    )
            elif be is None and he is not None:
                self.add(
                    "breaking",
                    "enum-added",
                    place,
                    name,
                    f"the field now only takes {', '.join(he)}: any other value that was "
                    "accepted is rejected",
                    values=he,
                    witness=_outside(bn, name, [json.loads(v) for v in he]),
                )
            elif be is not None and he is None:
                self.add(
                    "compatible",
                    "enum-removed",
                    place,
                    name,
                    "the field's enum is gone",
                    values=(),
                )
            self.default(place, name, bp, hp, bn, hn)

    def default(self, place: Place, name: str, bp: object, hp: object, bn: Node, hn: Node) -> None:
        bd = bp.get("default", _NONE) if isinstance(bp, dict) else _NONE
        hd = hp.get("default", _NONE) if isinstance(hp, dict) else _NONE
        if bd == hd:
            return
        shown = {
            k: json.dumps(v, sort_keys=True) for k, v in (("b", bd), ("h", hd)) if v is not _NONE
        }
        # The server defaults before it validates: a default given to a union's field
        # can make the union reject an object that leaves the field out.
        rejected = self._left_out_rejected(bn, hn, name)
        witness = None if rejected is None else _object(bn, rejected)
        now = (
            ""
            if rejected is None
            else f"; the union over {_q(f for f, _ in rejected)} rejects an object the base "
            f"accepts: {_describe(bn, rejected)}"
        )
        if bd is _NONE:
            self.add(
                "compatible" if rejected is None else "breaking",
                "default-added",
                place,
                name,
                f"default {shown['h']} added: objects that leave the field out get it{now}",
                default=shown["h"],
                witness=witness,
            )
        elif hd is _NONE:
            self.add(
                "breaking",
                "default-removed",
                place,
                name,
                f"default {shown['b']} removed: objects that leave the field out no longer "
                f"get it (the semantic meaning of default values changes){now}",
                witness=witness,
            )
        else:
            self.add(
                "breaking",
                "default-changed",
                place,
                name,
                f"default {shown['b']} changed to {shown['h']}: objects that leave the "
                f"field out get another value{now}",
                default=shown["h"],
                witness=witness,
            )

    def _left_out_rejected(self, bn: Node, hn: Node, name: str) -> State | None:
        """An object of a union over `name` that leaves `name` out, that the base
        accepts and the head rejects (each side applying its own defaults)."""
        for bus, hus in _merge(readings(bn)[0], readings(hn)[0]):
            fields = sorted({f for u in (*bus, *hus) for f in u.fields})
            if name not in fields:
                continue
            values: dict[str, set[str]] = {}
            for u in (*bus, *hus):
                for f, vs in u.values.items():
                    values.setdefault(f, set()).update(vs)
            brules = [r for u in bus for r in u.rules]
            hrules = [r for u in hus for r in u.rules]
            found = first_accepted_rejected(
                self.judge,
                fields,
                choices(fields, {f: sorted(v) for f, v in values.items()}),
                Side(bn, tuple(r.rule for r in brules)),
                Side(hn, tuple(r.rule for r in hrules)),
                [unset_test(fields.index(name))]
                + [known_test(bn, fields, i) for i in range(len(fields))],
            )
            if found is not None:
                return found
        return None

    # -- unions -----------------------------------------------------------------------

    def unions(self, b: CrdVersion, h: CrdVersion, bn: Node, hn: Node) -> None:
        bu, bother = readings(bn)
        hu, hother = readings(hn)
        for group in _merge(bu, hu):
            self.union(b, h, bn, hn, group)
        self.other_rules(b, h, bn, hn, bother, hother)

    def union(
        self,
        b: CrdVersion,
        h: CrdVersion,
        bn: Node,
        hn: Node,
        group: tuple[list[UnionReading], list[UnionReading]],
    ) -> None:
        bus, hus = group
        brules = [r for u in bus for r in u.rules]
        hrules = [r for u in hus for r in u.rules]
        fields = sorted({f for u in (*bus, *hus) for f in u.fields})
        if [r.rule for r in brules] == [r.rule for r in hrules] and (
            bn.required & set(fields) == hn.required & set(fields)
        ):
            # the same rules over fields required alike: the same verdicts (enum changes
            # are reported per field); a field of the union that becomes required (the
            # discriminator) makes the union stricter
            return
        values: dict[str, set[str]] = {}
        for u in (*bus, *hus):
            for f, vs in u.values.items():
                values.setdefault(f, set()).update(vs)
        bfields = sorted({f for u in bus for f in u.fields})
        hfields = sorted({f for u in hus for f in u.fields})
        place = (
            self._rules_place(h, hn, hrules)
            if hrules
            else self._rules_place(b, bn, brules, base=True)
        )
        states = choices(fields, {f: sorted(v) for f, v in values.items()})
        # an object that sets a field the base does not know: no base client sends it
        known = [known_test(bn, fields, i) for i in range(len(fields))]
        bside = Side(bn, tuple(r.rule for r in brules))
        hside = Side(hn, tuple(r.rule for r in hrules))
        added = [f for f in hfields if f not in bfields]
        removed = [f for f in bfields if f not in hfields]
        # A field the head no longer declares is refused under strict field validation
        # (kubectl's default) and dropped otherwise: never what the client sent, so the
        # object counts as rejected (a field removed is breaking). The witness of a member
        # removed must be refused for that reason: it sets the removed field, and (when
        # one exists) the head takes it once that field is dropped (the head's judge
        # prunes it), so no other change (an enum value removed with it) refuses it too.
        stricter: State | None = None
        if removed:
            btests = [*known, *self.judge.tests(bn, bside.rules, fields)]
            htests = self.judge.tests(hn, hside.rules, fields)
            dropped = [i for i, f in enumerate(fields) if f not in hn.properties]
            stricter = first_of(
                (where(fields, states, [*btests, *htests, set_test(i)]) for i in dropped),
                fields,
                states,
            ) or first_of(
                (where(fields, states, [*btests, set_test(i)]) for i in dropped), fields, states
            )
        if stricter is None:
            stricter = first_accepted_rejected(
                self.judge, fields, states, bside, hside, known, gone_rejects=True
            )
        looser = first_accepted_rejected(
            self.judge,
            fields,
            states,
            hside,
            bside,
            [*known, *(known_test(hn, fields, i) for i in range(len(fields)))],
        )
        what = _members_text(added, removed)
        if not brules:
            kind, text = "union-added", f"new union over {_q(hfields)}"
        elif not hrules:
            kind, text = "union-removed", f"the union over {_q(bfields)} is gone"
        elif added and not removed:
            kind, text = "member-added", f"union over {_q(hfields)}: {what}"
        elif removed and not added:
            kind, text = "member-removed", f"union over {_q(hfields)}: {what}"
        elif stricter is not None:
            kind, text = (
                "union-stricter",
                f"the union over {_q(hfields)} is stricter" + (f" ({what})" if what else ""),
            )
        elif looser is not None:
            kind, text = (
                "union-looser",
                f"the union over {_q(hfields)} is looser" + (f" ({what})" if what else ""),
            )
        else:
            if what:
                kind, text = "member-changed", f"union over {_q(hfields)}: {what}"
            else:
                return  # rewritten rules with the same meaning
        texts = [r.rule for r in (hrules or brules)]
        if stricter is not None:
            self.add(
                "breaking",
                kind,
                place,
                None,
                f"{text}: an object the base accepts is rejected now: "
                f"{_describe(bn, stricter)} ({_why(bn, hn, stricter)})",
                texts,
                witness=_object(bn, stricter),
            )
            return
        extra = (
            f": an object rejected before is accepted now: {_describe(hn, looser)}"
            if looser
            else ""
        )
        if kind == "union-removed":
            extra += "; clients lose the server's check that only one member is set"
        self.add("compatible", kind, place, None, f"{text}{extra}", texts)

    def _rules_place(
        self, v: CrdVersion, n: Node, rules: Sequence[NodeRule], base: bool = False
    ) -> Place:
        line = v.line_of((*n.path, "x-kubernetes-validations", rules[0].index))
        return Place(v, n.shown, line, base)

    def other_rules(
        self,
        b: CrdVersion,
        h: CrdVersion,
        bn: Node,
        hn: Node,
        bother: Sequence[NodeRule],
        hother: Sequence[NodeRule],
    ) -> None:
        """Rules that are not union readings, compared by their text: each one only
        the head has is added (at its head line), each one only the base has removed
        (at its base line)."""
        sides = (
            ("added", h, hn, hother, {r.rule for r in bother}, False),
            ("removed", b, bn, bother, {r.rule for r in hother}, True),
        )
        for how, v, n, rules, others, base in sides:
            for r in rules:
                if r.rule in others:
                    continue
                line = v.line_of((*n.path, "x-kubernetes-validations", r.index))
                self.add(
                    "not-compared",
                    f"rule-{how}",
                    Place(v, n.shown, line, base),
                    None,
                    f"rule {how} that markergen does not read as a union: {r.rule}",
                    [r.rule],
                )


_NONE = object()


def _members_text(added: Sequence[str], removed: Sequence[str]) -> str:
    parts = []
    if added:
        parts.append(f"{_q(added)} joined")
    if removed:
        parts.append(f"{_q(removed)} left")
    return ", ".join(parts)


def _enum_line(v: CrdVersion, path: tuple[str | int, ...]) -> int:
    """The line of the `enum:` key of the property at `path` (or of its items / values):
    an enum change is shown where the values are written."""
    node = v.document.node_at((*v.schema_at, *path))
    for via in ((), ("items",), ("additionalProperties",)):
        at = node
        for key in via:
            item = mapping_item(at, key) if at is not None else None
            at = item[1] if item is not None else None
        found = mapping_item(at, "enum") if at is not None else None
        if found is not None:
            return int(found[0].start_mark.line) + 1
    return v.line_of(path)


def _why(base: Node, head: Node, state: State) -> str:
    gone_ = gone(head, state)
    if not gone_:
        now = sorted(f for f, s in state if s is ABSENT and f in head.required - base.required)
        if now and not _has_default(head, now):
            return f"{_q(now)} required now: objects that leave it out are rejected"
        return "valid values do not become invalid"
    return (
        f"the schema no longer has {_q(gone_)}: the API server rejects the object under "
        "strict field validation, kubectl's default, and drops the field otherwise"
    )


def _has_default(node: Node, fields: Sequence[str]) -> bool:
    return any(
        isinstance(node.properties.get(f), dict) and "default" in node.properties[f] for f in fields
    )


def _object(node: Node, state: State) -> dict[str, Any]:
    """The object at `node` that `state` stands for, with the node's other required
    fields set to sample values (the judge takes them as set)."""
    out: dict[str, Any] = {}
    for field, s in state:
        if s is not ABSENT:
            out[field] = sample_value(node.properties.get(field)) if s is SAMPLE else s
    for field in sorted(node.required - set(out)):
        if field in node.properties and field not in dict(state):
            out[field] = sample_value(node.properties[field])
    return out


def _placed(prop: object, value: object) -> object:
    """`value` where a property holds it: itself, in a list, or in a map."""
    if isinstance(prop, dict) and not isinstance(prop.get("enum"), list):
        if isinstance(prop.get("items"), dict):
            return [value]
        if isinstance(prop.get("additionalProperties"), dict):
            return {"key": value}
    return value


def _with_value(node: Node, name: str, value: object) -> dict[str, Any]:
    """The object at `node` whose property `name` holds `value`, its other required
    fields set to sample values."""
    out = {
        f: sample_value(node.properties[f])
        for f in sorted(node.required)
        if f in node.properties and f != name
    }
    out[name] = _placed(node.properties.get(name), value)
    return out


def _outside(node: Node, name: str, values: Sequence[object]) -> dict[str, Any] | None:
    """An object at `node` whose property `name` holds a value the base accepts and
    none of `values`; None for a type whose values markergen does not make up."""
    prop = node.properties.get(name)
    inner = prop
    if isinstance(prop, dict) and not isinstance(prop.get("enum"), list):
        inner = prop.get("items") or prop.get("additionalProperties") or prop
    kind = inner.get("type") if isinstance(inner, dict) else None
    if kind == "string":
        value: object = next(
            c for c in (f"x{i}" if i else "x" for i in range(len(values) + 1)) if c not in values
        )
    elif kind == "integer":
        value = max([v for v in values if isinstance(v, int)] + [0]) + 1
    else:
        return None
    return _with_value(node, name, value)


def _describe(node: Node, state: State | None) -> str:
    if state is None:
        return "{}"
    parts = []
    for field, s in state:
        if s is ABSENT:
            continue
        value = sample_value(node.properties.get(field)) if s is SAMPLE else s
        parts.append(f'"{field}": {json.dumps(value, sort_keys=True)}')
    return "{" + ", ".join(parts) + "}"


def _merge(
    bus: Sequence[UnionReading], hus: Sequence[UnionReading]
) -> list[tuple[list[UnionReading], list[UnionReading]]]:
    """Base and head unions that share a field are compared together."""
    groups: list[tuple[set[str], list[UnionReading], list[UnionReading]]] = []
    for side, us in ((0, bus), (1, hus)):
        for u in us:
            fields = set(u.fields)
            joined = [g for g in groups if g[0] & fields]
            b: list[UnionReading] = [u] if side == 0 else []
            h: list[UnionReading] = [u] if side == 1 else []
            for g in joined:
                groups.remove(g)
                fields |= g[0]
                b = g[1] + b
                h = g[2] + h
            groups.append((fields, b, h))
    groups.sort(key=lambda g: sorted(g[0]))
    return [(g[1], g[2]) for g in groups]


def compare_crds(base: CrdSet, head: CrdSet, evaluator: CelEvaluator | None = None) -> list[Change]:
    """Every change between two sides of CRDs, unsorted."""
    return _Compare(evaluator or CelEvaluator()).crds(base, head)
