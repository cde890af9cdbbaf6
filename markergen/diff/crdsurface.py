"""The union surface of a CRD version: what the API server enforces at each schema node.

A union in a CRD is whatever the server enforces over a set of sibling fields, however it
was written: markergen's own rules, controller-gen's `ExactlyOneOf` / `AtMostOneOf` /
`AtLeastOneOf` rules (`(has(self.a)?1:0)+(has(self.b)?1:0) == 1`), or hand-written CEL
(`has(self.gcp) ? self.type == 'GCP' : true`). None of these is matched by its text.
Instead a node's rules are *read by evaluation*, the way the API server runs them:

- a rule is a union reading when it refers only to this node's fields, each through
  `has(self.f)` or by comparing `self.f` with literals (`==`, `!=`, `in [...]`), and to at
  least two of them; rules that share a field belong to one union;
- the union's objects are every combination of its fields: each presence field set or
  left out, each value field (compared with literals, or with an `enum`) left out or set
  to each of its values (`markergen.accept.judge.choices`);
- the verdict on an object is the server's (`markergen.accept.judge.Judge`): defaults
  applied first, then the schema's `required` and `enum`, then every rule of the union,
  evaluated by a real CEL engine (a rule that errors rejects, as the server rejects the
  request).

The set of objects a union accepts is its meaning; two versions of a CRD are compared by
those sets (`markergen.diff.crdclassify`). Rules that are not union readings are kept by
their text, so a change to one is listed as "not compared", never dropped.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from markergen.accept.reads import Refs, presence_and_values
from markergen.celcost.escape import escape_property
from markergen.yamlio import PathKey


@dataclass(frozen=True, slots=True)
class NodeRule:
    rule: str
    message: str
    index: int  # position in the node's x-kubernetes-validations


@dataclass(frozen=True, slots=True)
class Node:
    """A schema node with properties (an object) or with rules."""

    path: PathKey  # below openAPIV3Schema
    shown: str  # `spec.providers[*]`
    properties: Mapping[str, Any]
    required: frozenset[str]
    rules: tuple[NodeRule, ...]


@dataclass(frozen=True, slots=True)
class UnionReading:
    """One union at a node, read by evaluating its rules."""

    fields: tuple[str, ...]  # sorted: presence fields and value fields
    values: Mapping[str, tuple[str, ...]]  # value field → its values (sorted)
    rules: tuple[NodeRule, ...]


def shown_path(path: PathKey) -> str:
    out = ""
    for step in path:
        if step == "properties":
            continue
        if step == "items":
            out += "[*]"
        elif step == "additionalProperties":
            out += "{*}"
        else:
            out += ("." if out else "") + str(step)
    return out or "(root)"


def nodes(schema: Any, path: PathKey = ()) -> Iterator[Node]:
    """Every schema node with properties or rules, depth first, in document order."""
    if not isinstance(schema, dict):
        return
    raw_props = schema.get("properties")
    props: dict[str, Any] = raw_props if isinstance(raw_props, dict) else {}
    raw = schema.get("x-kubernetes-validations")
    rules = []
    if isinstance(raw, list):
        for i, r in enumerate(raw):
            if isinstance(r, dict) and isinstance(r.get("rule"), str):
                msg = r.get("message")
                rules.append(NodeRule(r["rule"], msg if isinstance(msg, str) else "", i))
    if props or rules:
        required = schema.get("required")
        yield Node(
            path,
            shown_path(path),
            props,
            frozenset(x for x in required if isinstance(x, str))
            if isinstance(required, list)
            else frozenset(),
            tuple(rules),
        )
    for name, sub in props.items():
        yield from nodes(sub, (*path, "properties", str(name)))
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            yield from nodes(schema[key], (*path, key))
    for key in ("allOf", "anyOf", "oneOf"):
        seq = schema.get(key)
        if isinstance(seq, list):
            for i, sub in enumerate(seq):
                yield from nodes(sub, (*path, key, i))


def _names(node: Node) -> dict[str, str]:
    """CEL-escaped property name → JSON name."""
    out = {}
    for name in node.properties:
        esc = escape_property(str(name))
        if esc is not None:
            out[esc] = str(name)
    return out


def _enum_strings(prop: Any) -> tuple[str, ...]:
    if isinstance(prop, dict) and isinstance(prop.get("enum"), list):
        return tuple(sorted({v for v in prop["enum"] if isinstance(v, str)}))
    return ()


def readings(node: Node) -> tuple[list[UnionReading], list[NodeRule]]:
    """The unions of a node, and its rules that are not union readings."""
    names = _names(node)
    read: list[tuple[NodeRule, Refs]] = []
    other: list[NodeRule] = []
    for r in node.rules:
        refs = presence_and_values(r.rule, names)
        if refs is None:
            other.append(r)
        else:
            read.append((r, refs))
    # Rules that share a field are one union (connected components).
    groups: list[tuple[set[str], list[tuple[NodeRule, Refs]]]] = []
    for r, refs in read:
        fields = set(refs.presence) | set(refs.values)
        joined = [g for g in groups if g[0] & fields]
        for g in joined:
            groups.remove(g)
            fields |= g[0]
        members = [x for g in joined for x in g[1]] + [(r, refs)]
        groups.append((fields, members))
    out = []
    for fields, members in groups:
        values: dict[str, set[str]] = {}
        for _, refs in members:
            for f, lits in refs.values.items():
                values.setdefault(f, set()).update(lits)
        for f in list(values):
            values[f].update(_enum_strings(node.properties.get(f)))
        out.append(
            UnionReading(
                tuple(sorted(fields)),
                {f: tuple(sorted(v)) for f, v in sorted(values.items())},
                tuple(sorted((r for r, _ in members), key=lambda r: r.index)),
            )
        )
    out.sort(key=lambda u: u.fields)
    return out, other
