"""A CRD document's plan (`markergen.crd.patch.DocumentPlan`: the rules wanted at each
schema node, the enums to add) turned into whole-line edits of its file's text.

The file is never re-emitted: lines are inserted at the marks libyaml gives
(`markergen.yamlio`), so a patched file differs from the input only by added lines.
markergen's own rules are known by their message, which always ends with
` (union <Struct>.<field>)`: one no longer wanted is removed (its lines only), a wanted one
already present is left alone, rules written by hand are kept. New keys go where
controller-gen's alphabetical order puts them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import yaml

from markergen.crd.edit import LineEdits
from markergen.yamlio import Document, PathKey, last_line, mapping_item, render_block, to_value

VALIDATIONS = "x-kubernetes-validations"
# the tail of every message markergen writes: how a later run knows its own rules
OURS = re.compile(r" \(union [^()]*\)$")


def is_ours(rule: Any) -> bool:
    """A rule entry markergen wrote (its message ends with the union's label)."""
    return (
        isinstance(rule, dict)
        and isinstance(rule.get("message"), str)
        and bool(OURS.search(rule["message"]))
    )


def apply_plan(
    doc: Document,
    lines: list[str],
    edits: LineEdits,
    wanted: Mapping[PathKey, list[dict[str, str]]],
    enums: Mapping[PathKey, list[Any]],
) -> None:
    """Record in `edits` the lines that make `doc` hold exactly markergen's `wanted`
    rules (others' rules untouched) and the `enums` it adds."""
    nodes: dict[PathKey, yaml.Node] = {}
    first, end = int(doc.node.start_mark.line), last_line(doc.node)
    if "(union " in "".join(lines[first:end]):
        _validation_nodes(doc.node, (), nodes)
    for path in wanted:
        if path not in nodes:
            found = doc.node_at(path)
            if found is not None:
                nodes[path] = found
    for path, node in nodes.items():
        _rules_at(doc, lines, edits, node, wanted.get(path, []))
    for path, values in enums.items():
        found = doc.node_at(path)
        if found is not None:
            _insert_key(doc, lines, edits, found, "enum", values)


def _rules_at(
    doc: Document,
    lines: list[str],
    edits: LineEdits,
    node: yaml.Node,
    wanted: list[dict[str, str]],
) -> None:
    item = mapping_item(node, VALIDATIONS)
    if item is None:
        if wanted:
            _insert_key(doc, lines, edits, node, VALIDATIONS, wanted)
        return
    key, seq = item
    if not isinstance(seq, yaml.SequenceNode) or seq.flow_style:
        return  # a flow-style list is someone else's layout: leave it
    existing = [to_value(x) for x in seq.value]
    stale = [i for i, e in enumerate(existing) if is_ours(e) and e not in wanted]
    add = [w for w in wanted if w not in existing]
    if stale and len(stale) == len(existing):
        edits.delete(int(key.start_mark.line), last_line(seq))
        if add:
            offset = int(seq.start_mark.column - key.start_mark.column)
            edits.insert(int(key.start_mark.line), _key_text(key, VALIDATIONS, add, offset))
        return
    for i in stale:
        start = int(seq.value[i].start_mark.line)
        end = (
            int(seq.value[i + 1].start_mark.line)
            if i + 1 < len(seq.value)
            else last_line(seq.value[i])
        )
        edits.delete(start, end)
    if add:
        edits.insert(last_line(seq), render_block(add, int(seq.start_mark.column)))


def _key_text(key: yaml.Node, name: str, value: list[Any], offset: int) -> str:
    col = int(key.start_mark.column)
    return " " * col + name + ":\n" + render_block(value, col + offset)


def _insert_key(
    doc: Document,
    lines: list[str],
    edits: LineEdits,
    node: yaml.Node,
    name: str,
    value: list[Any],
) -> None:
    """Add `name: value` to a block mapping, before the first key that sorts after it."""
    if not isinstance(node, yaml.MappingNode) or node.flow_style or not node.value:
        return
    offset = _sequence_offset(node, doc.node)
    for k, _ in node.value:
        if isinstance(k, yaml.ScalarNode) and str(k.value) > name:
            line = int(k.start_mark.line)
            if lines[line][: k.start_mark.column].strip() == "":
                edits.insert(line, _key_text(k, name, value, offset))
                return
    first_key = node.value[0][0]
    edits.insert(last_line(node), _key_text(first_key, name, value, offset))


def _validation_nodes(node: yaml.Node, path: PathKey, out: dict[PathKey, yaml.Node]) -> None:
    """Every mapping below `node` that has an `x-kubernetes-validations` key, by path."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if not isinstance(k, yaml.ScalarNode):
                continue
            if k.value == VALIDATIONS:
                out[path] = node
            else:
                _validation_nodes(v, (*path, str(k.value)), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _validation_nodes(v, (*path, i), out)


def _sequence_offset(node: yaml.MappingNode, root: yaml.Node) -> int:
    """How far this file indents a block list below its key (controller-gen: 0): as a list
    of the same mapping does, else as the document's first list does."""
    for k, v in node.value:
        if isinstance(v, yaml.SequenceNode) and not v.flow_style and v.value:
            return max(0, int(v.start_mark.column - k.start_mark.column))
    stack = [root]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.MappingNode):
            for k, v in current.value:
                if isinstance(v, yaml.SequenceNode) and not v.flow_style and v.value:
                    return max(0, int(v.start_mark.column - k.start_mark.column))
            stack.extend(reversed([v for _, v in current.value]))
    return 0
