"""CRD YAML read with positions (libyaml), and the text markergen inserts into it.

A CRD file is never re-emitted: markergen parses it with libyaml's composer (nodes keep
their start and end marks) and inserts whole lines at those marks, so a patched file
differs from the input only by the lines markergen adds (or, on a later run, the stale
lines it added before and now removes). The inserted text is rendered the way
controller-gen writes YAML (go-yaml v2 through sigs.k8s.io/yaml): block style, two-space
indent, sequences not indented below their key, strings that would read back as another
type in double quotes, multi-line strings as `|-` literals, other strings plain when YAML
allows it (else single-quoted), lines folded at 80 columns.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml

from markergen.gcpause import gc_paused
from markergen.yamlread import YamlError as YamlError  # re-exported for the CRD code
from markergen.yamlread import compose_documents, new_constructor
from markergen.yamlread import load_value as load_value  # re-exported for the CRD code
from markergen.yamlread import to_value as to_value  # re-exported for the CRD code

PathKey = tuple[str | int, ...]

_STR = "tag:yaml.org,2002:str"
# where libyaml starts a new line (YAML 1.1 line breaks)
_LINE_START = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")
# characters where str.splitlines and libyaml disagree, or that libyaml also breaks at
_OTHER_BREAKS = re.compile(r"[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


@dataclass(frozen=True)
class Document:
    value: Any
    node: yaml.Node

    def node_at(self, path: PathKey) -> yaml.Node | None:
        """The node at `path`, or None when the path leaves the document."""
        node: yaml.Node = self.node
        for key in path:
            if isinstance(key, int):
                if not isinstance(node, yaml.SequenceNode) or key >= len(node.value):
                    return None
                node = node.value[key]
            else:
                found = mapping_item(node, key)
                if found is None:
                    return None
                node = found[1]
        return node

    def position(self, path: PathKey) -> tuple[int, int]:
        """1-based (line, column) where `path` (or its nearest present ancestor) starts."""
        p = path
        while p:
            node = self.node_at(p)
            if node is not None:
                return node.start_mark.line + 1, node.start_mark.column + 1
            p = p[:-1]
        return self.node.start_mark.line + 1, self.node.start_mark.column + 1


def mapping_item(node: yaml.Node, key: str) -> tuple[yaml.Node, yaml.Node] | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return k, v
    return None


def load_documents(text: str) -> list[Document]:
    """Every non-empty document of a YAML stream, with its composed node tree (read by
    markergen.yamlread, under its alias budget). Raises YamlError."""
    with gc_paused():
        constructor = new_constructor()
        docs = []
        for node in compose_documents(text):
            value = to_value(node, constructor)
            if value is not None:
                docs.append(Document(value, node))
        return docs


class _Documents(list[Document]):
    """A file's documents, in a list the reader can refer to weakly."""

    __slots__ = ("__weakref__",)


@dataclass(frozen=True)
class YamlReader:
    """One run's reading of YAML: each file read once, each text composed and made into
    values once, whichever rules ask for it (the patcher with its MG508 comparison and
    proofs, the MG511 findings, MG520 / MG521's enum comparison, the kept objects, the
    project discovery, the cache keys). Texts are keyed by their contents: openshift/api's
    test suites repeat the same object text in case after case (1,830 distinct texts of
    3,042 composed in one `check`). A run makes one and hands it down; nothing outlives
    the run.

    A text's documents are held only while a rule holds them (a CRD's node tree is tens
    of megabytes in openshift/api; the rules that read one file share one composition,
    and a copy read while it is in use shares it too); values (the kept objects) are
    held until `release`, which a run calls before the collector runs again
    (markergen.gcpause: every node still alive then is walked). The values are shared: a
    caller must not change a document's value in place."""

    _data: dict[Path, bytes | OSError] = field(default_factory=dict)
    _texts: dict[Path, str | UnicodeDecodeError] = field(default_factory=dict)
    _documents: weakref.WeakValueDictionary[str, _Documents] = field(
        default_factory=weakref.WeakValueDictionary
    )
    _values: dict[str, Any] = field(default_factory=dict)
    # texts that are not YAML: (message, line, column, aliasing), raised anew each time
    _refused: dict[tuple[str, str], tuple[str, int, int, bool]] = field(default_factory=dict)

    def data(self, path: Path) -> bytes:
        """The bytes of the file; raises OSError."""
        return _once(self._data, path, path.read_bytes, OSError)

    def text(self, path: Path) -> str:
        """The file's text as `path.read_text(encoding="utf-8")` gives it (universal
        newlines); raises OSError or UnicodeDecodeError."""

        def decode() -> str:
            return _newlines(self.data(path).decode("utf-8"))

        return _once(self._texts, path, decode, UnicodeDecodeError)

    def loose_text(self, path: Path) -> str:
        """The file's text with undecodable bytes replaced (`errors="replace"`); raises
        OSError."""
        try:
            return self.text(path)
        except UnicodeDecodeError:
            return _newlines(self.data(path).decode("utf-8", errors="replace"))

    def documents(self, text: str) -> list[Document]:
        """`load_documents(text)`, composed once while it is in use; raises YamlError."""
        found = self._documents.get(text)
        if found is not None:
            return found
        self._raise_refused("documents", text)
        try:
            docs = _Documents(load_documents(text))
        except YamlError as e:
            self._refused["documents", text] = (e.message, e.line, e.column, e.aliasing)
            raise
        self._documents[text] = docs
        return docs

    def value(self, text: str) -> Any:
        """`load_value(text)`, once per distinct text until `release`; raises YamlError."""
        if text in self._values:
            return self._values[text]
        self._raise_refused("value", text)
        try:
            value = load_value(text)
        except YamlError as e:
            self._refused["value", text] = (e.message, e.line, e.column, e.aliasing)
            raise
        self._values[text] = value
        return value

    def _raise_refused(self, kind: str, text: str) -> None:
        refused = self._refused.get((kind, text))
        if refused is not None:
            message, line, column, aliasing = refused
            raise YamlError(message, line, column, aliasing=aliasing)

    def release(self) -> None:
        """Forget everything read: called at the end of a run's work, before the
        collector is back."""
        self._data.clear()
        self._texts.clear()
        self._documents.clear()
        self._values.clear()
        self._refused.clear()


