"""Go and CRD changes in one report.

In a kubebuilder project the same change is usually seen twice: in the Go types (a union
marker edited) and in the CRD controller-gen generated from them. Each CRD schema node is
mapped to the Go struct it was generated from (the CRD's kind in the package of its group
and version, then field by field, as `markergen crd` walks them), so a CRD change and the
Go change behind it become one entry with both positions. A CRD change with nothing behind
it in the Go (a hand edit of the CRD, or a CRD not regenerated after a Go change) is
flagged as such.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace

from markergen.crd.walk import flat_fields, resolve
from markergen.diff.classify import Change, ChangeClass
from markergen.diff.crdsource import CrdSet
from markergen.diff.modulemove import moved_key
from markergen.diff.surface import enum_values, type_name
from markergen.emit.naming import Naming
from markergen.markers import KUBEBUILDER_ENUM
from markergen.model import Field, Model, Struct
from markergen.model.lookup import FieldLookup, JSONField, model_lookup
from markergen.project.locate import root_type

_MAX_DEPTH = 64
_XVALIDATION = "kubebuilder:validation:XValidation"
_ENUM_KINDS = frozenset({"enum-value-added", "enum-value-removed", "enum-added", "enum-removed"})
_DEFAULT_KINDS = frozenset({"default-added", "default-removed", "default-changed"})


def _nodes_of(
    model: Model, lookup: FieldLookup, root: Struct, schema: object
) -> tuple[dict[str, Struct], dict[str, Field]]:
    """Shown schema path → the Go struct whose schema it is, and → the Go field whose
    schema it is (a property, and its items or values): the markers of both write the
    node's rules."""
    structs: dict[str, Struct] = {}
    fields: dict[str, Field] = {}
    _walk(model, lookup, root, schema, "(root)", 0, structs, fields)
    return structs, fields


def _walk(
    model: Model,
    lookup: FieldLookup,
    struct: Struct,
    node: object,
    shown: str,
    depth: int,
    structs: dict[str, Struct],
    fields: dict[str, Field],
) -> None:
    """`_nodes_of` below `node`. A module function, not a recursive closure over the
    model: that is a reference cycle, which keeps the model alive until the collector
    runs (tests/test_collector_pause.py says what that cost `generate`)."""
    if depth > _MAX_DEPTH or not isinstance(node, dict):
        return
    structs.setdefault(shown, struct)
    props = node.get("properties")
    if not isinstance(props, dict):
        return
    by_json = {jf.name: jf.field for jf in flat_fields(model, struct, lookup)}
    for name, sub in props.items():
        f = by_json.get(str(name))
        if f is None:
            continue
        path = f"{shown}.{name}" if shown != "(root)" else str(name)
        fields.setdefault(path, f)
        ref = resolve(model, f.type)
        sub_node: object = sub
        while ref.kind in ("slice", "array", "map") and ref.elem is not None:
            key = "additionalProperties" if ref.kind == "map" else "items"
            if not isinstance(sub_node, dict):
                break
            sub_node = sub_node.get(key)
            path += "{*}" if key == "additionalProperties" else "[*]"
            fields.setdefault(path, f)
            ref = resolve(model, ref.elem)
        if ref.kind == "named" and ref.type_key in model.structs:
            _walk(
                model,
                lookup,
                model.structs[ref.type_key],
                sub_node,
                path,
                depth + 1,
                structs,
                fields,
            )


