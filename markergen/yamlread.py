"""Every YAML text markergen reads goes through here: CRDs, kept objects, markergen.yaml,
the objects given to `validate` and `normalize`.

One reason to have one reader: aliases. PyYAML's composer resolves `*name` to the very
node `&name` labels, so ten lists of ten aliases nine levels deep compose into a few
dozen nodes, yet every reader that walks or copies the value visits 10^9 of them (a
kilobyte of text grew `markergen check` past 2 GB). Kubernetes reads YAML with go-yaml
(sigs.k8s.io/yaml, and kubectl), whose decoder keeps an alias budget; a document over
it is refused before any value is built, and the same rule is applied here to each
document as it is composed:

- every node the decoder visits counts once, also each time an alias brings it back,
  and an alias itself counts once; visits made while expanding an alias are alias
  visits;
- after more than 1,000 visits of which more than 100 came through aliases, the share
  of alias visits may not pass 99% up to 400,000 visits, then a limit falling in a
  straight line to 10% at 4,000,000 visits, 10% beyond;
- an anchor whose value contains an alias of itself is refused.

The walk stops as soon as the share is passed, so a refused document costs at most a
few hundred thousand steps, and an accepted one at most the size of its expansion.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

from markergen.gcpause import gc_paused

_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE = "tag:yaml.org,2002:merge"

# libyaml when PyYAML was built with it (the pure-Python composer is ~30x slower)
_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# YAML 1.1's implicit types by the first character of a plain scalar (PyYAML's own
# regexes decide), but for `value`: PyYAML resolves a plain `=` to YAML 1.1's value key
# and has no constructor for it, where go-yaml (Kubernetes, kubectl) reads the string "="
# (prometheus-operator's CRDs have `- =` in an enum). The safe loader has no wildcard and
# no path resolvers; the fast resolver below relies on that.
_VALUE = "tag:yaml.org,2002:value"
_IMPLICIT: dict[str, list[tuple[str, re.Pattern[str]]]] = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _VALUE]
    for first, resolvers in _Base.yaml_implicit_resolvers.items()
}
assert None not in _IMPLICIT and not _Base.yaml_path_resolvers


def _resolve(_: object, kind: type[yaml.Node], value: str | None, implicit: Any) -> str:
    """The tag of an untagged node, as PyYAML's Resolver.resolve gives it. libyaml's
    composer calls this for every node of a document (412,734 times for openshift/api's
    CRDs and kept objects); PyYAML's own method builds a list of the candidate regexes on
    each call, and only a plain scalar whose first character may begin a bool, int,
    float, null, timestamp, merge or value key needs any."""
    if kind is yaml.ScalarNode:
        if implicit[0]:
            for tag, regexp in _IMPLICIT.get(value[:1] if value else "", ()):
                if regexp.match(value or ""):
                    return tag
        return _STR
    return _SEQ if kind is yaml.SequenceNode else _MAP


class _Loader(_Base):  # type: ignore[misc]
    """The safe loader with a resolver that skips PyYAML's per-node bookkeeping of path
    resolvers (there are none): the composer calls `descend_resolver(parent, index)` and
    `ascend_resolver()` around every node, so they are bound to builtins that accept
    those arguments and do nothing (a Python no-op costs a frame per call)."""

    resolve = _resolve
    descend_resolver = slice  # slice(parent, index): no effect
    ascend_resolver = tuple  # tuple(): no effect


# Both scanners (libyaml's and PyYAML's) read an anchor as `&` and an alias as `*`
# followed by letters, digits, `_` or `-`, then a blank, a line end or one of
# `?:,]}%@` and a backquote, and the token starts after a blank, a line start or
# `[{,:`. A text without both an anchor and an alias shares no node, so there is nothing
# to count: every CRD of 837 in eight corpus projects is read without the walk (markdown
# `**bold**`, `*.example.com` and CEL's `&&` are no such tokens). The regexes start with
# their sigil, so that the search skips ahead to it; the token's start is checked after.
_FOLLOW = r"(?=[\s\x00?:,\]}%@`]|\Z)"
_TOKENS = {
    "&": re.compile(r"&[0-9A-Za-z_-]+" + _FOLLOW),
    "*": re.compile(r"\*[0-9A-Za-z_-]+" + _FOLLOW),
}
_ALIAS = _TOKENS["*"]

# go-yaml's bounds (decode.go, allowedAliasRatio)
_MIN_VISITS = 1000
_MIN_ALIAS_VISITS = 100
_LOW = 400_000
_HIGH = 4_000_000


class YamlError(Exception):
    """A text that is not YAML, or that the alias budget refuses (`aliasing`: a text
    Kubernetes refuses too, never a template still to be rendered); `line`/`column` are
    1-based, in the text given."""

    def __init__(self, message: str, line: int, column: int, *, aliasing: bool = False) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.aliasing = aliasing
        super().__init__(f"{line}:{column}: {message}")


def allowed_alias_share(visits: int) -> float:
    """The share of a document's decode visits that may come through aliases."""
    if visits <= _LOW:
        return 0.99
    if visits >= _HIGH:
        return 0.10
    return 0.99 - 0.89 * (visits - _LOW) / (_HIGH - _LOW)


