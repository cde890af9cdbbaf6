"""CRD YAML in controller-gen's layout: read with positions, write the way controller-gen does.

controller-gen marshals through sigs.k8s.io/yaml (go-yaml v2): block style, two-space
indent, sequences not indented below their key, `---` before every document, strings that
would read back as another type in double quotes, multi-line strings as `|-` literals,
other strings plain when YAML allows it (else single-quoted), lines folded at 80 columns.
We read keys in document order and write them back in that order, so a file that
controller-gen wrote comes back byte-identical and a patched one differs only where it
was patched.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

PathKey = tuple[str | int, ...]


class YamlError(Exception):
    """A CRD file that is not valid YAML; `line`/`column` are 1-based."""

    def __init__(self, message: str, line: int, column: int) -> None:
        self.message = message
        self.line = line
        self.column = column
        super().__init__(f"{line}:{column}: {message}")


@dataclass(frozen=True)
class Document:
    value: Any
    # 1-based (line, column) where the value at each path starts
    positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)

    def position(self, path: PathKey) -> tuple[int, int]:
        """Where `path` (or its nearest ancestor that has a position) starts."""
        p = path
        while p not in self.positions and p:
            p = p[:-1]
        return self.positions.get(p, (1, 1))


def _record(node: yaml.Node, path: PathKey, out: dict[PathKey, tuple[int, int]]) -> None:
    out[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                _record(value_node, (*path, str(key_node.value)), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _record(item, (*path, i), out)


def load_documents(text: str) -> list[Document]:
    """Every non-empty document of a YAML stream, with the positions of its values."""
    loader = yaml.SafeLoader(text)
    docs: list[Document] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            if node is None:
                continue
            positions: dict[PathKey, tuple[int, int]] = {}
            _record(node, (), positions)
            value = loader.construct_document(node)
            if value is not None:
                docs.append(Document(value, positions))
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise YamlError(e.problem or str(e), line, col) from None
    except yaml.YAMLError as e:
        raise YamlError(str(e), 1, 1) from None
    finally:
        loader.dispose()
    return docs


class _Dumper(yaml.SafeDumper):
    pass


def _resolves_to_str(dumper: _Dumper, value: str) -> bool:
    resolver: Any = dumper  # PyYAML's resolver methods are untyped
    tag = resolver.resolve(yaml.ScalarNode, value, (True, False))
    return bool(tag == "tag:yaml.org,2002:str")


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
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _represent_str)


def dump_documents(values: list[Any]) -> str:
    """The YAML text of the documents, each starting with `---`."""
    parts: list[str] = []
    for value in values:
        parts.append(
            yaml.dump(
                value,
                Dumper=_Dumper,
                explicit_start=True,
                default_flow_style=False,
                sort_keys=False,
                indent=2,
                width=80,
                allow_unicode=True,
            )
        )
    return "".join(parts)


def walk_paths(value: Any, path: PathKey = ()) -> Iterator[tuple[PathKey, Any]]:
    """Every (path, value) pair of a JSON-like value, parents first."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk_paths(v, (*path, str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_paths(v, (*path, i))