class GoMap:
    """The Go struct of each CRD schema node of one side."""

    def __init__(
        self,
        model: Model,
        crds: CrdSet,
        naming: Naming,
        moved: tuple[str, str] | None = None,
        shown: str = "",
    ) -> None:
        self.model = model
        self.naming = naming
        # put before the model's file names, as the side's Go changes show them
        self.shown = shown
        # the base side of a module renamed (old path, new path): its types are named as
        # the head's, as the Go comparison names them
        self.moved = moved
        self.structs: dict[tuple[str, str, str], Struct] = {}
        self.fields: dict[tuple[str, str, str], Field] = {}
        self.lookup = model_lookup(model)
        for (group, kind, version), v in crds.versions.items():
            root = root_type(model, group, kind, version)
            if root is None:
                continue
            structs, fields = _nodes_of(model, self.lookup, root, v.schema)
            for shown, struct in structs.items():
                self.structs[(v.name, version, shown)] = struct
            for shown, f in fields.items():
                self.fields[(v.name, version, shown)] = f

    def has_node(self, c: Change) -> bool:
        """Whether the change's schema node is one this side maps to a Go struct."""
        return (c.crd, c.crd_version, c.crd_path or "(root)") in self.structs

    def struct_of(self, c: Change) -> Struct | None:
        """The struct of the change's node; for a rule on a scalar or list node, the
        struct that holds that field."""
        path = c.crd_path or "(root)"
        found = self.structs.get((c.crd, c.crd_version, path))
        while found is None and path != "(root)":
            if path.endswith(("[*]", "{*}")):
                path = path[:-3]
            else:
                path = path.rsplit(".", 1)[0] if "." in path else "(root)"
            found = self.structs.get((c.crd, c.crd_version, path))
        return found

    def package(self, c: Change) -> str:
        """The Go import path of the change's struct, as the Go comparison names it."""
        s = self.struct_of(c)
        if s is None:
            return ""
        key = moved_key(s.key, *self.moved) if self.moved is not None else s.key
        return key.rpartition(".")[0]

    def position(self, c: Change) -> tuple[str, int]:
        """Where the Go side writes the change: the field of a change about one field
        (its enum marker for an enum change), else the struct; ("", 0) when unmapped."""
        s = self.struct_of(c)
        if s is None:
            return "", 0
        jf = self._json_field(c)
        pos: object = s.pos
        if jf is not None:
            pos = jf.field.pos
            if c.kind in _ENUM_KINDS:
                marker = jf.field.marker(KUBEBUILDER_ENUM)
                pos = getattr(marker, "pos", None) or pos
        file = str(getattr(pos, "file", ""))
        line = int(getattr(pos, "line", 0))
        return (self.shown + file if file else ""), line

    def go_field(self, c: Change) -> str:
        jf = self._json_field(c)
        return jf.field.go_name if jf is not None else ""

    def definition(self, c: Change) -> str | None:
        s = self.struct_of(c)
        return self._name(s.key) if s is not None else None

    def _name(self, key: str) -> str:
        if self.moved is not None:
            key = moved_key(key, *self.moved)
        return type_name(key, self.naming)

    def owner(self, c: Change) -> str | None:
        """The definition of the struct that declares the change's field (a field
        promoted from an inlined struct is reported by that struct in Go)."""
        s = self.struct_of(c)
        if s is None or c.field is None:
            return None
        jf = next((j for j in flat_fields(self.model, s, self.lookup) if j.name == c.field), None)
        return self._name(jf.owner) if jf is not None else None

    def declares_default(self, c: Change, value: object) -> bool:
        """Whether the Go field of the change writes this default (`+kubebuilder:default=`
        or `+default=`); `_NO_DEFAULT`: writes none."""
        s = self.struct_of(c)
        if s is None or c.field is None:
            return False
        field = next(
            (jf.field for jf in flat_fields(self.model, s, self.lookup) if jf.name == c.field),
            None,
        )
        if field is None:
            return False
        found = [_marker_value(m.value) for m in field.markers if m.name in _DEFAULT_MARKERS]
        if value is _NO_DEFAULT:
            return not found
        return value in found

    def _json_field(self, c: Change) -> JSONField | None:
        s = self.struct_of(c)
        if s is None or c.field is None:
            return None
        return next((j for j in flat_fields(self.model, s, self.lookup) if j.name == c.field), None)

    def declares_enum(self, c: Change, values: Sequence[str]) -> bool:
        """Whether the Go field's enforced enum is the CRD's (JSON texts, sorted)."""
        jf = self._json_field(c)
        if jf is None:
            return False
        found = enum_values(self.model, jf.field)
        return (found[0] if found is not None else ()) == tuple(values)

    def declares_rules(self, c: Change, rules: Iterable[str]) -> bool:
        """Whether the Go struct of the change's node writes these rules itself
        (`+kubebuilder:validation:XValidation:rule=...` on the type or its fields)."""
        s = self.struct_of(c)
        if s is None:
            return False
        via = self.fields.get((c.crd, c.crd_version, c.crd_path or "(root)"))
        # the struct, the structs it inlines (their markers write the same node), their
        # fields, and the field whose schema the node is
        owners = {s.key: s}
        for jf in flat_fields(self.model, s, self.lookup):
            if jf.owner in self.model.structs:
                owners.setdefault(jf.owner, self.model.structs[jf.owner])
        markers = [
            m
            for o in owners.values()
            for m in (*o.markers, *(m for f in o.fields for m in f.markers))
        ]
        if via is not None:
            markers += via.markers
        texts = [m.raw.replace('\\"', '"') for m in markers if m.name.startswith(_XVALIDATION)]
        return all(any(r in t for t in texts) for r in rules)


_DEFAULT_MARKERS = ("kubebuilder:default", "default")
_NO_DEFAULT = object()