_T = TypeVar("_T")
_E = TypeVar("_E", bound=Exception)


def _once(memo: dict[Path, _T | _E], path: Path, make: Callable[[], _T], fails: type[_E]) -> _T:
    """`make()` once per path; its failure (`fails`) is remembered and raised again."""
    found = memo.get(path)
    if found is None:
        try:
            found = make()
        except fails as e:
            found = e
        memo[path] = found
    if isinstance(found, fails):
        raise found
    return found  # type: ignore[return-value]


def _newlines(text: str) -> str:
    """Universal newlines, as a file opened in text mode reads."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def indented_values(pattern: re.Pattern[str], text: str, indent: str | None = None) -> list[str]:
    """Group 1 of every match of `pattern` that begins a line's text after its indent:
    exactly `indent`, or by default one or more spaces and tabs. The same as putting
    `^[ \t]+` (or `^` and the indent) before a MULTILINE pattern, whose matches cannot
    span lines, but found from the pattern's own leading text: a regex that starts with
    `^` is tried at every position of a file of megabytes."""
    out: list[str] = []
    for m in pattern.finditer(text):
        start = m.start()
        pad = text[text.rfind("\n", 0, start) + 1 : start]
        if (pad == indent) if indent is not None else (pad and not pad.strip(" \t")):
            out.append(m.group(1))
    return out


def split_lines(text: str) -> list[str]:
    """The lines of `text` as libyaml numbers them, each with its line break."""
    if not _OTHER_BREAKS.search(text):
        return text.splitlines(keepends=True)  # only "\n": str's splitter agrees with libyaml
    out: list[str] = []
    start = 0
    for m in _LINE_START.finditer(text):
        out.append(text[start : m.end()])
        start = m.end()
    if start < len(text):
        out.append(text[start:])
    return out


def last_line(node: yaml.Node) -> int:
    """The 0-based index of the line after the last line that holds `node`'s text."""
    while True:
        if isinstance(node, yaml.MappingNode) and node.value and not node.flow_style:
            node = node.value[-1][1]
        elif isinstance(node, yaml.SequenceNode) and node.value and not node.flow_style:
            node = node.value[-1]
        else:
            break
    end = node.end_mark
    line: int = end.line
    return line if end.column == 0 else line + 1


class _Dumper(yaml.SafeDumper):
    pass


def _resolves_to_str(dumper: _Dumper, value: str) -> bool:
    resolver: Any = dumper  # PyYAML's resolver methods are untyped
    tag = resolver.resolve(yaml.ScalarNode, value, (True, False))
    return bool(tag == _STR)


def _represent_str(dumper: _Dumper, value: str) -> yaml.ScalarNode:
    style: str | None = None
    if not _resolves_to_str(dumper, value):
        style = '"'  # go-yaml quotes "true", "1", "" with double quotes
    elif "\x85" in value:
        # NEL is a line break to YAML 1.1 readers: only the double-quoted style escapes
        # it (as \N), any other style would change the string when read back.
        style = '"'
    elif "\n" in value:
        style = "|"
    return dumper.represent_scalar(_STR, value, style=style)


_Dumper.add_representer(str, _represent_str)


def _dump(value: Any, width: int) -> str:
    return yaml.dump(
        value,
        Dumper=_Dumper,
        default_flow_style=False,
        sort_keys=False,
        indent=2,
        width=width,
        allow_unicode=True,
    )


def render_block(value: Any, indent: int) -> str:
    """`value` as block YAML starting at column `indent`, folded as if written there.

    Both go-yaml and PyYAML fold at an absolute column, so rendering at column 0 with
    the width reduced by the indent folds at the same places.
    """
    text = _dump(value, max(80 - indent, 20))
    pad = " " * indent
    return "".join(pad + line if line.strip("\n") else line for line in split_lines(text))


def walk_paths(value: Any, path: PathKey = ()) -> Iterator[tuple[PathKey, Any]]:
    """Every (path, value) pair of a JSON-like value, parents first."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk_paths(v, (*path, str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_paths(v, (*path, i))
