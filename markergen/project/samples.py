"""The objects a project keeps of its own kinds (samples, examples, e2e data): the proof
that a union rule never rejects what the project already applies to API servers.

Sources: kubebuilder's `config/samples`, by convention YAML under `examples/`, `samples/`,
`docs/` and e2e test data (`test/e2e`, `tests/e2e`, `e2e`), API-server test suites
(openshift/api's `<group>/<version>/tests/**/*.yaml`, and `tests/**` beside every CRD's
directory, as `<crd-dir>/tests/<crd-name>/*.testsuite.yaml`: the objects of every
`onCreate` / `onUpdate` case the server accepts, which CI creates on a real API
server; read without any setting), plus the
`samples` include globs of the config, minus its exclude globs. vendor/ and hidden
directories are skipped; a file is read only when its text names one of the CRDs'
groups; a file that does not parse as YAML (a Helm template) or that holds envsubst
variables (`${CLUSTER_NAME}`, cluster-api's clusterctl templates) is skipped: neither is
applied as written.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from markergen.yamlio import PathKey, YamlError, YamlReader, mapping_item

ENVSUBST = re.compile(r"\$\{[A-Z_][A-Z0-9_]*(?::?[-=+?][^}]*)?\}")
CONVENTIONAL = ("config/samples", "examples", "samples", "docs", "test/e2e", "tests/e2e", "e2e")
SKIP_DIRS = frozenset({"vendor", "node_modules"})


@dataclass(frozen=True)
class SampleObject:
    file: str  # posix path relative to the project root
    line: int  # 1-based line where the document starts
    group: str
    version: str
    kind: str
    value: dict[str, Any]


# A path a project marks as a negative case: a file or folder named `invalid...`,
# `...-invalid-...`, `invalid-examples/` (gateway-api's hack/invalid-examples).
_NEGATIVE = re.compile(r"(?:^|[-_.])invalid(?:$|[-_.])", re.IGNORECASE)
# a fenced YAML block of a Markdown page: ```yaml ... ``` (or ~~~)
_FENCE = re.compile(r"^[ \t]{0,3}(```+|~~~+)[ \t]*(?:yaml|yml)\b[^\n]*$", re.IGNORECASE)


def _yaml_files(top: Path, markdown: bool = False) -> Iterator[Path]:
    suffixes = (".yaml", ".yml", ".md") if markdown else (".yaml", ".yml")
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS)
        for name in sorted(filenames):
            if name.endswith(suffixes) and not name.startswith("."):
                yield Path(dirpath) / name


def is_negative(rel: str) -> bool:
    """Whether a project marks the file at `rel` (relative to its root) as objects its
    API server must reject: a file or folder named as invalid."""
    return any(_NEGATIVE.search(part) for part in rel.split("/"))


def markdown_blocks(text: str) -> Iterator[tuple[int, str]]:
    """(0-based line of the block's first line, its text) of each fenced YAML block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        fence, start = m.group(1), i + 1
        end = start
        while end < len(lines) and not lines[end].lstrip().startswith(fence):
            end += 1
        indent = len(lines[i]) - len(lines[i].lstrip())
        body = [line[indent:] if line[:indent].isspace() else line for line in lines[start:end]]
        yield start, "\n".join(body) + "\n"
        i = end + 1


def _matches(rel: str, patterns: Sequence[str]) -> bool:
    return any(
        fnmatch.fnmatchcase(rel, p) or fnmatch.fnmatchcase(rel, p.rstrip("/") + "/*")
        for p in patterns
    )


def suite_dirs(root: Path, crd_files: Sequence[Path] = ()) -> list[Path]:
    """The directories of API-server test suites: openshift/api's
    `<group>/<version>/tests`, and `tests/` beside each CRD file's directory or its parent
    (`<crd-dir>/tests/<crd-name>/*.testsuite.yaml`, or openshift's
    `<group>/<version>/zz_generated.crd-manifests/` beside `<group>/<version>/tests/`)."""
    found: dict[Path, None] = dict.fromkeys(sorted(root.glob("*/*/tests")))
    for f in crd_files:
        for d in (f.parent / "tests", f.parent.parent / "tests"):
            found[d] = None
    return [
        d
        for d in found
        if d.is_dir() and not any(part in SKIP_DIRS or part.startswith(".") for part in d.parts)
    ]


def _shown(path: Path, root: Path) -> str:
    """The path as diagnostics show it: relative to the project root when inside it."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def sample_files(
    root: Path,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    crd_files: Sequence[Path] = (),
) -> list[Path]:
    """The candidate files, sorted; `include`/`exclude` are globs relative to `root`
    (`*` crosses directories, as in fnmatch); `crd_files`: the CRDs whose neighbouring
    test suites count (`suite_dirs`)."""
    found: dict[Path, None] = {}
    for top in CONVENTIONAL:
        if (root / top).is_dir():
            # the pages of docs/ and examples/ keep most examples in ```yaml blocks
            found.update(dict.fromkeys(_yaml_files(root / top, markdown=True)))
    for suites in suite_dirs(root, crd_files):
        found.update(dict.fromkeys(_yaml_files(suites)))
    if include:
        for path in _yaml_files(root):
            if _matches(path.relative_to(root).as_posix(), include):
                found[path] = None
    return sorted((p for p in found if not _matches(_shown(p, root), exclude)), key=str)


def load_samples(
    root: Path,
    groups: Sequence[str],
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    crd_files: Sequence[Path] = (),
    refused: Callable[[str, YamlError], None] | None = None,
    reader: YamlReader | None = None,
) -> list[SampleObject]:
    """Every object of one of `groups` in the project's sample files (and in the test
    suites beside `crd_files`). A file Kubernetes would refuse for its aliases is given
    to `refused` (its shown path and the error); other files that are not YAML are
    skipped quietly, as templates. `reader`: the run's reading of the files."""
    out: list[SampleObject] = []
    wanted = set(groups)
    reader = reader or YamlReader()
    for path in sample_files(root, include, exclude, crd_files):
        rel = _shown(path, root)
        if is_negative(rel):
            continue
        try:
            text = reader.text(path)
        except (OSError, UnicodeDecodeError):
            continue
        if not any(g in text for g in wanted):
            continue  # cheaper than parsing: most YAML in docs/ is not ours
        blocks = markdown_blocks(text) if path.suffix == ".md" else [(0, text)]
        for offset, block in blocks:
            if ENVSUBST.search(block):
                # a clusterctl / envsubst template (`${POD_CIDR:=...}` where a list goes):
                # applied only after substitution, so not an object as written
                continue
            try:
                docs = reader.documents(block)
            except YamlError as e:
                if e.aliasing and refused is not None:
                    refused(rel, e)
                continue  # templated or broken: not an object the project applies as is
            for doc in docs:
                suite = _suite_objects(doc.value, doc.node, reader)
                found = suite or ([] if _is_suite(doc.value) else _objects(doc.value, doc.node))
                for value, line in found:
                    api = value.get("apiVersion")
                    kind = value.get("kind")
                    if not isinstance(api, str) or "/" not in api or not isinstance(kind, str):
                        continue
                    group, version = api.split("/", 1)
                    if group in wanted:
                        out.append(SampleObject(rel, line + offset, group, version, kind, value))
    return out


