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
  to each of its values;
- the verdict on an object is the server's: defaults applied first, then the schema's
  `required` and `enum`, then every rule of the union, evaluated by a real CEL engine (a
  rule that errors rejects, as the server rejects the request).

The set of objects a union accepts is its meaning; two versions of a CRD are compared by
those sets (`markergen.diff.crdclassify`). Rules that are not union readings are kept by
their text, so a change to one is listed as "not compared", never dropped.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markergen.celcost.escape import escape_property
from markergen.accept.celeval import CelError, CelEvaluator
from markergen.yamlio import PathKey

# Above this many objects a union is listed as not compared rather than enumerated.
MAX_OBJECTS = 4096
UNSET = "<unset>"
SET = "<set>"

_SELF_REF = re.compile(r"\bself\.([A-Za-z_][A-Za-z0-9_]*)")
_HAS = re.compile(r"\bhas\(\s*self\.([A-Za-z_][A-Za-z0-9_]*)\s*\)")
_STR_LIT = r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
_COMPARE = re.compile(
    r"\bself\.([A-Za-z_][A-Za-z0-9_]*)\s*(?:==|!=)\s*(" + _STR_LIT + r")"
    r"|(" + _STR_LIT + r")\s*(?:==|!=)\s*self\.([A-Za-z_][A-Za-z0-9_]*)"
)
_IN = re.compile(r"\bself\.([A-Za-z_][A-Za-z0-9_]*)\s+in\s+\[([^\]]*)\]")
_LITERAL = re.compile(_STR_LIT)


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


def _unquote(literal: str) -> str:
    body = literal[1:-1]
    try:
        out = json.loads('"' + body.replace('\\"', '"').replace('"', '\\"') + '"')
    except ValueError:
        return body
    return out if isinstance(out, str) else body


def _names(node: Node) -> dict[str, str]:
    """CEL-escaped property name → JSON name."""
    out = {}
    for name in node.properties:
        esc = escape_property(str(name))
        if esc is not None:
            out[esc] = str(name)
    return out


@dataclass(frozen=True, slots=True)
class _Refs:
    presence: frozenset[str]
    values: Mapping[str, frozenset[str]]  # compared field → literals


def rule_refs(rule: str, names: Mapping[str, str]) -> _Refs | None:
    """The node's fields a rule refers to, if every reference is a presence test or a
    comparison with string literals; None otherwise (not a union reading)."""
    if "oldSelf" in rule:
        return None  # transition rules judge changes, not objects
    presence = {names.get(m) for m in _HAS.findall(rule)}
    values: dict[str, set[str]] = {}
    rest = _HAS.sub(" ", rule)
    for m in _COMPARE.finditer(rest):
        field = names.get(m.group(1) or m.group(4))
        lit = m.group(2) or m.group(3)
        if field is None:
            return None
        values.setdefault(field, set()).add(_unquote(lit))
    rest = _COMPARE.sub(" ", rest)
    for m in _IN.finditer(rest):
        field = names.get(m.group(1))
        if field is None:
            return None
        values.setdefault(field, set()).update(_unquote(x) for x in _LITERAL.findall(m.group(2)))
    rest = _IN.sub(" ", rest)
    if _SELF_REF.search(rest) or re.search(r"\bself\b(?!\.)", rest):
        return None  # any other use of the object: not a presence/value rule
    if None in presence:
        return None
    fields = {p for p in presence if p is not None} | set(values)
    if len(fields) < 2:
        return None
    return _Refs(
        frozenset(p for p in presence if p is not None),
        {k: frozenset(v) for k, v in values.items()},
    )


def _enum_strings(prop: Any) -> tuple[str, ...]:
    if isinstance(prop, dict) and isinstance(prop.get("enum"), list):
        return tuple(sorted({v for v in prop["enum"] if isinstance(v, str)}))
    return ()


def readings(node: Node) -> tuple[list[UnionReading], list[NodeRule]]:
    """The unions of a node, and its rules that are not union readings."""
    names = _names(node)
    read: list[tuple[NodeRule, _Refs]] = []
    other: list[NodeRule] = []
    for r in node.rules:
        refs = rule_refs(r.rule, names)
        if refs is None:
            other.append(r)
        else:
            read.append((r, refs))
    # Rules that share a field are one union (connected components).
    groups: list[tuple[set[str], list[tuple[NodeRule, _Refs]]]] = []
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


State = tuple[tuple[str, str], ...]  # (field, UNSET | SET | value), sorted by field


def states(fields: Sequence[str], values: Mapping[str, Sequence[str]]) -> Iterator[State] | None:
    """Every object of a union as field states; None when there are too many."""
    choices = [[UNSET, *values[f]] if f in values else [UNSET, SET] for f in fields]
    count = 1
    for c in choices:
        count *= len(c)
    if count > MAX_OBJECTS:
        return None
    return (tuple(zip(fields, combo, strict=True)) for combo in itertools.product(*choices))


def sample_value(schema: Any) -> Any:
    """A small value the schema accepts, that validation-gen would count as set (not its
    zero value): rules at the parent see only that the field is there."""
    if not isinstance(schema, dict):
        return "x"
    if "default" in schema and schema["default"] not in (None, "", 0, False, [], {}):
        return schema["default"]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return next((v for v in enum if v not in ("", None)), enum[0])
    t = schema.get("type")
    if t == "object":
        props = schema.get("properties")
        required = schema.get("required")
        out: dict[str, Any] = {}
        if isinstance(props, dict) and isinstance(required, list):
            for name in required:
                if isinstance(name, str) and name in props:
                    out[name] = sample_value(props[name])
        return out
    if t == "array":
        return [sample_value(schema.get("items"))]
    if t == "integer":
        return max(1, int(schema.get("minimum", 1) or 1))
    if t == "number":
        return 1.5
    if t == "boolean":
        return True
    if schema.get("x-kubernetes-int-or-string"):
        return "x"
    return "x"


class Judge:
    """The server's verdict on the objects of a union at a node."""

    def __init__(self, evaluator: CelEvaluator) -> None:
        self.evaluator = evaluator

    def accepts(self, node: Node, rules: Sequence[NodeRule], state: State) -> bool:
        obj: dict[str, Any] = {}
        for field, s in state:
            if field not in node.properties:
                continue  # the server prunes fields the schema does not know
            prop = node.properties[field]
            if s == UNSET:
                if isinstance(prop, dict) and "default" in prop:
                    obj[field] = prop["default"]
                continue
            obj[field] = sample_value(prop) if s == SET else s
        for field, value in obj.items():
            prop = node.properties.get(field)
            enum = prop.get("enum") if isinstance(prop, dict) else None
            if isinstance(enum, list) and value not in enum:
                return False
        fields = {f for f, _ in state}
        if any(f in fields and f not in obj for f in node.required):
            return False
        esc = {escape_property(k) or k: v for k, v in obj.items()}
        for r in rules:
            try:
                if not self.evaluator.passes(r.rule, esc):
                    return False
            except CelError:
                return False
        return True


def describe_state(state: State) -> str:
    """An object as a reader sees it: `{"type": "AWS", "gcp": {...}}`."""
    parts = []
    for field, s in state:
        if s == UNSET:
            continue
        parts.append(f'"{field}": ' + ("{...}" if s == SET else json.dumps(s)))
    return "{" + ", ".join(parts) + "}"