@dataclass(frozen=True)
class _Edge:
    parent: int
    index: int


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        # go-yaml decodes a merge key's value, not the `<<` itself
        return [n for k, v in node.value for n in ((v,) if k.tag == _MERGE else (k, v))]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def check_aliases(root: yaml.Node, text: str) -> None:
    """Raise YamlError when the document composed from `text` at `root` passes the alias
    budget, or an anchor contains itself (see the module's docs)."""
    first_edge: dict[int, _Edge | None] = {id(root): None}
    visits = 1  # go-yaml counts the document node too
    alias_visits = 0
    # (node, alias depth, where the outermost alias being expanded is written, whether
    # an alias leads to this node); an int marks the end of that node's expansion
    stack: list[tuple[yaml.Node, int, tuple[int, int] | None, bool] | int] = [
        (root, 0, None, False)
    ]
    expanding: set[int] = set()
    while stack:
        top = stack.pop()
        if isinstance(top, int):
            expanding.discard(top)
            continue
        node, depth, where, aliased = top
        if aliased:
            if id(node) in expanding:
                line, column = where or _start(node)
                raise YamlError(
                    "an anchor's value contains an alias of itself", line, column, aliasing=True
                )
            expanding.add(id(node))
            stack.append(id(node))
            visits += 1  # the alias itself, seen from where it is written
            if depth > 1:
                alias_visits += 1
        visits += 1
        if depth:
            alias_visits += 1
        if (
            alias_visits > _MIN_ALIAS_VISITS
            and visits > _MIN_VISITS
            and alias_visits / visits > allowed_alias_share(visits)
        ):
            line, column = where or _start(node)
            raise YamlError(
                f"excessive aliasing: expanding the aliases from here on makes the document "
                f"{visits:,} nodes, {alias_visits:,} of them copies made by aliases: more "
                f"than the {allowed_alias_share(visits):.0%} that Kubernetes' YAML decoder "
                "(go-yaml) allows, so the API server and kubectl refuse it too",
                line,
                column,
                aliasing=True,
            )
        kids = _children(node)
        for index in range(len(kids) - 1, -1, -1):
            kid = kids[index]
            edge = _Edge(id(node), index)
            known = first_edge.setdefault(id(kid), edge)
            if known == edge:
                stack.append((kid, depth, where, False))
                continue
            # an alias: the node it names, expanded one level deeper
            at = where or _alias_position(text, node, index)
            stack.append((kid, depth + 1, at, True))


