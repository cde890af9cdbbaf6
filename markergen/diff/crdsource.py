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
    notes: tuple[str, ...] = ()  # copies of a version in another file


class CrdReadError(Exception):
    """A CRD file of a side that cannot be read: not YAML, or a CustomResourceDefinition
    document that is not one as apiextensions.k8s.io/v1 has it. Its versions would
    otherwise be missing from the side, and be reported removed (or added)."""

    def __init__(self, file: str, line: int, column: int, problem: str, *, yaml: bool) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
        self.yaml = yaml  # not YAML at all (else: YAML that is no CRD as expected)
        super().__init__(f"{file}:{line}:{column}: {problem}")


def _wrong(doc: Document, shown: str, path: PathKey, problem: str) -> CrdReadError:
    line, column = doc.position(path)
    return CrdReadError(shown, line, column, problem, yaml=False)


def _kind_of(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if value == "":
        return "an empty string"
    return "nothing" if value is None else f"{type(value).__name__} {value!r}"


def _versions(doc: Document, shown: str) -> list[CrdVersion]:
    value = doc.value
    if not isinstance(value, dict) or value.get("kind") != CRD_KIND:
        return []
    spec = value.get("spec")
    if spec is not None and not isinstance(spec, dict):
        raise _wrong(doc, shown, ("spec",), f"spec: expected a mapping, found {_kind_of(spec)}")
    if not isinstance(spec, dict) or "group" not in spec:
        return []  # a part of a CRD (a kustomize patch names no group): not a side's CRD
    api = value.get("apiVersion")
    if api != "apiextensions.k8s.io/v1":
        raise _wrong(
            doc,
            shown,
            ("apiVersion",),
            f"a CustomResourceDefinition of {api!r} is not read: only apiextensions.k8s.io/v1 "
            "is (Kubernetes 1.22 removed v1beta1)",
        )
    raw_names = spec.get("names")
    if not isinstance(raw_names, dict):
        raise _wrong(
            doc,
            shown,
            ("spec", "names"),
            f"spec.names: expected a mapping, found {_kind_of(raw_names)}",
        )
    names: dict[str, Any] = raw_names
    group, kind = spec.get("group"), names.get("kind")
    if not isinstance(group, str) or not group:
        raise _wrong(
            doc, shown, ("spec", "group"), f"spec.group: expected a name, found {_kind_of(group)}"
        )
    if not isinstance(kind, str) or not kind:
        raise _wrong(
            doc,
            shown,
            ("spec", "names", "kind"),
            f"spec.names.kind: expected a name, found {_kind_of(kind)}",
        )
    raw_plural = names.get("plural")
    plural: str = raw_plural if isinstance(raw_plural, str) else kind.lower()
    out = []
    versions = spec.get("versions")
    if not isinstance(versions, list):
        raise _wrong(
            doc,
            shown,
            ("spec", "versions"),
            f"spec.versions: expected a list of versions, found {_kind_of(versions)}",
        )
    for i, v in enumerate(versions):
        if not isinstance(v, dict) or not isinstance(v.get("name"), str):
            raise _wrong(
                doc,
                shown,
                ("spec", "versions", i, "name"),
                f"spec.versions[{i}]: expected a version with a name, found "
                + (f"name {_kind_of(v.get('name'))}" if isinstance(v, dict) else _kind_of(v)),
            )
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
    """The CRD versions of one YAML stream; other documents are ignored. Raises
    CrdReadError."""
    out: list[CrdVersion] = []
    for doc in _documents(text, shown) or []:
        out.extend(_versions(doc, shown))
    return out


def _documents(text: str, shown: str) -> list[Document] | None:
    """The documents of a YAML stream, None for a Helm template with templating inside a
    document (only Helm can read it). Raises CrdReadError."""
    masked = mask_templates(text)
    if masked.inside_line:
        return None
    try:
        return load_documents(masked.text)
    except YamlError as e:
        raise CrdReadError(
            shown, e.line, e.column, f"not valid YAML: {e.message}", yaml=True
        ) from None


def no_crd_reason(files: Sequence[tuple[str, str]]) -> str:
    """Why (shown path, text) pairs hold no CRD version, at the first document that is
    none (of a file that looks like CRDs first). Raises CrdReadError."""
    ordered = sorted(files, key=lambda f: not looks_like_crd(f[1]))
    for shown, text in ordered:
        docs = _documents(text, shown)
        if docs is None:
            return f"{shown}:1:1: a Helm template, not a CustomResourceDefinition"
        for doc in docs:
            kind = doc.value.get("kind") if isinstance(doc.value, dict) else None
            what = f"a {kind} document" if isinstance(kind, str) else "a document without a kind"
            if kind == CRD_KIND:
                what = "a part of a CustomResourceDefinition (no spec.group)"
            line, column = doc.position(())
            return f"{shown}:{line}:{column}: {what}, not a CustomResourceDefinition"
    return f"{ordered[0][0]}:1:1: no YAML document in it" if ordered else "no YAML file there"


def looks_like_crd(text: str) -> bool:
    """Whether a YAML text holds a CRD (cheap test before parsing)."""
    return CRD_KIND in text and "apiextensions.k8s.io" in text


def collect(files: Iterable[tuple[str, str]], origin: str) -> CrdSet:
    """A side from (shown path, text) pairs, in the order given: the first file that
    defines a (group, kind, version) wins, later copies (a Helm chart's) are noted.
    Raises CrdReadError for a file that cannot be read (never a side without it)."""
    versions: dict[tuple[str, str, str], CrdVersion] = {}
    notes: list[str] = []
    for shown, text in files:
        if not looks_like_crd(text):
            continue
        for v in crds_of_text(text, shown):
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
    return collect(files_of(paths, shown_from), origin)


def files_of(paths: Sequence[Path], shown_from: Path) -> list[tuple[str, str]]:
    """The YAML files of files and directories (recursively) on disk, as (shown path,
    text)."""
    pairs: list[tuple[str, str]] = []
    for p in paths:
        files = yaml_files(p) if p.is_dir() else [p]
        for f in files:
            pairs.append((_shown(f, shown_from), _read(f)))
    return pairs


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