def _is_suite(value: Any) -> bool:
    return isinstance(value, dict) and "crdName" in value


def _child(node: yaml.Node, key: str) -> yaml.Node | None:
    item = mapping_item(node, key)
    return None if item is None else item[1]


def _suite_objects(
    value: Any, node: yaml.Node, reader: YamlReader
) -> list[tuple[dict[str, Any], int]]:
    """The objects of an openshift/api test suite that the API server accepts: each
    case's `initial` (and `updated`, and the `expected` stored object) when it expects no
    error. Empty for any other document."""
    if not isinstance(value, dict) or "crdName" not in value:
        return []
    tests, tests_node = value.get("tests"), _child(node, "tests")
    if not isinstance(tests, dict) or tests_node is None:
        return []
    out: list[tuple[dict[str, Any], int]] = []
    for phase in ("onCreate", "onUpdate"):
        cases, cases_node = tests.get(phase), _child(tests_node, phase)
        if not isinstance(cases, list) or not isinstance(cases_node, yaml.SequenceNode):
            continue
        for case, case_node in zip(cases, cases_node.value, strict=False):
            if not isinstance(case, dict):
                continue
            if case.get("expectedError") or case.get("expectedStatusError"):
                continue  # a rejection proves nothing for a rule
            for key in ("initial", "updated", "expected"):
                text, text_node = case.get(key), _child(case_node, key)
                if not isinstance(text, str) or text_node is None:
                    continue
                try:
                    obj = reader.value(text)
                except YamlError:
                    continue
                if isinstance(obj, dict):
                    # the block scalar's text starts on the line after `initial: |`
                    out.append((obj, text_node.start_mark.line + 2))
    return out


def _objects(value: Any, node: yaml.Node) -> Iterator[tuple[dict[str, Any], int]]:
    """The document's object, or the items of a `kind: List`."""
    if not isinstance(value, dict):
        return
    items = value.get("items")
    if value.get("kind") == "List" and isinstance(items, list):
        item_node = _child(node, "items")
        if isinstance(item_node, yaml.SequenceNode):
            for item, n in zip(items, item_node.value, strict=False):
                if isinstance(item, dict):
                    yield item, n.start_mark.line + 1
        return
    yield value, node.start_mark.line + 1


def values_at(obj: Any, schema_path: PathKey) -> Iterator[Any]:
    """The parts of `obj` that the schema node at `schema_path` (below openAPIV3Schema)
    describes: `properties.x` → key x, `items` → every element, `additionalProperties`
    → every value."""
    if not schema_path:
        yield obj
        return
    head, *rest = schema_path
    if head == "properties" and rest:
        if isinstance(obj, dict) and str(rest[0]) in obj:
            yield from values_at(obj[str(rest[0])], tuple(rest[1:]))
    elif head == "items" and isinstance(obj, list):
        for item in obj:
            yield from values_at(item, tuple(rest))
    elif head == "additionalProperties" and isinstance(obj, dict):
        for item in obj.values():
            yield from values_at(item, tuple(rest))