def _marker_value(text: str | None) -> object:
    """A default marker's value as JSON would read it (`"a"`, `a`, `{}`, `3`)."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def _family(kind: str) -> str:
    if kind in _ENUM_KINDS:
        return "enum"
    if kind in _DEFAULT_KINDS or kind == "discriminator-default-changed":
        return "default"
    return "rules"


def _go_family(kind: str) -> str:
    if kind.startswith("enum"):
        return "enum"
    if "default" in kind:
        return "default"
    return "rules"


_RANK = {"breaking": 0, "compatible": 1, "not-compared": 2}


def _stricter(crd: ChangeClass, go: ChangeClass) -> ChangeClass:
    """The merged class never lowers what either side says: a break seen in the Go (a
    field removed, which clients that still send it get pruned or refused under strict
    field validation) stays a break though the CRD reading calls the change compatible,
    and the other way round. A CRD change markergen could not read takes the Go class."""
    if "breaking" in (crd, go):
        return "breaking"
    return go if crd == "not-compared" else crd


def _go_facts(c: Change, mapping: GoMap, head_map: GoMap | None) -> Change:
    """A CRD change with nothing behind it in the Go still names the Go it maps to:
    import path, type, field and position (annotations land on the Go, and on the head's
    lines: a node gone from the head is anchored at the head's struct when it has one)."""
    s = mapping.struct_of(c)
    if s is None:
        return c
    file, line = mapping.position(c)
    base = mapping is not head_map
    anchor_file, anchor_line = "", 0
    if base and head_map is not None and head_map.struct_of(c) is not None:
        anchor_file, anchor_line = head_map.position(c)
    return replace(
        c,
        package=mapping.package(c),
        go_type=s.name,
        go_field=mapping.go_field(c),
        file=file,
        line=line,
        base=base and bool(file),
        anchor_file=anchor_file,
        anchor_line=anchor_line,
    )


def needs_base_model(c: Change, head_map: GoMap) -> bool:
    """Whether `merge` maps this CRD change to the Go by the base side's model: a change
    shown in the base at a node gone from the head (versions and storage are never
    mapped)."""
    return c.crd_base and not _unmapped(c) and not head_map.has_node(c)


def _unmapped(c: Change) -> bool:
    return c.kind.startswith("version") or c.kind.startswith("storage")


def merge(
    go: Sequence[Change],
    crd: Sequence[Change],
    head_map: GoMap | None,
    base_map: GoMap | None,
) -> list[Change]:
    """One list: a CRD change with the Go change behind it becomes one entry with both
    positions and the Go facts (import path, field, base side), of the stricter class of
    the two; one with none is flagged."""
    go_left = list(go)
    out: list[Change] = []
    for c in crd:
        # A change shown in the base (a rule gone) at a node the head still has is
        # mapped by the head's Go; the base's only for a node gone from the head.
        mapping = (
            head_map
            if not c.crd_base or (head_map is not None and head_map.has_node(c))
            else (base_map or head_map)
        )
        definition = mapping.definition(c) if mapping is not None else None
        owner = mapping.owner(c) if mapping is not None else None
        if mapping is None or _unmapped(c):
            out.append(c)
            continue
        matches = [
            g
            for g in go_left
            if definition is not None
            and g.type in (definition, owner)
            and _go_family(g.kind) == _family(c.kind)
            and (c.field is None or g.field == c.field)
        ]
        if matches:
            for g in matches:
                go_left.remove(g)
            first = min(matches, key=lambda g: _RANK[g.classification])
            file, line = first.file, first.line
            if c.kind in _ENUM_KINDS and not first.base and head_map is not None:
                # an enum change is shown on the enum marker, as an unmatched one is
                marked = head_map.position(c)
                file, line = marked if marked[1] else (file, line)
            out.append(
                replace(
                    c,
                    classification=_stricter(c.classification, first.classification),
                    type=definition or c.type,
                    field=c.field if c.field is not None else first.field,
                    package=first.package or c.package,
                    go_type=first.go_type,
                    go_field=first.go_field,
                    file=file,
                    line=line,
                    base=first.base,
                    anchor_file=first.anchor_file,
                    anchor_line=first.anchor_line,
                    gate=first.gate,
                    message=c.message
                    + "; in Go: "
                    + "; ".join(f"{g.kind} ({g.classification}): {g.message}" for g in matches),
                    go_behind=True,
                )
            )
            continue
        behind = False
        now = head_map if head_map is not None and head_map.struct_of(c) else mapping
        if c.crd_values is not None:
            behind = now.declares_enum(c, c.crd_values)
        elif c.kind in _DEFAULT_KINDS:
            behind = now.declares_default(
                c, _NO_DEFAULT if c.crd_default is None else json.loads(c.crd_default)
            )
        elif c.crd_rules:
            if c.kind in ("union-removed", "rule-removed"):
                # gone from the CRD: behind it when the Go no longer writes them either
                behind = not any(now.declares_rules(c, (r,)) for r in c.crd_rules)
            else:
                behind = now.declares_rules(c, c.crd_rules)
        note = (
            ""
            if behind
            else " (no Go change behind it: a hand edit of the CRD, or a CRD not regenerated "
            "after a Go change)"
        )
        placed = _go_facts(c, mapping, head_map)
        out.append(
            replace(
                placed,
                type=definition or c.type,
                message=c.message + note,
                go_behind=behind,
            )
        )
    return [*out, *go_left]
