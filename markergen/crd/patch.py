"""`markergen crd`: patch union CEL rules and discriminator enums into controller-gen CRDs.

What markergen adds is recognisable: the CRD's annotations list a short hash of every
rule (`markergen.dev/rules`) and of every enum (`markergen.dev/enums`, hash of the
schema path and the values) it wrote. On the next run exactly those are taken out and
the current ones put back, so an unchanged API changes nothing, a changed API replaces
stale rules, and rules or enums written by hand (or by `+kubebuilder:validation`
markers) are kept. New keys go where controller-gen's alphabetical order puts them.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markergen.crd.cel import Rule, union_rules
from markergen.crd.locate import describe_missing, root_type
from markergen.crd.walk import UnionSite, union_sites
from markergen.crd.yamlio import (
    Document,
    PathKey,
    YamlError,
    dump_documents,
    load_documents,
    walk_paths,
)
from markergen.diagnostics import Diagnostic, Severity, diag
from markergen.emit.writer import OutputError, verify_outputs, write_outputs
from markergen.golang.syntax import Position
from markergen.model import Model

RULES_ANNOTATION = "markergen.dev/rules"
ENUMS_ANNOTATION = "markergen.dev/enums"
CRD_API_VERSION = "apiextensions.k8s.io/v1"
VALIDATIONS = "x-kubernetes-validations"


class CrdError(Exception):
    """A usage or I/O problem with the CRD paths themselves (exit code 2)."""


@dataclass(frozen=True)
class CrdResult:
    files: tuple[Path, ...]  # every CRD file considered
    changed: tuple[Path, ...]  # written, or (with verify) stale
    diffs: tuple[str, ...]  # unified diffs of stale files (verify only)
    diagnostics: tuple[Diagnostic, ...]

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)


def rule_hash(rule: dict[str, Any]) -> str:
    text = json.dumps(rule, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def enum_hash(path: PathKey, values: list[Any]) -> str:
    text = json.dumps([list(path), values], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _insert_sorted(mapping: dict[str, Any], key: str, value: Any) -> None:
    """Set `key`, placing a new key before the first existing key that sorts after it."""
    if key in mapping:
        mapping[key] = value
        return
    items = list(mapping.items())
    at = next((i for i, (k, _) in enumerate(items) if k > key), len(items))
    items.insert(at, (key, value))
    mapping.clear()
    mapping.update(items)


def _owned(annotations: Any, key: str) -> set[str]:
    if not isinstance(annotations, dict):
        return set()
    value = annotations.get(key)
    return set(value.split()) if isinstance(value, str) else set()


@dataclass
class _Patcher:
    model: Model
    doc: Document
    file: str
    crd: dict[str, Any]
    diagnostics: list[Diagnostic]

    def diag(self, code: str, path: PathKey, message: str) -> None:
        line, col = self.doc.position(path)
        self.diagnostics.append(diag(code, Position(self.file, line, col), message))

    def run(self) -> None:
        meta = self.crd.get("metadata")
        annotations = meta.get("annotations") if isinstance(meta, dict) else None
        owned_rules = _owned(annotations, RULES_ANNOTATION)
        owned_enums = _owned(annotations, ENUMS_ANNOTATION)
        self._remove_owned(owned_rules, owned_enums)
        new_rules: set[str] = set()
        new_enums: set[str] = set()
        spec = self.crd.get("spec")
        if isinstance(spec, dict):
            for i, version in enumerate(spec.get("versions") or []):
                self._version(spec, i, version, new_rules, new_enums)
        self._annotate(new_rules, new_enums)

    def _remove_owned(self, owned_rules: set[str], owned_enums: set[str]) -> None:
        for path, node in list(walk_paths(self.crd)):
            if not isinstance(node, dict):
                continue
            rules = node.get(VALIDATIONS)
            if isinstance(rules, list) and owned_rules:
                kept = [
                    r for r in rules if not (isinstance(r, dict) and rule_hash(r) in owned_rules)
                ]
                if kept:
                    node[VALIDATIONS] = kept
                else:
                    del node[VALIDATIONS]
            enum = node.get("enum")
            if isinstance(enum, list) and enum_hash(path, enum) in owned_enums:
                del node["enum"]

    def _version(
        self, spec: dict[str, Any], i: int, version: Any, rules: set[str], enums: set[str]
    ) -> None:
        if not isinstance(version, dict):
            return
        schema = (version.get("schema") or {}).get("openAPIV3Schema")
        if not isinstance(schema, dict):
            return
        group, kind = str(spec.get("group", "")), str((spec.get("names") or {}).get("kind", ""))
        name = str(version.get("name", ""))
        vpath: PathKey = ("spec", "versions", i)
        root = root_type(self.model, group, kind, name)
        if root is None:
            why = describe_missing(self.model, group, kind, name)
            self.diag(
                "MG502",
                (*vpath, "name"),
                f"CRD {kind}.{group} version {name}: no Go root type ({why}); no union rules added",
            )
            return
        base: PathKey = (*vpath, "schema", "openAPIV3Schema")
        for site in union_sites(self.model, root, schema, base):
            self._site(site, rules, enums)

    def _site(self, site: UnionSite, rule_hashes: set[str], enum_hashes: set[str]) -> None:
        node, union = site.node, site.union
        props = node.get("properties")
        props = props if isinstance(props, dict) else {}
        required = node.get("required")
        required = [r for r in required if isinstance(r, str)] if isinstance(required, list) else []
        rules, skipped = union_rules(union, site.struct.name, props.keys(), required)
        where = ".".join(str(p) for p in site.path)
        for s in skipped:
            self.diag(
                "MG501",
                (*site.path, "properties"),
                f"union {site.struct.name} field {s.field} {s.reason} at {where}; "
                "the union's rules leave it out",
            )
        self._add_rules(node, rules, rule_hashes)
        disc = union.discriminator
        if disc is None or not disc.values or not rules:
            return
        prop = props.get(disc.json_name)
        if not isinstance(prop, dict):
            return
        ppath: PathKey = (*site.path, "properties", disc.json_name)
        values = list(disc.values)
        if "enum" not in prop:
            _insert_sorted(prop, "enum", values)
            enum_hashes.add(enum_hash(ppath, values))
        elif sorted(map(str, prop["enum"])) != sorted(values):
            self.diag(
                "MG503",
                (*ppath, "enum"),
                f"enum of discriminator {disc.json_name} at {where} is "
                f"{prop['enum']!r} in the CRD but {values!r} in Go; kept as written",
            )

    def _add_rules(self, node: dict[str, Any], rules: Sequence[Rule], hashes: set[str]) -> None:
        if not rules:
            return
        existing = node.get(VALIDATIONS)
        current: list[Any] = list(existing) if isinstance(existing, list) else []
        for r in rules:
            d = r.as_dict()
            if d in current:
                continue  # already there: written by hand or by an earlier site
            current.append(d)
            hashes.add(rule_hash(d))
        _insert_sorted(node, VALIDATIONS, current)

    def _annotate(self, rules: set[str], enums: set[str]) -> None:
        meta = self.crd.setdefault("metadata", {})
        if not isinstance(meta, dict):
            return
        annotations = meta.get("annotations")
        if not isinstance(annotations, dict):
            if not rules and not enums:
                return
            annotations = {}
            _insert_sorted(meta, "annotations", annotations)
        for key, hashes in ((RULES_ANNOTATION, rules), (ENUMS_ANNOTATION, enums)):
            if hashes:
                _insert_sorted(annotations, key, "\n".join(sorted(hashes)))
            else:
                annotations.pop(key, None)
        if not annotations:
            del meta["annotations"]


def patch_document(model: Model, doc: Document, file: str) -> tuple[Any, list[Diagnostic]]:
    """The patched copy of one YAML document (unchanged when it is not a CRD)."""
    value = doc.value
    diagnostics: list[Diagnostic] = []
    if not isinstance(value, dict) or value.get("kind") != "CustomResourceDefinition":
        return value, diagnostics
    if value.get("apiVersion") != CRD_API_VERSION:
        line, col = doc.position(("apiVersion",))
        diagnostics.append(
            diag(
                "MG505",
                Position(file, line, col),
                f"CRD apiVersion {value.get('apiVersion')!r} is not {CRD_API_VERSION}; "
                "left untouched",
            )
        )
        return value, diagnostics
    crd = copy.deepcopy(value)
    _Patcher(model, doc, file, crd, diagnostics).run()
    return crd, diagnostics


def patch_text(model: Model, text: str, file: str) -> tuple[str, list[Diagnostic]]:
    """The patched file text; raises YamlError for a file that is not YAML.

    The text is returned unchanged when no document changed, so files that are not
    CRDs, or CRDs with nothing to do, keep their exact bytes (comments included).
    """
    docs = load_documents(text)
    diagnostics: list[Diagnostic] = []
    values: list[Any] = []
    changed = False
    for doc in docs:
        value, found = patch_document(model, doc, file)
        diagnostics.extend(found)
        values.append(value)
        changed = changed or value != doc.value
    if not changed:
        return text, diagnostics
    out = dump_documents(values)
    # Never write what would not read back as the same documents.
    if [d.value for d in load_documents(out)] != values:  # pragma: no cover - guard
        raise YamlError("patched CRD does not round-trip through YAML", 1, 1)
    return out, diagnostics


def crd_files(paths: Sequence[Path]) -> list[Path]:
    """The YAML files named, and those directly inside named directories, sorted."""
    found: list[Path] = []
    for p in paths:
        if p.is_dir():
            found.extend(
                sorted(c for c in p.iterdir() if c.is_file() and c.suffix in (".yaml", ".yml"))
            )
        elif p.is_file():
            found.append(p)
        else:
            raise CrdError(f"{p}: no such file or directory")
    unique = dict.fromkeys(f.resolve() for f in found)
    return sorted(unique, key=str)


def _display(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


def run_crd(paths: Sequence[Path], model: Model, verify: bool) -> CrdResult:
    """Patch every CRD under `paths` in place (all files or none), or with `verify` write
    nothing and return the diffs of stale files. Raises CrdError for a missing path or a
    failed write; a file that is not YAML is an MG504 error diagnostic and nothing is
    written."""
    files = crd_files(paths)
    diagnostics: list[Diagnostic] = []
    outputs: dict[Path, str] = {}
    for path in files:
        shown = _display(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            diagnostics.append(
                diag("MG504", Position(shown, 1, 1), f"cannot read: {e}")
            )
            continue
        try:
            new, found = patch_text(model, text, shown)
        except YamlError as e:
            diagnostics.append(
                diag(
                    "MG504",
                    Position(shown, e.line, e.column),
                    f"not valid YAML: {e.message}",
                )
            )
            continue
        diagnostics.extend(found)
        if new != text:
            outputs[path] = new
    diagnostics.sort(key=Diagnostic.sort_key)
    stale = tuple(sorted(outputs, key=str))
    if verify:
        diffs = tuple(verify_outputs(outputs))
        return CrdResult(tuple(files), stale, diffs, tuple(diagnostics))
    if any(d.severity is Severity.ERROR for d in diagnostics):
        return CrdResult(tuple(files), (), (), tuple(diagnostics))
    try:
        report = write_outputs(outputs)
    except OutputError as e:
        raise CrdError(str(e)) from e
    return CrdResult(tuple(files), report.written, (), tuple(diagnostics))
