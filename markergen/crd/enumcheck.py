"""The project's CRDs as a check of markergen's enums (MG520) and discriminator defaults
(MG521).

controller-gen generated the project's CRDs from the same Go types, so every enum node of
a CRD is a second reading of the Go. The comparison walks each CRD version's schema
beside markergen's own OpenAPI v3 schema of its root type (built by the same
`SchemaBuilder` that writes openapi-v3.json, so what is compared is what markergen
writes), node by node: properties, list items and map values, following `$ref`s into
structs. At each node the CRD's enum is the values its `enum` and every `allOf` branch's
`enum` all accept (controller-gen writes a field's list beside its type's under `allOf`,
and the API server enforces both).

A node agrees when both sides accept the same values. For openshift's
FeatureGateAwareEnum, a CRD variant (one per feature set) agrees when it accepts at least
the ungated values and nothing beyond the union of every gate's values. Each
disagreement is reported once, at the Go marker that declares the enum, however many
CRD files (feature-set variants, spec and status copies, chart copies) repeat it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from markergen.crd.helm import mask_templates
from markergen.crd.walk import flat_fields, resolve, unions_at
from markergen.diagnostics import Diagnostic, diag
from markergen.emit.naming import ref_v3
from markergen.emit.openapi import SchemaBuilder
from markergen.emit.options import EmitOptions
from markergen.golang.syntax import Position
from markergen.model import Enum, Field, Model, Struct, TypeRef
from markergen.model.enums import enum_floor, field_enum, list_marker, type_enum_of
from markergen.model.lookup import FieldLookup, model_lookup
from markergen.project.locate import root_type
from markergen.yamlio import Document, PathKey, YamlError, YamlReader

Verdict = Literal["agree", "wider", "narrower", "both"]
_MAX_DEPTH = 64  # nested lists of lists; recursive types stop at the first repeat


@dataclass(frozen=True)
class EnumNode:
    """One schema node where markergen's OpenAPI v3 or the CRD has an enum (or, for a
    discriminator, a default)."""

    file: str  # the CRD file, as shown
    line: int  # of the node in that file
    subject: str  # `Struct.field`, `Struct.field[*]` for list items and map values
    go_pos: Position  # the marker that declares markergen's side (else the field)
    ours: tuple[Any, ...] | None  # markergen's values (None: no enum)
    theirs: tuple[Any, ...] | None  # the CRD's values (None: no enum)
    floor: tuple[Any, ...] | None = None  # gated: what a variant must accept at least
    # "external": a CRD enum under a type of a package markergen did not read (no module
    # cache, no vendor/); not compared
    what: Literal["enum", "default", "external"] = "enum"
    # markergen's values are a `+enum` / `+k8s:enum` type's constants, a marker that
    # controller-gen does not read: the CRD has no enum there by design (not compared)
    unread: bool = False

    @property
    def verdict(self) -> Verdict:
        if self.what == "external" or (self.unread and self.theirs is None):
            return "agree"
        if self.what == "default":
            return "agree" if self.ours == self.theirs else "both"
        if self.ours is None:
            return "wider"  # markergen accepts anything, the CRD a list
        if self.theirs is None:
            return "agree" if self.floor is not None and not self.floor else "narrower"
        ours, theirs = set(map(_key, self.ours)), set(map(_key, self.theirs))
        if self.floor is not None and set(map(_key, self.floor)) <= theirs <= ours:
            return "agree"
        wider, narrower = bool(ours - theirs), bool(theirs - ours)
        if wider and narrower:
            return "both"
        return "wider" if wider else "narrower" if narrower else "agree"


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _shown(values: tuple[Any, ...] | None) -> str:
    if values is None:
        return "no enum (any value)"
    return "[" + ", ".join(_key(v) for v in sorted(values, key=_key)) + "]"


def crd_enum(node: dict[str, Any]) -> tuple[Any, ...] | None:
    """The values a CRD node accepts by enum: its `enum` and every `allOf` branch's, all
    enforced, so their intersection (None when none of them has an enum)."""
    lists = [node["enum"]] if isinstance(node.get("enum"), list) else []
    for branch in node.get("allOf") or ():
        if isinstance(branch, dict) and isinstance(branch.get("enum"), list):
            lists.append(branch["enum"])
    if not lists:
        return None
    keep = lists[0]
    for more in lists[1:]:
        allowed = {_key(v) for v in more}
        keep = [v for v in keep if _key(v) in allowed]
    return tuple(keep)


@dataclass
class _Walk:
    model: Model
    builder: SchemaBuilder
    doc: Document
    file: str
    by_ref: dict[str, str]  # `#/components/schemas/NAME` → struct key
    # markergen's schema of each struct, shared by every document of a run
    schemas: dict[str, dict[str, Any]]
    # the model's JSON fields (encoding/json's promotion rules), shared like `schemas`
    lookup: FieldLookup
    out: list[EnumNode] = field(default_factory=list)

    def struct_schema(self, struct: Struct) -> dict[str, Any]:
        found = self.schemas.get(struct.key)
        if found is None:
            found = self.schemas[struct.key] = self.builder.struct_schema(struct)
        return found

    def walk_struct(self, struct: Struct, crd: Any, path: PathKey, active: frozenset[str]) -> None:
        if not isinstance(crd, dict) or struct.key in active or len(active) > _MAX_DEPTH:
            return
        active = active | {struct.key}
        ours_props = self.struct_schema(struct).get("properties") or {}
        crd_props = crd.get("properties")
        if not isinstance(crd_props, dict):
            return
        fields: dict[str, Field] = {}
        for flat in flat_fields(self.model, struct, self.lookup):
            fields.setdefault(flat.name, flat.field)
        discriminators = {
            u.discriminator.json_name for _, u in unions_at(self.model, struct) if u.discriminator
        }
        for name in sorted(ours_props):
            f = fields.get(name)
            child = crd_props.get(name)
            if f is None or not isinstance(child, dict):
                continue
            at = (*path, "properties", name)
            ours = ours_props[name]
            subject = f"{struct.name}.{name}"
            self.node(ours, child, at, subject, f, f.type, active, top=True)
            if name in discriminators and ("default" in ours or "default" in child):
                self.default(ours, child, at, subject, f)

    def node(
        self,
        ours: Any,
        crd: dict[str, Any],
        path: PathKey,
        subject: str,
        f: Field,
        ref: TypeRef | None,
        active: frozenset[str],
        top: bool = False,
    ) -> None:
        if not isinstance(ours, dict):
            return
        mine = tuple(ours["enum"]) if isinstance(ours.get("enum"), list) else None
        theirs = crd_enum(crd)
        target = self._target(ours)
        if target is None and _ref_of(ours) is not None:
            # A type of a package markergen did not read (no module cache, no vendor/):
            # its schema, enum included, is that package's definition, not compared.
            if theirs is not None:
                line, _ = self.doc.position(path)
                self.out.append(
                    EnumNode(self.file, line, subject, f.pos, None, theirs, what="external")
                )
            return
        if mine is not None or theirs is not None:
            floor, pos, unread = self._floor_and_pos(f, ref, top, mine)
            line, _ = self.doc.position(path)
            self.out.append(
                EnumNode(self.file, line, subject, pos, mine, theirs, floor, unread=unread)
            )
        if target is not None:
            struct = self.model.structs.get(target)
            if struct is not None:
                self.walk_struct(struct, crd, path, active)
            return
        elem = _elem(self.model, ref)
        for key in ("items", "additionalProperties"):
            if isinstance(ours.get(key), dict) and isinstance(crd.get(key), dict):
                self.node(ours[key], crd[key], (*path, key), subject + "[*]", f, elem, active)

    def _target(self, ours: dict[str, Any]) -> str | None:
        ref = _ref_of(ours)
        return self.by_ref.get(ref) if ref is not None else None

    def _floor_and_pos(
        self, f: Field, ref: TypeRef | None, top: bool, mine: tuple[Any, ...] | None
    ) -> tuple[tuple[Any, ...] | None, Position, bool]:
        """The gated floor of the node's enum (None when no gate decides it), the Go
        marker that declares it, and whether only a marker controller-gen does not read
        (`+enum`, `+k8s:enum`) declares it."""
        enum = type_enum_of(ref, self.model.types, self.model.enums) if ref else None
        pos = f.pos
        floor: tuple[Any, ...] | None = None
        unread = enum is not None and not enum.listed
        if top:
            unread = unread and not f.enum_values and not f.enum_gates
            enforced = field_enum(f, enum)
            marker = list_marker(f.markers)
            if marker is not None:
                pos = marker.pos
            elif f.enum_gates:
                pos = f.enum_gates[0].pos
            elif enum is not None:
                pos = _enum_pos(enum)
            if enforced is not None and enforced.gated and mine is not None:
                floor = _typed_like(enforced.floor, mine)
        elif enum is not None:
            pos = _enum_pos(enum)
            if enum.gates and mine is not None:
                floor = _typed_like(enum_floor(enum), mine)
        return floor, pos, unread

    def default(
        self, ours: dict[str, Any], crd: dict[str, Any], path: PathKey, subject: str, f: Field
    ) -> None:
        mine = (ours["default"],) if "default" in ours else None
        theirs = (crd["default"],) if "default" in crd else None
        marker = next(
            (m for m in f.markers if m.name in ("default", "kubebuilder:default", "k8s:default")),
            None,
        )
        line, _ = self.doc.position((*path, "default"))
        pos = marker.pos if marker is not None else f.pos
        self.out.append(EnumNode(self.file, line, subject, pos, mine, theirs, what="default"))


def _ref_of(ours: dict[str, Any]) -> str | None:
    """The `$ref` of a schema (v3 wraps one with siblings in `allOf`)."""
    ref = ours.get("$ref")
    if ref is None and isinstance(ours.get("allOf"), list) and ours["allOf"]:
        first = ours["allOf"][0]
        ref = first.get("$ref") if isinstance(first, dict) else None
    return ref if isinstance(ref, str) else None


def _enum_pos(enum: Enum) -> Position:
    return enum.list_pos or enum.pos


def _typed_like(values: Sequence[str], typed: tuple[Any, ...]) -> tuple[Any, ...]:
    """`values` (the model's texts) as the JSON values of `typed` (the schema's)."""
    by_text = {v if isinstance(v, str) else _key(v): v for v in typed}
    return tuple(by_text.get(v, v) for v in values)


def _elem(model: Model, ref: TypeRef | None) -> TypeRef | None:
    if ref is None:
        return None
    target = resolve(model, ref)
    return target.elem if target.kind in ("slice", "array", "map") else None


def compare_document(
    model: Model,
    builder: SchemaBuilder,
    by_ref: dict[str, str],
    doc: Document,
    file: str,
    crd_path: Path | None = None,
    schemas: dict[str, dict[str, Any]] | None = None,
    lookup: FieldLookup | None = None,
) -> list[EnumNode]:
    """Every enum node of one CRD document (none when it is not a whole CRD whose kind
    has a Go root type among the inputs)."""
    value = doc.value
    if not isinstance(value, dict) or value.get("kind") != "CustomResourceDefinition":
        return []
    spec = value.get("spec")
    if not isinstance(spec, dict):
        return []
    group = str(spec.get("group", ""))
    kind = str((spec.get("names") or {}).get("kind", ""))
    walk = _Walk(
        model,
        builder,
        doc,
        file,
        by_ref,
        {} if schemas is None else schemas,
        model_lookup(model) if lookup is None else lookup,
    )
    for i, version in enumerate(spec.get("versions") or []):
        if not isinstance(version, dict):
            continue
        schema = (version.get("schema") or {}).get("openAPIV3Schema")
        name = str(version.get("name", ""))
        if not (isinstance(schema, dict) and group and kind and name):
            continue
        root = root_type(model, group, kind, name, crd_path)
        if root is None:
            continue
        base: PathKey = ("spec", "versions", i, "schema", "openAPIV3Schema")
        walk.walk_struct(root, schema, base, frozenset())
    return walk.out


class Comparison:
    """The enum nodes of CRD documents, file by file: from `compare_files`, or (for
    `markergen check`) from the documents `markergen.crd.patch` loads anyway."""

    def __init__(self, model: Model, root: Path | None = None) -> None:
        self.model = model
        self.root = root
        self.builder = SchemaBuilder(model, EmitOptions(), 3)
        self.by_ref = {ref_v3(self.builder.def_name(key)): key for key in model.structs}
        self.schemas: dict[str, dict[str, Any]] = {}
        self.lookup = model_lookup(model)
        self.nodes: list[EnumNode] = []

    def add(self, path: Path, docs: Sequence[Document]) -> None:
        """The enum nodes of the documents of the CRD file `path`."""
        shown = _display(path, self.root)
        for doc in docs:
            self.nodes.extend(
                compare_document(
                    self.model,
                    self.builder,
                    self.by_ref,
                    doc,
                    shown,
                    path,
                    self.schemas,
                    self.lookup,
                )
            )


def compare_files(
    model: Model,
    files: Sequence[Path],
    root: Path | None = None,
    reader: YamlReader | None = None,
) -> list[EnumNode]:
    """Every enum node of the CRDs in `files` (unreadable or templated files are skipped:
    `markergen crd` reports those); `reader`: the run's reading of the files, which
    `markergen check` shares with its other CRD rules (`markergen.crd.checkfind`)."""
    comparison = Comparison(model, root)
    reader = reader if reader is not None else YamlReader()
    for path in files:
        try:
            text = reader.text(path)
        except (OSError, UnicodeDecodeError):
            continue
        if "CustomResourceDefinition" not in text:
            continue
        masked = mask_templates(text)
        if masked.inside_line:
            continue
        try:
            docs = reader.documents(masked.text)
        except YamlError:
            continue
        comparison.add(path, docs)
    return comparison.nodes


def _display(path: Path, root: Path | None) -> str:
    for base in (Path.cwd(), root):
        if base is None:
            continue
        try:
            return path.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            continue
    return path.as_posix()


def findings(nodes: Sequence[EnumNode]) -> list[Diagnostic]:
    """MG520 / MG521: each disagreement once, at its Go marker, naming the first CRD node
    that shows it and how many more do."""
    groups: dict[tuple[Any, ...], list[EnumNode]] = {}
    for n in nodes:
        if n.verdict == "agree":
            continue
        # one Go marker, one disagreement: every field of the type, spec and status
        # copies, feature-set variants and chart copies repeat it
        key = (n.what, n.go_pos, n.ours, n.theirs)
        groups.setdefault(key, []).append(n)
    out: list[Diagnostic] = []
    for (what, pos, _, _), group in groups.items():
        out.append(_diagnostic(what, pos, group))
    return sorted(out, key=Diagnostic.sort_key)


def _diagnostic(what: str, pos: Position, group: list[EnumNode]) -> Diagnostic:
    first = min(group, key=lambda n: (n.file, n.line))
    more = len({(n.file, n.line) for n in group}) - 1
    subjects = sorted({n.subject for n in group})
    if len(subjects) > 1:
        first = dataclasses.replace(first, subject=", ".join(subjects))
    where = f"{first.file}:{first.line}" + (f" (and {more} more CRD nodes)" if more else "")
    if what == "default":
        ours = _key(first.ours[0]) if first.ours else "no default"
        theirs = _key(first.theirs[0]) if first.theirs else "no default"
        return diag(
            "MG521",
            pos,
            f"the default of discriminator {first.subject} is {ours} in markergen's reading "
            f"of the Go but {theirs} in the CRD at {where}: the CRD is stale, or markergen "
            "reads the Go differently from controller-gen",
        )
    only_ours = _only(first.ours, first.theirs)
    only_theirs = _only(first.theirs, first.ours)
    parts = []
    if only_ours:
        parts.append(f"only markergen accepts {only_ours}")
    if only_theirs:
        parts.append(f"only the CRD accepts {only_theirs}")
    detail = f" ({'; '.join(parts)})" if parts else ""
    return diag(
        "MG520",
        pos,
        f"the enum of {first.subject} is {_shown(first.ours)} in markergen's reading of the "
        f"Go but {_shown(first.theirs)} in the CRD at {where}{detail}: the CRD is stale, or "
        "markergen reads the Go differently from controller-gen",
    )


def _only(a: tuple[Any, ...] | None, b: tuple[Any, ...] | None) -> str:
    """What `a` accepts that `b` rejects."""
    if a is None:
        return "any other value" if b is not None else ""
    if b is None:
        return ""
    others = {_key(v) for v in b}
    return ", ".join(_key(v) for v in sorted(a, key=_key) if _key(v) not in others)


def summary(nodes: Sequence[EnumNode]) -> dict[str, int]:
    """Enum nodes compared and how many agree, are wider (markergen accepts more),
    narrower (markergen accepts less) or differ both ways; defaults apart."""
    counts = {
        "compared": 0,
        "agree": 0,
        "wider": 0,
        "narrower": 0,
        "both": 0,
        "external": 0,
        "+enum only": 0,
    }
    for n in nodes:
        if n.what == "external":
            counts["external"] += 1
        if n.unread and n.theirs is None:
            counts["+enum only"] += 1
            continue
        if n.what != "enum":
            continue
        counts["compared"] += 1
        counts[n.verdict] += 1
    return counts
