"""Classify the differences between two surfaces.

Every change names the definition, the JSON field (or None for a whole undiscriminated
union) and the values involved. "Breaking" means a client or a stored object that was
valid before can fail after the change; "compatible" means nothing that worked stops
working, although clients may need to learn something new (the message says what).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

from markergen.accept.compare import Member, Side, refused
from markergen.diff.surface import (
    Fact,
    MemberSurface,
    Stage,
    Surface,
    TypeSurface,
    UnionSurface,
    Where,
    default_value,
    family_of,
    json_values,
    namesake,
    pair_renamed,
    pair_unions,
)
from markergen.markers import K8S_ENUM

ChangeClass = Literal["breaking", "compatible", "not-compared"]
RATCHETING = (
    "the current KEP's ratcheting validation is not available, so a stored object that violates "
    "the union fails its next update until it is made valid"
)


# Declarative validation (+k8s: tags, validation-gen) replaces hand-written validation of
# built-in types field by field, with tests that both accept the same objects.
DECLARED = (
    "declarative validation takes over what the hand-written validation of this built-in "
    "type already checked, so nothing that worked starts failing; it is a break only if "
    "no such validation existed"
)
# Only Kubernetes' own types move from hand-written to declarative validation; a CRD or
# an aggregated API had nothing that checked the union before.
BUILT_IN = "k8s.io/api/"
NOT_BUILT_IN = (
    "this type is not a built-in Kubernetes type (k8s.io/api), so no hand-written "
    "validation checked these fields before: objects that set them against the new rule "
    "stop being accepted"
)


def built_in(package: str) -> bool:
    """A type of the k8s.io/api module, whose validation moves to declarative tags."""
    return package.startswith(BUILT_IN)


@dataclass(frozen=True, slots=True)
class Change:
    classification: ChangeClass
    kind: str
    type: str  # the OpenAPI definition name
    field: str | None  # JSON name
    message: str
    go_type: str = ""
    go_field: str = ""
    package: str = ""  # Go import path of the type (documents: the definition's prefix)
    file: str = ""  # HEAD side, else BASE side; "" when the side is a generated document
    line: int = 0
    stage: Stage = "ga"  # of the type's API version
    gate: str = ""  # marker_gate of the field, union or type
    # The Go position is on the base side: the thing is gone from the head. Annotations
    # (which only land on head lines) use the anchor instead: the type in the head.
    base: bool = False
    anchor_file: str = ""
    anchor_line: int = 0
    # A change seen in a CRD: the CRD's name, kind, version, schema node and position
    # (crd_base: the position is in the base side's file).
    crd: str = ""
    crd_kind: str = ""
    crd_version: str = ""
    crd_path: str = ""
    crd_file: str = ""
    crd_line: int = 0
    crd_base: bool = False
    # For a CRD change in a project whose Go types were compared too: whether a Go
    # change stands behind it (None: not asked, the diff had no Go sides).
    go_behind: bool | None = None
    # The rules the CRD change is about (head side, else base), to find them in the Go.
    crd_rules: tuple[str, ...] = ()
    # The head side's default of a CRD default change, as JSON text (None: no default).
    crd_default: str | None = None
    # The head side's enum of a CRD enum change, as JSON texts (() when it has none).
    crd_values: tuple[str, ...] | None = None
    # For a breaking CRD change: the part at `crd_path` of an object the base accepts
    # and the head rejects (its `crd_version`), as JSON text; None when there is none.
    crd_witness: str | None = None
    # The CRD check (markergen.diff.crdchecks) that reports the change, and whether its
    # level is `warning`: reported, never counted by `--fail-on`.
    crd_check: str = ""
    crd_warning: bool = False
    # For a breaking change of a Go union: the part of an object of the type (the union's
    # fields) that the base accepts and the head refuses, as JSON text
    # (markergen.accept.compare); None when there is none. Not in the JSON report, whose
    # shape is fixed (docs/diff.md).
    witness: str | None = None

    @property
    def breaking(self) -> bool:
        return self.classification == "breaking"

    @property
    def fails(self) -> bool:
        """A breaking change that `--fail-on breaking-any-stage` counts (not a warning)."""
        return self.breaking and not self.crd_warning

    @property
    def breaking_at_ga(self) -> bool:
        """What `--fail-on breaking` counts: a break of a GA version that no gate hides."""
        return self.fails and self.stage == "ga" and not self.gate

    @property
    def version(self) -> str:
        return self.package.rpartition("/")[2].rpartition(".")[2]

    def sort_key(self) -> tuple[int, str, str, str, str, str, str]:
        rank = {"breaking": 0, "compatible": 1, "not-compared": 2}[self.classification]
        return (
            rank,
            self.crd,
            self.type,
            self.crd_version,
            self.field or "",
            self.kind,
            self.message,
        )

    def to_json(self) -> dict[str, Any]:
        out = self._json_go()
        # on every entry, so a reader need not know that a missing key means false
        out["base"] = self.base
        if self.crd:
            out["crd"] = {
                "name": self.crd,
                "kind": self.crd_kind,
                "version": self.crd_version,
                "path": self.crd_path or None,
                "file": self.crd_file or None,
                "line": self.crd_line or None,
                "base": self.crd_base,
                "go_behind": self.go_behind,
                "witness": None if self.crd_witness is None else json.loads(self.crd_witness),
            }
            if self.crd_check:
                out["crd"]["check"] = self.crd_check
                out["crd"]["level"] = "warning" if self.crd_warning else "error"
        return out

    def _json_go(self) -> dict[str, Any]:
        return {
            "class": self.classification,
            "kind": self.kind,
            "type": self.type,
            "field": self.field,
            "message": self.message,
            "go_package": self.package,
            "go_type": self.go_type,
            "go_field": self.go_field or None,
            "file": self.file or None,
            "line": self.line or None,
            "stage": self.stage,
            "gate": self.gate or None,
        }


def _q(values: Iterable[str]) -> str:
    """Quoted names for a message; never an empty list."""
    listed = list(values)
    if not listed:
        return "(none)"
    return ", ".join(f'"{v}"' for v in listed)


def _json_list(values: Iterable[str]) -> str:
    """Enum values, already JSON texts; never an empty list."""
    return ", ".join(values) or "(no values)"


def _members(u: UnionSurface) -> str:
    names = [m.field for m in u.members]
    return f"members {_q(names)}" if names else "no marked members"


def _feature_gate(gate: str) -> str:
    """A gate of the field itself; a stage prefix comes with the marker it wraps, whose
    own change is reported (or listed as not compared) already."""
    return "" if gate.startswith(("k8s:alpha", "k8s:beta")) else gate


def _union_text(u: UnionSurface) -> str:
    """The union and its members, each said once."""
    if u.discriminator is None:
        return u.describe()
    return f"{u.describe()} ({_members(u)})"


def _packages(s: Surface) -> set[str]:
    return {t.group for t in s.types.values()}


def compare(base: Surface, head: Surface) -> list[Change]:
    facts = base.carries & head.carries
    out: list[Change] = []
    renamed = pair_renamed(base, head)
    gone_packages = _packages(base) - _packages(head)
    new_packages = _packages(head) - _packages(base)
    for name in sorted(base.types):
        b = base.types[name]
        if name in head.types:
            out += _TypeDiff(b, head.types[name], name, facts).run()
        elif name in renamed:
            out += _TypeDiff(b, head.types[renamed[name]], renamed[name], facts).run()
        elif b.group not in gone_packages and _compared(b, facts):
            out.append(_whole_type("removed", b, namesake(b, head)))
    renamed_to = set(renamed.values())
    for name in sorted(head.types):
        h = head.types[name]
        if name in base.types or name in renamed_to or h.group in new_packages:
            continue
        if _compared(h, facts):
            out.append(_whole_type("added", h))
    out += _whole_packages("removed", base, gone_packages, facts)
    out += _whole_packages("added", head, new_packages, facts)
    return sorted(out, key=Change.sort_key)


def _compared(t: TypeSurface, facts: frozenset[Fact]) -> bool:
    return bool(t.unions or (t.enums and "enums" in facts))


def _contents(t: TypeSurface) -> str:
    parts = []
    if t.unions:
        parts.append("1 union" if len(t.unions) == 1 else f"{len(t.unions)} unions")
    if t.enums:
        parts.append(f"enum properties {_q(sorted(t.enums))}")
    return " and ".join(parts)


def _locate(t: TypeSurface, kind: str, cls: ChangeClass, message: str) -> Change:
    return Change(
        cls,
        kind,
        t.name,
        None,
        message,
        go_type=t.go_name,
        package=t.package,
        file=t.pos.file if t.pos else "",
        line=t.pos.line if t.pos else 0,
        stage=t.stage,
        gate=t.gate,
    )


def _whole_type(how: str, t: TypeSurface, namesake: str = "") -> Change:
    if how == "removed":
        also = (
            f"; a type {t.go_name} with the same properties exists in {namesake}: if this "
            "version now uses it, the wire format is unchanged, but Go clients of this "
            "package break"
            if namesake
            else ""
        )
        return _locate(
            t,
            "type-removed",
            "breaking",
            f"type {t.go_name} with {_contents(t)} is gone from its package (no type of the "
            "same package with the same properties replaces it): clients and stored objects "
            f"that use it break{also}",
        )
    return _locate(t, "type-added", "compatible", f"new type {t.go_name} with {_contents(t)}")


def _whole_packages(
    how: str, side: Surface, packages: set[str], facts: frozenset[Fact]
) -> list[Change]:
    """A package version that disappeared (or appeared) is one entry listing its types."""
    out = []
    for group in sorted(packages):
        types = sorted(
            (t for t in side.types.values() if t.group == group and _compared(t, facts)),
            key=lambda t: t.go_name,
        )
        if not types:
            continue
        package = types[0].package
        first = min(types, key=lambda t: (t.pos.file, t.pos.line) if t.pos else ("", 0))
        names = ", ".join(t.go_name for t in types)
        if how == "removed":
            change = _locate(
                first,
                "package-removed",
                "breaking",
                f"package {package} is gone with {len(types)} type(s) that carry unions or "
                f"enums: {names}",
            )
        else:
            change = _locate(
                first,
                "package-added",
                "compatible",
                f"new package {package} with {len(types)} type(s) that carry unions or "
                f"enums: {names}",
            )
        # Reported under the definitions' common prefix (`type` is a definition name).
        out.append(replace(change, type=group, go_type="", gate=""))
    return out


def _dialect_message(b: UnionSurface, h: UnionSurface) -> str:
    renamed = [
        f'"{m.field}": "{m.value}" -> "{hm.value}"'
        for m in b.members
        if (hm := h.member(m.field)) is not None and hm.value != m.value
    ]
    if family_of(h.dialect) == "kep1027":
        text = (
            f"{h.describe()} moves from the 2019 design (the 2019 KEP) to the current KEP: the server "
            "normalizes only on update and only when the discriminator changes (clearing "
            "every member but the selected one), and no longer sets the discriminator from "
            "the member a client set"
        )
        d = h.discriminator
        if d is not None:
            text += "; the discriminator " + ("is required" if d.required else "stays optional")
            if d.values:
                text += f" and must be one of {_q(d.values)}"
        text += "; member values change from Go field names to enum values"
    else:
        text = (
            f"{h.describe()} moves from the current KEP back to the 2019 design (the 2019 KEP): the "
            "server deduces the discriminator from the member set and member values become "
            "Go field names"
        )
    if renamed:
        text += " (" + "; ".join(renamed) + ")"
    return text


class _TypeDiff:
    def __init__(self, b: TypeSurface, h: TypeSurface, name: str, facts: frozenset[Fact]):
        self.b = b
        self.h = h
        self.name = name
        self.facts = facts
        self.out: list[Change] = []

        self.union_gate = ""
        self.union_pos: Where | None = None
        self.union_base = False
        # the base side of the union pair being compared (markergen.accept.compare)
        self.base = Side(None)

    def add(
        self,
        cls: ChangeClass,
        kind: str,
        field: str | None,
        message: str,
        witness: dict[str, Any] | None = None,
    ) -> None:
        """Records a change where a reviewer looks for it: the field on the HEAD side,
        else on the BASE side, else the union's marker, else the type."""
        detail = None
        on_base = False
        if field is not None:
            detail = self.h.details.get(field)
            if detail is None:
                detail = self.b.details.get(field)
                on_base = detail is not None and detail.pos is not None
        pos = detail.pos if detail is not None and detail.pos else None
        if pos is None and self.union_pos is not None:
            pos = self.union_pos
            on_base = self.union_base
        if pos is None:
            pos = self.h.pos or self.b.pos
            on_base = self.h.pos is None and self.b.pos is not None
        gate = (detail.gate if detail is not None else "") or self.union_gate or self.h.gate
        self.out.append(
            Change(
                cls,
                kind,
                self.name,
                field,
                message,
                go_type=self.h.go_name,
                go_field=detail.go_name if detail is not None else "",
                package=self.h.package,
                file=pos.file if pos else "",
                line=pos.line if pos else 0,
                stage=self.h.stage,
                gate=gate,
                base=on_base,
                anchor_file=self.h.pos.file if on_base and self.h.pos else "",
                anchor_line=self.h.pos.line if on_base and self.h.pos else 0,
                witness=None if witness is None else json.dumps(witness, sort_keys=True),
            )
        )

    def in_union(self, *unions: UnionSurface, base: UnionSurface | None = None) -> None:
        """The union a change is about: the head's when there is one; `base` is the
        base side's union when the head has none (a removed union)."""
        self.union_gate = next((u.gate for u in unions if u.gate), "")
        self.union_pos = next((u.pos for u in unions if u.pos), None)
        self.union_base = False
        if self.union_pos is None and base is not None:
            self.union_gate = base.gate
            self.union_pos = base.pos
            self.union_base = base.pos is not None

    def run(self) -> list[Change]:
        pairs, removed, added = pair_unions(self.b, self.h)
        # A union of an inlined struct is reported once, by that struct's own definition.
        pairs = [(bu, hu) for bu, hu in pairs if not (bu.inherited and hu.inherited)]
        removed = [u for u in removed if not u.inherited]
        added = [u for u in added if not u.inherited]
        for bu, hu in pairs:
            self.in_union(hu, bu)
            self.union(bu, hu)
        for u in removed:
            self.in_union(base=u)
            self.union_removed(u)
        for u in added:
            self.in_union(u)
            self.union_added(u)
        self.in_union()
        if "enums" in self.facts:
            self.enums()
        if "markers" in self.facts:
            self.markers()
        return self.out

    @staticmethod
    def _involved(t: TypeSurface) -> set[str]:
        """Properties that take part in a union or carry an enum."""
        out: set[str] = set(t.enums)
        for u in t.unions:
            out.update(m.field for m in u.members)
            if u.discriminator is not None:
                out.add(u.discriminator.field)
        return out

    def markers(self) -> None:
        """Union and enum markers the model does not read, and gates that change on a
        union or enum property, are listed, never dropped."""
        # On both sides: a gate that comes with a new union or enum is part of that change.
        involved = self._involved(self.b) & self._involved(self.h)
        for prop in sorted(self.b.details.keys() & self.h.details.keys()):
            old_gate = _feature_gate(self.b.details[prop].gate)
            new_gate = _feature_gate(self.h.details[prop].gate)
            if prop in involved and old_gate != new_gate:
                self.add(
                    "not-compared",
                    "gate-changed",
                    prop,
                    f'the gate of "{prop}" changes from {old_gate or "none"} to '
                    f"{new_gate or 'none'}: markergen does not classify a feature gate "
                    "added or removed (a feature graduating, or one put behind a gate); "
                    "review it by hand",
                )
            before = dict(self.b.details[prop].unmodelled)
            after = dict(self.h.details[prop].unmodelled)
            for text in sorted(before.keys() ^ after.keys()):
                where = after.get(text) or before[text]
                verb = "added" if text in after else "removed"
                self.out.append(
                    Change(
                        "not-compared",
                        "marker-not-compared",
                        self.name,
                        prop,
                        f"marker {text} {verb}: markergen does not model it, so this change "
                        "is not classified; review it by hand",
                        go_type=self.h.go_name,
                        go_field=self.h.details[prop].go_name,
                        package=self.h.package,
                        file=where.file,
                        line=where.line,
                        stage=self.h.stage,
                        gate=self.h.details[prop].gate,
                    )
                )

    # Every union and enum change is classed by the union engine (markergen.accept.compare):
    # breaking exactly when the base with that one change made refuses an object the base
    # accepts. The one change no object shows (the union's design) is a named rule.

    def side(self, u: UnionSurface | None, t: TypeSurface, *others: UnionSurface) -> Side:
        """What the API server enforces over `u`'s fields in type `t`: the union, the
        fields the schema declares, the fields the base requires (a change of that is no
        union change) and the enums of fields that discriminate on either side."""
        valued = {o.discriminator.field for o in (u, *others) if o and o.discriminator}
        return Side(
            None if u is None else u.engine(self.facts),
            t.fields if "fields" in self.facts else None,
            self.b.required,
            {f: json_values(t.enums[f]) for f in sorted(valued & t.enums.keys())},
        )

    def known(self, side: Side, *names: str) -> Side:
        """`side` with `names` declared as the head declares them."""
        return side.declared(names, self.h.fields)

    def judged(
        self,
        kind: str,
        field: str | None,
        after: Side,
        message: str | tuple[str, str],
        before: Side | None = None,
        shown: bool = True,
    ) -> None:
        """Adds the change, breaking exactly when `after` refuses an object `before` (the
        base union) accepts; that object is the witness when `shown`. A pair of messages
        is (if breaking, if compatible)."""
        witness = refused(before or self.base, after)
        text = message if isinstance(message, str) else message[witness is None]
        cls: ChangeClass = "compatible" if witness is None else "breaking"
        self.add(cls, kind, field, text, witness if shown else None)

    # whole unions

    def union_removed(self, u: UnionSurface) -> None:
        d = u.discriminator
        before = self.side(u, self.b)
        gone = sorted(f for f in _fields(u) if "fields" in self.facts and f not in self.h.fields)
        message = (
            f"{_union_text(u)} was removed together with its field(s) "
            f"{_q(gone)}: clients that set them send fields the schema no longer has, "
            "and stored values are dropped"
            if gone
            else f"{_union_text(u)} was removed, its fields stay: stored "
            "objects stay valid, but clients lose normalization and validation: the server "
            "no longer clears the other members when the selection changes, nor rejects "
            "objects with several members set"
        )
        after = self.known(replace(before, union=None), *_fields(u))
        self.judged("union-removed", d.field if d else None, after, message, before)

    def union_added(self, u: UnionSurface) -> None:
        d = u.discriminator
        touched = [m.field for m in u.members] + ([d.field] if d and d.required else [])
        existing = sorted(f for f in touched if f in self.b.fields)
        after = self.side(u, self.h)
        # A field the base does not declare is refused there: no stored object sets it.
        before = replace(after, union=None, known=None if after.known is None else self.b.fields)
        if u.dialect == "k8s" and existing and built_in(self.h.package):
            # Declarative validation replaces the hand-written validation of a built-in
            # type, which (its tests hold) accepted the same objects: the base enforced
            # the union already, without the tags.
            message = (
                f"existing fields {_q(existing)} are declared a {u.describe()} with "
                f"+k8s: tags: {DECLARED}"
            )
            self.judged("union-declared", None, after, message, replace(before, union=after.union))
            return
        why = NOT_BUILT_IN if u.dialect == "k8s" else f"breaking for stored objects: {RATCHETING}"
        self.judged(
            "union-added",
            d.field if d else None,
            after,
            (
                f"new {u.describe()} over existing fields {_q(existing)}: {why}"
                if existing
                else f"new {_union_text(u)} over new fields: an object of the base sets none "
                "of them, and the union requires one",
                f"new {_union_text(u)} over new fields: no stored object sets them",
            ),
            before,
        )

    # one union in both versions

    def union(self, b: UnionSurface, h: UnionSurface) -> None:
        bd, hd = b.discriminator, h.discriminator
        field = hd.field if hd else (bd.field if bd else None)
        if (
            "dialect" in self.facts
            and family_of(b.dialect) is not None
            and family_of(h.dialect) is not None
            and family_of(b.dialect) != family_of(h.dialect)
        ):
            # Named rule: the families differ in what the server does to an object (who
            # sets the discriminator, when members are cleared), which no verdict shows.
            self.add("breaking", "union-dialect-changed", field, _dialect_message(b, h))
        base = self.side(b, self.b, h)
        assert base.union is not None
        # The other changes are judged under the head's semantics: a member value moving
        # from a Go field name to an enum value refuses what the 2019 design took.
        bu = replace(base.union, family=family_of(h.dialect) or base.union.family)
        self.base = base = replace(base, union=bu)
        mode = h.mode if "mode" in self.facts else bu.mode
        compare_values = False
        if bd is None and hd is None:
            if "mode" in self.facts and b.mode != h.mode:
                self.judged(
                    "union-mode-changed",
                    None,
                    replace(base, union=replace(bu, mode=h.mode)),
                    (
                        f"{h.describe()} changes from {b.mode} to {h.mode}: objects with no "
                        "member set become invalid",
                        f"{h.describe()} changes from {b.mode} to {h.mode}",
                    ),
                )
        elif bd is not None and hd is None:
            after = replace(base, union=replace(bu, discriminator=None, mode=mode))
            self.judged(
                "discriminator-removed",
                bd.field,
                self.known(after, bd.field),
                f'field "{bd.field}" stays but no longer discriminates the union of '
                f"{_members(h)}: the server stops checking that it matches the member "
                "set and stops clearing members when it changes (validation relaxed)"
                if "fields" in self.facts and bd.field in self.h.fields
                else f'discriminator "{bd.field}" of {b.describe()} was removed: clients that '
                "set it to select a member send a field the schema no longer has",
            )
        elif bd is None and hd is not None:
            # a member that becomes the discriminator leaves the members (its own change)
            union = replace(
                bu,
                discriminator=h.engine(self.facts).discriminator,
                members=tuple(m for m in bu.members if m.field != hd.field),
                mode=mode,
            )
            self.judged(
                "discriminator-added",
                hd.field,
                self.known(replace(base, union=union), hd.field),
                (
                    f'the {h.describe()} gains discriminator "{hd.field}": objects that leave '
                    "it out or set a member it does not select fail",
                    f'the {h.describe()} gains discriminator "{hd.field}" (optional)',
                ),
            )
        elif bd is not None and hd is not None:
            compare_values = self.discriminator(b, h)
        self.members(b, h, compare_values)

    def discriminator(self, b: UnionSurface, h: UnionSurface) -> bool:
        """Compares the discriminators; says whether their enum values are comparable."""
        bd, hd = b.discriminator, h.discriminator
        union = self.base.union
        assert bd is not None and hd is not None and union and union.discriminator

        if bd.field != hd.field:
            self.judged(
                "discriminator-renamed",
                hd.field,
                self.known(self.base.edited(field=hd.field), bd.field, hd.field),
                f'discriminator "{bd.field}" renamed to "{hd.field}" ({_members(h)}): '
                f'clients that send "{bd.field}" send a field the schema no longer has',
            )
        if bd.required != hd.required:
            self.judged(
                f"discriminator-{'optional-to-required' if hd.required else 'required-to-optional'}",
                hd.field,
                self.base.edited(required=hd.required),
                f'discriminator "{hd.field}" becomes required: objects and clients that omit '
                f"it fail validation ({RATCHETING})"
                if hd.required
                else f'discriminator "{hd.field}" becomes optional',
            )
        if "defaults" in self.facts and bd.default != hd.default:
            self.judged(
                "discriminator-default-changed",
                hd.field,
                self.base.edited(default=default_value(hd.default)),
                f'default of discriminator "{hd.field}" changes from '
                f"{'none' if bd.default is None else _q([bd.default])} to "
                f"{'none' if hd.default is None else _q([hd.default])}"
                + ("" if bd.default is None else ": clients that omit it get another selection"),
            )
        if not bd.values and hd.values:
            self.judged(
                "discriminator-enum-added",
                hd.field,
                self.base.edited(values=hd.values),
                f'discriminator "{hd.field}" now only accepts {_q(hd.values)}; any string was '
                "accepted before",
            )
        elif bd.values and not hd.values:
            self.judged(
                "discriminator-enum-removed",
                hd.field,
                self.base.edited(values=None),
                f'discriminator "{hd.field}" no longer restricts its values (was {_q(bd.values)})',
            )
        return bool(bd.values and hd.values)

    def edited(self, drop: str = "", add: MemberSurface | None = None, **changes: Any) -> Side:
        """The base union with one change made (`Side.edited`), its fields declared as
        the head declares them."""
        member = None if add is None else Member(add.field, add.value, add.optional, add.kind)
        after = self.base.edited(drop, member, **changes)
        return self.known(after, drop, add.field if add else drop)

    def members(self, b: UnionSurface, h: UnionSurface, compare_values: bool) -> None:
        bd, hd = b.discriminator, h.discriminator
        bm = {m.field: m for m in b.members}
        hm = {m.field: m for m in h.members}
        head_values = set(hd.values) if hd is not None else set()
        explained: set[str] = set()
        for name in sorted(bm.keys() & hm.keys()):
            old, new = bm[name], hm[name]
            if old.value != new.value and not (bd is None and hd is None):
                explained.update((old.value, new.value))
                self.judged(
                    "member-renamed",
                    name,
                    self.edited(add=new, lost={old.value} - head_values, gained=[new.value]),
                    f'member "{name}" is now selected by "{new.value}" instead of '
                    f'"{old.value}": clients that send "{old.value}" no longer select it',
                )
            if bd is not None and hd is not None:
                self.optional_change(old, new)
        new_by_value = {m.value: m for f, m in sorted(hm.items()) if f not in bm}
        paired_new: set[str] = set()
        for name in sorted(bm.keys() - hm.keys()):
            old = bm[name]
            explained.add(old.value)
            moved = new_by_value.get(old.value)
            if moved is not None and (bd is not None or hd is not None):
                paired_new.add(moved.field)
                self.judged(
                    "member-renamed",
                    moved.field,
                    self.edited(drop=name, add=replace(moved, optional=old.optional)),
                    f'the member selected by "{old.value}" moves from field "{name}" to '
                    f'"{moved.field}": clients that set "{name}" no longer select it',
                )
                if bd is not None and hd is not None:
                    self.optional_change(old, moved)
                continue
            why = f'; its value "{old.value}" is gone'
            if hd is not None and old.value in hd.values:
                why = f'; "{old.value}" now selects no member'
            self.judged(
                "member-removed",
                name,
                self.edited(drop=name, lost={old.value} - head_values),
                f'"{name}" is no longer a member of {h.describe()}{why if bd else ""}',
            )
        for name in sorted(hm.keys() - bm.keys() - paired_new):
            new = hm[name]
            explained.add(new.value)
            with_value = f' with its value "{new.value}"' if hd is not None else ""
            self.judged(
                "member-added",
                name,
                self.edited(add=new, gained={new.value} & head_values),
                (
                    f'existing field "{name}" joins {h.describe()}: stored objects that set it '
                    f"together with another member fail: {RATCHETING}"
                    if "fields" in self.facts and name in self.b.fields
                    else f'"{new.value}" used to select no member; objects with that value now '
                    f'need "{name}" set',
                    f'"{name}" added to {h.describe()}{with_value}',
                ),
            )
        if compare_values and hd is not None and bd is not None:
            for v in sorted(set(bd.values) - set(hd.values) - explained):
                self.judged(
                    "enum-value-removed",
                    hd.field,
                    self.edited(lost=[v]),
                    f'discriminator "{hd.field}" no longer accepts "{v}"',
                )
            for v in sorted(set(hd.values) - set(bd.values) - explained):
                self.judged(
                    "enum-value-added",
                    hd.field,
                    self.edited(gained=[v]),
                    f'discriminator "{hd.field}" accepts the new value "{v}", which selects no '
                    "member",
                )

    def optional_change(self, old: MemberSurface, new: MemberSurface) -> None:
        if old.optional != new.optional:
            self.judged(
                f"member-{'required-to-optional' if new.optional else 'optional-to-required'}",
                new.field,
                self.edited(add=replace(old, optional=new.optional)),
                f'member "{new.field}" may now be unset when "{new.value}" is selected'
                if new.optional
                else f'member "{new.field}" must now be set when "{new.value}" is selected',
            )

    # enums of other properties

    def enums(self) -> None:
        skip = self.b.discriminators() | self.h.discriminators()
        # properties of inlined structs are reported by the inlined struct itself
        skip |= self.b.inherited & self.h.inherited
        for prop in sorted((self.b.enums.keys() | self.h.enums.keys()) - skip):
            old = self.b.enums.get(prop)
            new = self.h.enums.get(prop)
            if old is not None and new is not None:
                for v in sorted(set(old) - set(new)):
                    self.enum(
                        "enum-value-removed",
                        prop,
                        old,
                        [x for x in old if x != v],
                        f'"{prop}" no longer accepts {v}: stored objects and clients that use '
                        "it fail validation",
                    )
                for v in sorted(set(new) - set(old)):
                    self.enum(
                        "enum-value-added",
                        prop,
                        old,
                        [*old, v],
                        f'"{prop}" accepts the new value {v}; clients that assume they know '
                        "every value must handle it",
                    )
            elif new is not None and prop in self.b.fields:
                source = self.h.enum_sources.get(prop, "")
                if source == "enum":
                    # +enum is read by openapi-gen only: the API server enforces nothing
                    message = (
                        f'existing field "{prop}" documents its values {_json_list(new)} with '
                        "+enum, which only openapi-gen reads: the API server does not "
                        "enforce it, so no request that worked starts failing"
                    )
                    self.enum("enum-declared", prop, None, None, message)
                elif source == K8S_ENUM and built_in(self.h.package):
                    # the hand-written validation it replaces enforced the same values
                    message = (
                        f'existing field "{prop}" declares its values {_json_list(new)} with '
                        f"+k8s:enum: {DECLARED}"
                    )
                    self.enum("enum-declared", prop, new, new, message)
                else:
                    message = (
                        f'existing field "{prop}" now only accepts {_json_list(new)}: values '
                        "that were accepted before fail validation"
                    )
                    self.enum("enum-added", prop, None, new, message)
            elif old is not None and prop in self.h.fields:
                message = f'"{prop}" no longer restricts its values (was {_json_list(old)})'
                self.enum("enum-removed", prop, old, None, message)

    def enum(
        self,
        kind: str,
        prop: str,
        before: Iterable[str] | None,
        after: Iterable[str] | None,
        message: str,
    ) -> None:
        """A change of a plain property's enforced enum (None: none), judged without a
        witness: the enum may be on the property's list items or map values, whose shape
        the surface does not keep."""

        def side(values: Iterable[str] | None) -> Side:
            return Side(None, enums={} if values is None else {prop: json_values(values)})

        self.judged(kind, prop, side(after), message, side(before), shown=False)


def _fields(u: UnionSurface) -> list[str]:
    return ([u.discriminator.field] if u.discriminator else []) + [m.field for m in u.members]