def _start(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _alias_position(text: str, parent: yaml.Node, index: int) -> tuple[int, int]:
    """Where the alias that is child `index` of `parent` is written. The composed tree
    keeps no node for an alias, only the node it names, so this is the first `*` after
    the text that precedes it (the previous sibling, or the parent's start)."""
    if index:
        before = _children(parent)[index - 1].end_mark
    elif isinstance(parent, yaml.MappingNode | yaml.SequenceNode) and parent.flow_style:
        before = parent.start_mark  # `[` or `{`
    else:
        before = parent.start_mark
    start = before.index if before.index is not None else 0
    found = _ALIAS.search(text, start)
    if found is None:
        return before.line + 1, before.column + 1
    line = text.count("\n", 0, found.start())
    column = found.start() - (text.rfind("\n", 0, found.start()) + 1)
    return line + 1, column + 1


def compose_documents(text: str) -> list[yaml.Node]:
    """The node tree of every document of a YAML stream (empty documents included, as
    None is never returned: they are skipped), each checked against the alias budget."""
    with gc_paused():
        try:
            nodes = [n for n in yaml.compose_all(text, Loader=_Loader) if n is not None]
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
            raise YamlError(e.problem or str(e), line, col) from None
        except yaml.YAMLError as e:
            raise YamlError(str(e), 1, 1) from None
        if _has_token(text, "&") and _has_token(text, "*"):
            for node in nodes:
                check_aliases(node, text)
        return nodes


def _has_token(text: str, sigil: str) -> bool:
    """Whether `text` may hold an anchor (`&`) or alias (`*`) token (see _TOKENS)."""
    for m in _TOKENS[sigil].finditer(text):
        i = m.start()
        if i == 0 or text[i - 1].isspace() or text[i - 1] in "[{,:":
            return True
    return False


class _Constructor(yaml.constructor.SafeConstructor):
    pass


def new_constructor() -> _Constructor:
    return _Constructor()


def to_value(node: yaml.Node, other: _Constructor | None = None) -> Any:
    """The plain value of a composed node (str/int/bool/None/float, dict, list); each
    alias becomes a copy, so the node must have passed `check_aliases`.

    Strings, mappings and sequences are built directly (they are nearly all of a CRD);
    other scalar tags go through PyYAML's safe constructor for YAML 1.1's exact rules.
    Raises YamlError for a scalar the constructor refuses (`!!int x`).
    """
    try:
        return _to_value(node, other if other is not None else _Constructor())
    except (yaml.MarkedYAMLError, ValueError, TypeError) as e:
        mark = getattr(e, "problem_mark", None) or node.start_mark
        problem = getattr(e, "problem", None) or str(e)
        raise YamlError(problem, mark.line + 1, mark.column + 1) from None


def _to_value(node: yaml.Node, c: _Constructor) -> Any:
    tag = node.tag
    if tag == _STR:
        return node.value
    if tag == _MAP:
        if any(k.tag == _MERGE for k, _ in node.value):
            return _merged(node, c)
        return {_to_value(k, c): _to_value(v, c) for k, v in node.value}
    if tag == _SEQ:
        return [_to_value(v, c) for v in node.value]
    if tag == _NULL:
        return None
    if tag == _BOOL:
        found = _BOOLS.get(node.value.lower())
        if found is None:  # `!!bool x`: PyYAML's constructor raises a KeyError
            raise ValueError(f"not a bool: {node.value!r}")
        return found
    if tag == _INT and _DECIMAL.fullmatch(node.value):
        return int(node.value)
    # octal, hex, binary, sexagesimal ints, floats, timestamps, binary, sets...
    return c.construct_object(node, deep=True)


_NULL = "tag:yaml.org,2002:null"
_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
# the values PyYAML's bool and int constructors give: the resolver has already matched
# the scalar against YAML 1.1's bool regex, so its lowercase form is one of these
_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
# an int that int() reads as YAML 1.1 does: no leading 0 (octal), no `_`, no `:`
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")


def _merged(node: yaml.Node, c: _Constructor) -> dict[Any, Any]:
    """A mapping with `<<` keys (YAML 1.1 merge, which go-yaml honours): the keys of the
    merged mappings first, an earlier one winning over a later one, then its own keys."""
    out: dict[Any, Any] = {}
    own: list[tuple[yaml.Node, yaml.Node]] = []
    for k, v in node.value:
        if k.tag != _MERGE:
            own.append((k, v))
            continue
        sources = v.value if isinstance(v, yaml.SequenceNode) else [v]
        for source in reversed(sources):
            value = _to_value(source, c)
            if not isinstance(value, dict):
                raise ValueError("a merge key (<<) takes a mapping or a list of mappings")
            out.update(value)
    out.update({_to_value(k, c): _to_value(v, c) for k, v in own})
    return out


def load_value(text: str) -> Any:
    """The plain value of a one-document YAML text (None when it is empty); more than
    one document is an error."""
    nodes = compose_documents(text)
    if len(nodes) > 1:
        start = nodes[1].start_mark
        raise YamlError(
            "expected a single document, found another", start.line + 1, start.column + 1
        )
    if not nodes:
        return None
    with gc_paused():
        return to_value(nodes[0])
