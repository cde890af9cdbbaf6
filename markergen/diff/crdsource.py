"""CRDs as a side of `markergen diff`: a CRD YAML file, a directory of them, `REV:PATH`
of either, or the CRD directories of a kubebuilder project (found as `markergen crd`
finds them) in the working tree or a git revision.

A CRD version is identified by its group, kind and version name, never by its file: a
CRD file renamed, split or merged with another is no change. Files are read as
`markergen crd` reads them (libyaml with positions; Helm template lines outside the
documents masked), so every schema node keeps its line for the report.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markergen.crd.helm import mask_templates
from markergen.yamlio import Document, PathKey, YamlError, load_documents

CRD_KIND = "CustomResourceDefinition"
YAML_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True, slots=True)
class CrdVersion:
    """One version of one CRD, as the API server serves it."""

    group: str
    kind: str
    plural: str
    version: str
    served: bool
    storage: bool
    deprecated: bool
    schema: Mapping[str, Any]  # openAPIV3Schema ({} when the version has none)
    file: str  # shown path of the file it was read from
    line: int  # line of the version's entry
    document: Document
    schema_at: PathKey  # where openAPIV3Schema sits in the document

    @property
    def name(self) -> str:
        """`<plural>.<group>`, the CRD's own name."""
        return f"{self.plural}.{self.group}"

    def line_of(self, path: PathKey) -> int:
        """The line of the schema node at `path` (below openAPIV3Schema), else the
        nearest ancestor's, else the version's."""
        for n in range(len(path), -1, -1):
            node = self.document.node_at((*self.schema_at, *path[:n]))
            if node is not None:
                return int(node.start_mark.line) + 1
        return self.line


@dataclass(frozen=True)
class CrdSet:
    """Every CRD version of one side, by (group, kind, version)."""

    versions: Mapping[tuple[str, str, str], CrdVersion]
    origin: str  # what was read, for messages
    notes: tuple[str, ...] = ()  # files that were skipped, duplicates, for the report


def _versions(doc: Document, shown: str) -> list[CrdVersion]:
    value = doc.value
    if not isinstance(value, dict) or value.get("kind") != CRD_KIND:
        return []
    spec = value.get("spec")
    if not isinstance(spec, dict):
        return []
    raw_names = spec.get("names")
    names: dict[str, Any] = raw_names if isinstance(raw_names, dict) else {}
    group, kind = spec.get("group"), names.get("kind")
    if not isinstance(group, str) or not isinstance(kind, str):
        return []
    raw_plural = names.get("plural")
    plural: str = raw_plural if isinstance(raw_plural, str) else kind.lower()
    out = []
    versions = spec.get("versions")
    if not isinstance(versions, list):
        return []
    for i, v in enumerate(versions):
        if not isinstance(v, dict) or not isinstance(v.get("name"), str):
            continue
        at: PathKey = ("spec", "versions", i, "schema", "openAPIV3Schema")
        schema = v.get("schema", {})
        schema = schema.get("openAPIV3Schema", {}) if isinstance(schema, dict) else {}
        node = doc.node_at(("spec", "versions", i))
        out.append(
            CrdVersion(
                group=group,
                kind=kind,
                plural=plural,
                version=v["name"],
                served=v.get("served") is True,
                storage=v.get("storage") is True,
                deprecated=v.get("deprecated") is True,
                schema=schema if isinstance(schema, dict) else {},
                file=shown,
                line=int(node.start_mark.line) + 1 if node is not None else 1,
                document=doc,
                schema_at=at,
            )
        )
    return out


def crds_of_text(text: str, shown: str) -> list[CrdVersion]:
    """The CRD versions of one YAML stream; other documents are ignored. Raises YamlError."""
    masked = mask_templates(text)
    if masked.inside_line:
        return []  # templating inside a document: only Helm can read it
    out: list[CrdVersion] = []
    for doc in load_documents(masked.text):
        out.extend(_versions(doc, shown))
    return out


def looks_like_crd(text: str) -> bool:
    """Whether a YAML text holds a CRD (cheap test before parsing)."""
    return CRD_KIND in text and "apiextensions.k8s.io" in text


def collect(files: Iterable[tuple[str, str]], origin: str) -> CrdSet:
    """A side from (shown path, text) pairs, in the order given: the first file that
    defines a (group, kind, version) wins, later copies (a Helm chart's) are noted."""
    versions: dict[tuple[str, str, str], CrdVersion] = {}
    notes: list[str] = []
    for shown, text in files:
        if not looks_like_crd(text):
            continue
        try:
            found = crds_of_text(text, shown)
        except YamlError as e:
            notes.append(f"{shown}:{e.line}: not read: {e.message}")
            continue
        for v in found:
            key = (v.group, v.kind, v.version)
            if key in versions:
                if versions[key].file != shown:
                    notes.append(f"{shown}: {v.name} {v.version} also in {versions[key].file}")
                continue
            versions[key] = v
    return CrdSet(versions, origin, tuple(notes))


def yaml_files(directory: Path) -> list[Path]:
    """YAML files below a directory, sorted, skipping hidden and vendored directories."""
    out = []
    for p in directory.glob("**/*"):
        rel = p.relative_to(directory).parts
        if any(part.startswith(".") or part in ("vendor", "node_modules") for part in rel[:-1]):
            continue
        if p.suffix in YAML_SUFFIXES and p.is_file():
            out.append(p)
    return sorted(out)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise OSError(f"{path}: {e.strerror or e}") from None


def read_paths(paths: Sequence[Path], shown_from: Path, origin: str) -> CrdSet:
    """CRDs in files and directories (recursively) on disk."""
    pairs: list[tuple[str, str]] = []
    for p in paths:
        files = yaml_files(p) if p.is_dir() else [p]
        for f in files:
            pairs.append((_shown(f, shown_from), _read(f)))
    return collect(pairs, origin)


def _shown(path: Path, shown_from: Path) -> str:
    try:
        return path.resolve().relative_to(shown_from.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def is_crd_file(path: Path) -> bool:
    """A YAML file that holds at least one CRD."""
    if path.suffix not in YAML_SUFFIXES or not path.is_file():
        return False
    try:
        return looks_like_crd(_read(path))
    except OSError:
        return False


def is_crd_directory(path: Path) -> bool:
    """A directory with CRD YAML below it and no Go file: a side of CRDs, not of Go."""
    if not path.is_dir():
        return False
    if next(iter(path.glob("**/*.go")), None) is not None:
        return False
    return any(is_crd_file(f) for f in yaml_files(path))
