"""Marker grammar and the registry of known markers.

A marker is a comment line whose text, after `//` and leading white space, starts
with `+`. This module turns such a line into a `Marker`; it knows
nothing about unions. The registry says, for each known marker, where it may appear
and what shape its argument has, so the parser and the checker never match strings
by hand.

Grammar (one marker per comment line, trailing white space ignored):

    marker   = "+" name rest
    name     = letter-or-"_" { letter | digit | "_" | "-" | "." | ":" | "/" }
    rest     = depends on the marker's Shape (see `Shape`)
    args     = "(" [ arg { "," arg } ] ")"          (ARGS shape and unknown names)
    arg      = [ identifier ":" ] argvalue
    argvalue = Go "string" | Go `raw string` | bare word (number, true, Gate, ...)

Decisions where the sources are silent (also in docs):

- `+` followed by nothing, by white space, or by a character that cannot start a name
  (`+1`, `+-`, `+=`) is prose, not a marker: `parse_line` returns None.
- Unknown names are parsed leniently and never produce a MarkerError, because they
  belong to other generators whose grammar we do not own: `+name=rest` keeps the whole
  rest as the value (`+k8s:deepcopy-gen=package,register` has value
  `package,register` and no flags); `+name,a,b` keeps `a`, `b` as flags; `+name(args)`
  keeps the arguments when they parse, and drops them silently when they do not.
- Stage / gate prefixes (`+k8s:alpha`, `+k8s:beta`, `+k8s:ifEnabled`,
  `+k8s:ifDisabled`) yield their payload marker with `stage`, `since`, `gate` set,
  `raw` the whole line and `pos` the `+` of the prefix. A gate may wrap a stage and a
  stage a gate; two gates are an error; a stage inside a stage is accepted as
  validation-gen accepts it, and the outermost stage wins.
- A MarkerError's `pos` is the character where the problem is (the `(` that is never
  closed, the quote that starts an unterminated string, the bad flag), so editors can
  jump to it; `raw` is the whole marker text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from types import MappingProxyType
from typing import Final

from markergen.golang.literals import LiteralError, unquote
from markergen.golang.syntax import BlockCommentLine, CommentGroup, Position, position


class Target(str, Enum):
    PACKAGE = "package"
    TYPE = "type"
    FIELD = "field"
    # Only `+k8s:enumExclude` belongs here; the others are read to report union/enum
    # markers written on a constant by mistake (MG005).
    CONST = "const"
    VAR = "var"  # no marker belongs here: read to report union/enum markers (MG005)
    FUNC = "func"  # nor here (functions and methods)


class Shape(str, Enum):
    """How the text after the marker name is read."""

    NONE = "none"  # `+optional`; a value is tolerated and kept but means nothing
    VALUE_FLAGS = "value-flags"  # `+unionMember[=value][,flag...]`
    RAW = "raw"  # `+default=<anything, commas included>`: the whole rest is the value
    LIST = "list"  # `+kubebuilder:validation:Enum=A;B;C`
    ARGS = "args"  # `+k8s:name(key: "v", positional)[=payload]`


@dataclass(frozen=True)
class MarkerDef:
    name: str
    targets: frozenset[Target]
    shape: Shape
    union_or_enum: bool = False  # counted for "did you mean" (MG003)
    help: str = ""
    # Additive (grammar details the parser enforces for known markers):
    flags: frozenset[str] = frozenset()  # VALUE_FLAGS: the only flags allowed
    value_required: bool = False  # `=value` must be present and non-empty
    arg_names: frozenset[str] | None = None  # ARGS: allowed named arguments (None: any)
    positional: int | None = None  # ARGS: exact number of positional arguments (None: any)
    prefix: str = ""  # "stage" (`k8s:alpha`, `k8s:beta`) or "gate" (`k8s:ifEnabled`, ...)
    # `=` with nothing after it is a value: `+groupName=` names Kubernetes' core group.
    empty_value: bool = False


@dataclass(frozen=True)
class Wrap:
    """One path wrapper of validation-gen (`+k8s:item(...)=`, `+k8s:subfield(name)=`,
    `+k8s:eachVal=`, `+k8s:eachKey=`): where the payload applies, below the field or
    type the line is written on."""

    kind: str  # the wrapper's marker name: K8S_ITEM, K8S_SUBFIELD, K8S_EACH_VAL, K8S_EACH_KEY
    name: str = ""  # subfield: the JSON name of the subfield
    # item: the selection criteria as written, (key, JSON text of the value): a quoted
    # argument is a string (`"a"` → `"a"`), a bare one a number or a bool (`10`, `true`)
    selector: tuple[tuple[str, str], ...] = ()
    positional: tuple[str, ...] = ()  # item: arguments without a name (validation-gen refuses them)

    def selector_text(self) -> str:
        """validation-gen's rendering of the criteria: `{"name": "a", "port": 80}`."""
        return "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in self.selector) + "}"


@dataclass(frozen=True)
class Marker:
    """One parsed marker.

    For stage / gate prefixes (`+k8s:alpha(since: "1.37")=+k8s:unionMember`) the marker
    is its payload (name `k8s:unionMember`) with `stage`, `since` and `gate` kept.
    """

    name: str  # e.g. "unionMember", "kubebuilder:validation:Enum", "k8s:unionMember"
    value: str | None  # text after `=` (shape-dependent; see Shape), None if no `=`
    flags: tuple[str, ...]  # comma flags after the value or name: `,optional`
    args: tuple[tuple[str, str], ...]  # named arguments in `(...)`, values unquoted
    positional: tuple[str, ...]  # positional arguments in `(...)`, unquoted
    raw: str  # the whole marker text from `+` to end of line, trailing space removed
    pos: Position  # position of the `+`
    stage: str = ""  # "alpha" / "beta" when wrapped in a stage prefix
    since: str = ""  # the stage prefix's `since:` argument
    gate: str = ""  # feature gate of `+k8s:ifEnabled(Gate)=` / `ifDisabled`
    gate_disabled: bool = False  # additive: True for `+k8s:ifDisabled(Gate)=`
    # validation-gen's path wrappers around the payload, outermost first:
    # `+k8s:subfield(spec)=+k8s:item(name: "a")=+k8s:unionMember` has two steps.
    via: tuple[Wrap, ...] = ()
    # Written in a `/* */` comment, where controller-gen reads no marker.
    in_block: bool = False

    def arg(self, key: str) -> str | None:
        for k, v in self.args:
            if k == key:
                return v
        return None

    def has_flag(self, flag: str) -> bool:
        return flag in self.flags

    @property
    def values(self) -> tuple[str, ...]:
        """For LIST markers: the items of the value, quoted items unquoted.

        `A;B;C`, `"A";"";B` and controller-tools' brace form `{A,B,C}` are understood.
        A value that does not parse as a list (only possible for markers built by
        hand) falls back to a plain split on `;`.
        """
        if self.value is None:
            return ()
        try:
            return split_list(self.value)
        except _ParseError:
            return tuple(self.value.split(";"))


@dataclass(frozen=True)
class MarkerError:
    """A marker line that could not be parsed (MG004)."""

    message: str
    raw: str
    pos: Position


# ---------------------------------------------------------------------------
# Registry


_F = frozenset({Target.FIELD})
_T = frozenset({Target.TYPE})
_P = frozenset({Target.PACKAGE})
_FT = frozenset({Target.FIELD, Target.TYPE})
_ALL = frozenset({Target.PACKAGE, Target.TYPE, Target.FIELD})
_MEMBER_ARGS = frozenset({"union", "memberName"})

# The names of the union and enum markers, declared here once with their definitions in
# default_registry(); the dialects (markergen/model/dialects/) and the rules use these.
UNION: Final = "union"
UNION_DEPRECATED: Final = "unionDeprecated"
UNION_DISCRIMINATOR: Final = "unionDiscriminator"
UNION_MEMBER: Final = "unionMember"
UNION_DISCRIMINATED_BY: Final = "unionDiscriminatedBy"
ENUM: Final = "enum"
K8S_UNION_DISCRIMINATOR: Final = "k8s:unionDiscriminator"
K8S_UNION_MEMBER: Final = "k8s:unionMember"
K8S_ZERO_OR_ONE_OF_MEMBER: Final = "k8s:zeroOrOneOfMember"
K8S_ENUM: Final = "k8s:enum"
KUBEBUILDER_ENUM: Final = "kubebuilder:validation:Enum"
# validation-gen's state-based ("modal") validation: `+k8s:modeDiscriminator(modality: "m")`
# on the discriminator, `+k8s:ifMode("Value")=<tag>` (or `ifMode(modality: "m", mode: "V")`)
# on the fields whose rules depend on it; `+k8s:discriminator(name: "m")` and
# `+k8s:member(discriminator: "m", value: "V")=<tag>` are the earlier spellings (MG110).
K8S_MODE_DISCRIMINATOR: Final = "k8s:modeDiscriminator"
K8S_IF_MODE: Final = "k8s:ifMode"
K8S_OLD_DISCRIMINATOR: Final = "k8s:discriminator"
K8S_OLD_MEMBER: Final = "k8s:member"
# On a constant of a `+k8s:enum` type: the value is not in the enum (alone, or inside
# `+k8s:ifEnabled(Opt)=` / `+k8s:ifDisabled(Opt)=`: only under that condition).
K8S_ENUM_EXCLUDE: Final = "k8s:enumExclude"
# validation-gen's presence tags, as payloads of `+k8s:ifMode(...)=` and on enum fields.
K8S_OPTIONAL: Final = "k8s:optional"
K8S_REQUIRED: Final = "k8s:required"
K8S_FORBIDDEN: Final = "k8s:forbidden"
# validation-gen's path wrappers (prefix "path" in the registry): the payload applies to
# the list items whose keys match, to a subfield, to each value, to each map key.
K8S_ITEM: Final = "k8s:item"
K8S_SUBFIELD: Final = "k8s:subfield"
K8S_EACH_VAL: Final = "k8s:eachVal"
K8S_EACH_KEY: Final = "k8s:eachKey"
# validation-gen's spellings of the list markers (`+listType`, `+listMapKey`); not
# registered, as the rest of markergen reads the plain ones, but `+k8s:item` needs them.
K8S_LIST_TYPE: Final = "k8s:listType"
K8S_LIST_MAP_KEY: Final = "k8s:listMapKey"
K8S_UNIQUE: Final = "k8s:unique"
# openshift/api: `+openshift:validation:FeatureGateAwareEnum:featureGate=G,enum=a;b`, one
# line per gate; the type's values are every line's values (not a registered marker:
# controller-gen's `name:arg=value` form is kept whole as an unknown marker).
OPENSHIFT_FEATURE_GATE_AWARE_ENUM: Final = "openshift:validation:FeatureGateAwareEnum"
KUBEBUILDER_EXACTLY_ONE_OF: Final = "kubebuilder:validation:ExactlyOneOf"
KUBEBUILDER_AT_MOST_ONE_OF: Final = "kubebuilder:validation:AtMostOneOf"
KUBEBUILDER_AT_LEAST_ONE_OF: Final = "kubebuilder:validation:AtLeastOneOf"


@dataclass(frozen=True)
class Registry:
    """The known markers by name. Build with `Registry.of(defs)` or `default_registry()`."""

    by_name: Mapping[str, MarkerDef]

    @classmethod
    def of(cls, defs: Iterable[MarkerDef]) -> Registry:
        table: dict[str, MarkerDef] = {}
        for d in defs:
            if d.name in table:
                raise ValueError(f"marker {d.name!r} defined twice")
            table[d.name] = d
        return cls(MappingProxyType(table))

    def get(self, name: str) -> MarkerDef | None:
        return self.by_name.get(name)

    def suggest(self, name: str) -> str | None:
        """The known union/enum marker an unknown `name` was probably meant to be.

        Names are split at their last `:`; the last segments are compared with the
        optimal-string-alignment distance, case-insensitively, and a differing prefix
        adds its own distance (a name with a prefix is never matched to one without). Short
        candidates (5 characters or fewer, `enum`, `union`) allow distance 1 only:
        at distance 2, `enum` would match prose such as `+end` or `+item`.
        """
        if name in self.by_name:
            return None
        prefix, _, last = name.lower().rpartition(":")
        best: tuple[int, str] | None = None
        for d in self.by_name.values():
            if not d.union_or_enum:
                continue
            d_prefix, _, d_last = d.name.lower().rpartition(":")
            limit = 1 if len(d_last) <= 5 else 2
            # The distance is at least the difference in length: most candidates are
            # ruled out without computing it (an API tree has dozens of unknown names).
            if abs(len(last) - len(d_last)) > limit:
                continue
            if d_prefix == prefix:
                dist = edit_distance(last, d_last)
            elif prefix and d_prefix:
                if abs(len(prefix) - len(d_prefix)) + abs(len(last) - len(d_last)) > limit:
                    continue
                # a typo in the prefix (`+kubebuilder:validaton:Enum`, `+k8:unionMember`)
                # counts with the name's own edits
                dist = edit_distance(prefix, d_prefix) + edit_distance(last, d_last)
            else:
                continue
            if dist <= limit and (best is None or (dist, d.name) < best):
                best = (dist, d.name)
        return None if best is None else best[1]


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (Damerau-Levenshtein without re-editing)."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return rows[len(a)][len(b)]


def default_registry() -> Registry:
    """Every marker markergen knows, with where it may appear and its shape."""
    N, VF, RAW, LIST, ARGS = Shape.NONE, Shape.VALUE_FLAGS, Shape.RAW, Shape.LIST, Shape.ARGS
    return Registry.of(
        [
            # kep2019 (the 2019 KEP, the 2019 KEP)
            MarkerDef(UNION, _T, N, True, "struct is a union (kep2019)"),
            MarkerDef(UNION_DEPRECATED, _F, N, True, "member of the deprecated union"),
            # kep2019 / kep2022 / kep1027
            MarkerDef(UNION_DISCRIMINATOR, _F, N, True, "the union's discriminator field"),
            MarkerDef(
                UNION_MEMBER,
                _F,
                VF,
                True,
                "union member: +unionMember[=<memberName>][,optional]",
                flags=frozenset({"optional"}),
            ),
            MarkerDef(
                UNION_DISCRIMINATED_BY,
                _F,
                VF,
                True,
                "member's discriminator when a struct has several unions",
                value_required=True,
            ),
            MarkerDef(ENUM, _T, N, True, "string type whose constants are its values"),
            # k8s declarative validation
            MarkerDef(
                K8S_UNION_DISCRIMINATOR,
                _F,
                ARGS,
                True,
                'discriminator: +k8s:unionDiscriminator(union: "u")',
                arg_names=frozenset({"union"}),
                positional=0,
            ),
            MarkerDef(
                K8S_UNION_MEMBER,
                _F,
                ARGS,
                True,
                'member: +k8s:unionMember(union: "u", memberName: "X")',
                arg_names=_MEMBER_ARGS,
                positional=0,
            ),
            MarkerDef(
                K8S_ZERO_OR_ONE_OF_MEMBER,
                _F,
                ARGS,
                True,
                "member of an at-most-one union without discriminator",
                arg_names=_MEMBER_ARGS,
                positional=0,
            ),
            MarkerDef(K8S_ENUM, _T, ARGS, True, "enum type", arg_names=frozenset(), positional=0),
            MarkerDef(
                K8S_ENUM_EXCLUDE,
                frozenset({Target.CONST}),
                ARGS,
                True,
                "constant that is not a value of its +k8s:enum type",
                arg_names=frozenset(),
                positional=0,
            ),
            MarkerDef(
                K8S_MODE_DISCRIMINATOR,
                _F,
                ARGS,
                True,
                'mode discriminator: +k8s:modeDiscriminator(modality: "m")',
                arg_names=frozenset({"modality"}),
                positional=0,
            ),
            MarkerDef(
                K8S_IF_MODE,
                _F,
                ARGS,
                True,
                'rule for one mode: +k8s:ifMode("Value")=+k8s:required',
                arg_names=frozenset({"modality", "mode"}),
            ),
            MarkerDef(
                K8S_OLD_DISCRIMINATOR,
                _F,
                ARGS,
                True,
                "earlier spelling of +k8s:modeDiscriminator",
                arg_names=frozenset({"name"}),
                positional=0,
            ),
            MarkerDef(
                K8S_OLD_MEMBER,
                _F,
                ARGS,
                True,
                "earlier spelling of +k8s:ifMode",
                arg_names=frozenset({"discriminator", "value"}),
            ),
            MarkerDef(K8S_OPTIONAL, _F, ARGS, arg_names=frozenset(), positional=0),
            MarkerDef(K8S_REQUIRED, _F, ARGS, arg_names=frozenset(), positional=0),
            # stability and feature-gate prefixes: the payload is another marker
            *(
                MarkerDef(
                    n, _ALL, ARGS, arg_names=frozenset({"since"}), positional=0, prefix="stage"
                )
                for n in ("k8s:alpha", "k8s:beta")
            ),
            *(
                MarkerDef(n, _ALL, ARGS, arg_names=frozenset(), positional=1, prefix="gate")
                for n in ("k8s:ifEnabled", "k8s:ifDisabled")
            ),
            # path wrappers: the payload applies below the field or type (docs/k8s.md)
            MarkerDef(K8S_ITEM, _FT, ARGS, prefix="path"),
            MarkerDef(K8S_SUBFIELD, _FT, ARGS, arg_names=frozenset(), positional=1, prefix="path"),
            MarkerDef(K8S_EACH_VAL, _FT, ARGS, arg_names=frozenset(), positional=0, prefix="path"),
            MarkerDef(K8S_EACH_KEY, _FT, ARGS, arg_names=frozenset(), positional=0, prefix="path"),
            # understood because real projects use them
            MarkerDef("optional", _F, N),
            MarkerDef("required", _F, N),
            MarkerDef("kubebuilder:validation:Optional", _ALL, N),
            MarkerDef("kubebuilder:validation:Required", _ALL, N),
            MarkerDef(
                KUBEBUILDER_ENUM,
                _FT,
                LIST,
                True,
                "enum values: +kubebuilder:validation:Enum=A;B;C",
                value_required=True,
            ),
            MarkerDef("kubebuilder:default", _F, RAW, value_required=True),
            # controller-gen's own unions on a struct, over JSON field names
            MarkerDef(KUBEBUILDER_EXACTLY_ONE_OF, _T, LIST, True, value_required=True),
            MarkerDef(KUBEBUILDER_AT_MOST_ONE_OF, _T, LIST, True, value_required=True),
            MarkerDef(KUBEBUILDER_AT_LEAST_ONE_OF, _T, LIST, True, value_required=True),
            MarkerDef("default", _F, RAW, value_required=True),
            MarkerDef("listType", _F, VF, value_required=True),
            MarkerDef("listMapKey", _F, VF, value_required=True),
            MarkerDef("mapType", _F, VF, value_required=True),
            MarkerDef("structType", _F, VF, value_required=True),
            # `merge,retainKeys` (the retainKeys proposal) has a comma, so the whole rest is the value
            MarkerDef("patchStrategy", _F, RAW, value_required=True),
            MarkerDef("patchMergeKey", _F, VF, value_required=True),
            MarkerDef("kubebuilder:object:root", _T, N),
            MarkerDef("groupName", _P, VF, value_required=True, empty_value=True),
        ]
    )


REGISTRY: Registry = default_registry()


# ---------------------------------------------------------------------------
# Parsing


class _ParseError(Exception):
    """Internal: a problem at index `at` of the marker text; never leaves this module."""

    def __init__(self, message: str, at: int) -> None:
        super().__init__(message)
        self.message = message
        self.at = at


_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME_CHARS = _NAME_START | frozenset("0123456789-.:/")
_IDENT_CHARS = _NAME_START | frozenset("0123456789")
# A bare argument value ends at any of these (or white space).
_BARE_STOP = frozenset(',():"`=')


def _is_name_start(ch: str) -> bool:
    return ch in _NAME_START


def _scan_name(s: str, i: int) -> int:
    while i < len(s) and s[i] in _NAME_CHARS:
        i += 1
    return i


def _skip_ws(s: str, i: int) -> int:
    while i < len(s) and s[i].isspace():
        i += 1
    return i


def _show(ch: str) -> str:
    return "white space" if ch.isspace() else repr(ch)


def _go_string(s: str, i: int) -> tuple[str, int]:
    """Decode the Go interpreted string starting at s[i] == '"'; return (value, end).

    Finds the closing quote (skipping escaped characters), then decodes with the front
    end's decoder, so markers and Go source agree on every escape.
    """
    j = i + 1
    while j < len(s):
        ch = s[j]
        if ch == "\\":
            j += 2
            continue
        if ch == '"':
            try:
                return unquote(s[i : j + 1]), j + 1
            except LiteralError as e:
                raise _ParseError(str(e), i + e.offset) from None
        j += 1
    raise _ParseError("unterminated string: missing closing '\"'", i)


def _raw_string(s: str, i: int) -> tuple[str, int]:
    end = s.find("`", i + 1)
    if end < 0:
        raise _ParseError("unterminated string: missing closing '`'", i)
    return s[i + 1 : end], end + 1


def _arg_value(s: str, i: int) -> tuple[str, int, bool]:
    """One argument value at s[i]; return (value, end, is_bare)."""
    if s[i] == '"':
        value, end = _go_string(s, i)
        return value, end, False
    if s[i] == "`":
        value, end = _raw_string(s, i)
        return value, end, False
    j = i
    while j < len(s) and not s[j].isspace() and s[j] not in _BARE_STOP:
        j += 1
    if j == i:
        raise _ParseError(f"unexpected {_show(s[i])} in arguments", i)
    return s[i:j], j, True


def keyed_value(s: str, i: int) -> tuple[str, int]:
    """One value of kubebuilder's `key=value,key=value` arguments at s[i] (the form of
    `+kubebuilder:validation:XValidation:rule="...",message="..."`): a Go string or a raw
    string, read as every marker's strings are, or bare text up to the next comma; return
    (value, index after it). A string that does not end or decode reads as "" and ends
    the arguments."""
    if i < len(s) and s[i] in '"`':
        try:
            return _go_string(s, i) if s[i] == '"' else _raw_string(s, i)
        except _ParseError:
            return "", len(s)
    end = s.find(",", i)
    end = len(s) if end < 0 else end
    return s[i:end], end


def _parse_args(s: str, i: int) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...], int]:
    """Arguments `( ... )` with s[i] == '('; return (named, positional, index after ')')."""
    open_at = i
    named: list[tuple[str, str]] = []
    positional: list[str] = []
    i = _skip_ws(s, i + 1)
    if i < len(s) and s[i] == ")":
        return (), (), i + 1
    while True:
        i = _skip_ws(s, i)
        if i >= len(s):
            raise _ParseError("unbalanced parentheses: '(' is never closed", open_at)
        if s[i] in ",)":
            raise _ParseError("empty argument", i)
        start = i
        token, i, bare = _arg_value(s, i)
        i = _skip_ws(s, i)
        if i < len(s) and s[i] == ":":
            if not bare or token[0] not in _NAME_START or not set(token) <= _IDENT_CHARS:
                raise _ParseError(f"argument name {token!r} is not an identifier", start)
            i = _skip_ws(s, i + 1)
            if i >= len(s) or s[i] in ",)":
                raise _ParseError(f"argument {token!r} has no value after ':'", start)
            value, i, _ = _arg_value(s, i)
            if any(k == token for k, _ in named):
                raise _ParseError(f"duplicate argument {token!r}", start)
            named.append((token, value))
            i = _skip_ws(s, i)
        else:
            positional.append(token)
        if i >= len(s):
            raise _ParseError("unbalanced parentheses: '(' is never closed", open_at)
        if s[i] == ",":
            i += 1
            continue
        if s[i] == ")":
            return tuple(named), tuple(positional), i + 1
        raise _ParseError(f"unexpected {_show(s[i])} in arguments; expected ',' or ')'", i)


def split_list(value: str) -> tuple[str, ...]:
    """Items of a LIST value: `A;B;C`, `"A";"B"` or `{A,B}`; quoted items unquoted.

    Raises `_ParseError` (internal) on an empty item or an unterminated string;
    `parse_line` reports that as a MarkerError, `Marker.values` falls back.
    """
    base = 0
    sep = ";"
    if value.startswith("{"):
        if not value.endswith("}"):
            raise _ParseError("list starting with '{' must end with '}'", len(value) - 1)
        base, sep, value = 1, ",", value[1:-1]
    items: list[str] = []
    i = 0
    while True:
        i = _skip_ws(value, i)
        start = i
        if i < len(value) and value[i] in '"`':
            item, i = _go_string(value, i) if value[i] == '"' else _raw_string(value, i)
            i = _skip_ws(value, i)
            if i < len(value) and value[i] != sep:
                raise _ParseError(f"unexpected {_show(value[i])} after quoted list item", base + i)
        else:
            end = value.find(sep, i)
            end = len(value) if end < 0 else end
            item = value[i:end].strip()
            i = end
            if item == "" and i >= len(value) and items:
                return tuple(items)  # a trailing `;`, which controller-gen ignores
            if item == "":
                raise _ParseError(
                    'empty item in list (write "" for the empty string)', base + start
                )
        items.append(item)
        if i >= len(value):
            return tuple(items)
        i += 1  # the separator


@dataclass(frozen=True)
class _Parsed:
    value: str | None = None
    flags: tuple[str, ...] = ()
    args: tuple[tuple[str, str], ...] = ()
    positional: tuple[str, ...] = ()


class _LineParser:
    """Parses one marker text `s` (starting at its `+`); indices are offsets into `s`."""

    def __init__(self, s: str, registry: Registry) -> None:
        self.s = s
        self.registry = registry

    def marker(self, i: int) -> tuple[str, _Parsed, MarkerDef | None]:
        """Parse the marker whose `+` is at s[i]; the marker runs to the end of `s`."""
        s = self.s
        end = _scan_name(s, i + 1)
        if s[end - 1 : end + 1] == ":=":
            # controller-gen also accepts `+name:=value` (openshift/api writes
            # `+kubebuilder:validation:Enum:=A;B`): the `:` belongs to no name.
            end -= 1
            s = self.s = s[:end] + s[end + 1 :]
        name = s[i + 1 : end]
        d = self.registry.get(name)
        if d is None:
            return name, self._unknown(end), None
        if d.shape is Shape.NONE:
            return name, self._none(d, end), d
        if d.shape is Shape.VALUE_FLAGS:
            return name, self._value_flags(d, end), d
        if d.shape in (Shape.RAW, Shape.LIST):
            return name, self._raw_or_list(d, end), d
        return name, self._args(d, end), d

    def _unknown(self, i: int) -> _Parsed:
        s = self.s
        if i >= len(s):
            return _Parsed()
        if s[i] == "=":
            return _Parsed(value=s[i + 1 :])
        if s[i] == ",":
            return _Parsed(flags=tuple(f.strip() for f in s[i + 1 :].split(",")))
        if s[i] == "(":
            try:
                args, positional, j = _parse_args(s, i)
            except _ParseError:
                return _Parsed()
            value = s[j + 1 :] if j < len(s) and s[j] == "=" else None
            return _Parsed(args=args, positional=positional, value=value)
        return _Parsed()

    def _none(self, d: MarkerDef, i: int) -> _Parsed:
        s = self.s
        if i >= len(s):
            return _Parsed()
        if s[i] == "=":
            return _Parsed(value=s[i + 1 :])
        raise _ParseError(f"unexpected {_show(s[i])} after +{d.name}: it takes no value", i)

    def _missing_value(self, d: MarkerDef, at: int) -> _ParseError:
        return _ParseError(f"+{d.name} needs a value: +{d.name}=<value>", at)

    def _value_flags(self, d: MarkerDef, i: int) -> _Parsed:
        s = self.s
        value: str | None = None
        if i < len(s) and s[i] == "=":
            end = s.find(",", i + 1)
            end = len(s) if end < 0 else end
            value = s[i + 1 : end]
            if value == "" and not d.empty_value:
                raise _ParseError(f"+{d.name}= has an empty value after '='", i + 1)
            for k, ch in enumerate(value):
                if ch.isspace():
                    raise _ParseError(f"white space in the value of +{d.name}", i + 1 + k)
            i = end
        elif d.value_required:
            raise self._missing_value(d, i)
        flags: list[str] = []
        if i < len(s) and s[i] == ",":
            start = i + 1
            for part in s[i + 1 :].split(","):
                flag = part.strip()
                at = start + (len(part) - len(part.lstrip()))
                if flag == "":
                    raise _ParseError(f"empty flag after ',' in +{d.name}", at)
                if flag not in d.flags:
                    allowed = ", ".join(sorted(d.flags))
                    why = f"allowed: {allowed}" if allowed else f"+{d.name} takes no flags"
                    raise _ParseError(f"unknown flag {flag!r} on +{d.name} ({why})", at)
                if flag in flags:
                    raise _ParseError(f"flag {flag!r} given twice", at)
                flags.append(flag)
                start += len(part) + 1
            i = len(s)
        if i < len(s):
            raise _ParseError(f"unexpected {_show(s[i])} after +{d.name}", i)
        return _Parsed(value=value, flags=tuple(flags))

    def _raw_or_list(self, d: MarkerDef, i: int) -> _Parsed:
        s = self.s
        if i >= len(s):
            raise self._missing_value(d, i)
        if s[i] != "=":
            raise _ParseError(f"unexpected {_show(s[i])} after +{d.name}; expected '='", i)
        value = s[i + 1 :]
        if value.strip() == "":
            raise _ParseError(f"+{d.name}= has an empty value after '='", i + 1)
        if d.shape is Shape.LIST:
            try:
                split_list(value)
            except _ParseError as e:
                raise _ParseError(e.message, i + 1 + e.at) from None
        return _Parsed(value=value)

    def _args(self, d: MarkerDef, i: int) -> _Parsed:
        s = self.s
        args: tuple[tuple[str, str], ...] = ()
        positional: tuple[str, ...] = ()
        open_at = i
        if i < len(s) and s[i] == "(":
            args, positional, i = _parse_args(s, i)
        if d.arg_names is not None:
            for key, _ in args:
                if key not in d.arg_names:
                    allowed = ", ".join(sorted(d.arg_names)) or "none"
                    raise _ParseError(
                        f"unknown argument {key!r} for +{d.name} (allowed: {allowed})", open_at
                    )
        if d.positional is not None and len(positional) != d.positional:
            if d.prefix == "gate":
                msg = f"+{d.name} needs exactly one feature gate: +{d.name}(Gate)=+marker"
            else:
                msg = (
                    f"+{d.name} takes {d.positional} positional argument(s), got {len(positional)}"
                )
            raise _ParseError(msg, open_at)
        value: str | None = None
        if i < len(s):
            if s[i] == ")":
                raise _ParseError("unbalanced parentheses: unexpected ')'", i)
            if s[i] != "=":
                raise _ParseError(
                    f"unexpected {_show(s[i])} after +{d.name}; expected '(' or '='", i
                )
            value = s[i + 1 :]
            if value == "" and not d.prefix:
                raise _ParseError(f"+{d.name}= has an empty value after '='", i + 1)
        return _Parsed(value=value, args=args, positional=positional)


def _parse_at(s: str, i: int, parser: _LineParser, pos: Position, raw: str) -> Marker:
    """The marker at s[i] (its `+`), with stage / gate prefixes resolved into their payload."""
    name, parsed, d = parser.marker(i)
    if d is None or not d.prefix:
        return Marker(
            name=name,
            value=parsed.value,
            flags=parsed.flags,
            args=parsed.args,
            positional=parsed.positional,
            raw=raw,
            pos=pos,
        )
    payload_at = len(s) - len(parsed.value) if parsed.value is not None else len(s)
    if d.prefix == "path":
        return _wrapped(s, i, name, parsed, payload_at, parser, pos, raw)
    if parsed.value is None or parsed.value == "":
        raise _ParseError(
            f"+{name} has no payload: write +{name}=+<marker> (e.g. +{name}=+k8s:optional)",
            payload_at,
        )
    payload = parsed.value
    if not payload.startswith("+") or len(payload) < 2 or not _is_name_start(payload[1]):
        raise _ParseError(
            f"payload of +{name} is not a marker: expected '+<marker>', got {payload!r}",
            payload_at,
        )
    inner = _parse_at(s, payload_at, parser, pos, raw)
    if d.prefix == "stage":
        # validation-gen accepts a stage inside a stage (`+k8s:alpha=+k8s:alpha=...`, or
        # one under `+k8s:item(...)=+k8s:subfield(...)=`): its level tag stamps its own
        # level on every validation of the payload, so the outermost stage wins.
        since = _arg(parsed, "since") or (inner.since if inner.stage else "")
        return replace(inner, stage=name.rpartition(":")[2], since=since)
    if inner.gate:
        raise _ParseError(f"+{name} wraps another feature-gate prefix", payload_at)
    return replace(inner, gate=parsed.positional[0], gate_disabled=name == "k8s:ifDisabled")


def _wrapped(
    s: str,
    i: int,
    name: str,
    parsed: _Parsed,
    payload_at: int,
    parser: _LineParser,
    pos: Position,
    raw: str,
) -> Marker:
    """A path wrapper: its payload marker with the wrapper's step put in front of `via`.

    A payload that is no marker (`+k8s:eachVal=payload`) keeps the line as one marker
    of the wrapper's name, as before these wrappers were known: what validation-gen
    makes of it is not markergen's concern unless it is a union tag.
    """
    payload = parsed.value or ""
    if not payload.startswith("+") or len(payload) < 2 or not _is_name_start(payload[1]):
        return Marker(name, parsed.value, (), parsed.args, parsed.positional, raw, pos)
    inner = _parse_at(s, payload_at, parser, pos, raw)
    step = Wrap(name)
    if name == K8S_SUBFIELD:
        step = Wrap(name, name=parsed.positional[0])
    elif name == K8S_ITEM:
        step = Wrap(name, selector=_selector(s, i), positional=parsed.positional)
    return replace(inner, via=(step, *inner.via))


def _selector(s: str, i: int) -> tuple[tuple[str, str], ...]:
    """The named arguments of the `+k8s:item(...)` whose `+` is at s[i], each value as
    JSON text: quoted values are strings, bare ones are kept as written (`80`, `true`)."""
    j = _scan_name(s, i + 1)
    out: list[tuple[str, str]] = []
    if j >= len(s) or s[j] != "(":
        return ()
    j += 1
    while j < len(s) and s[j] != ")":
        j = _skip_ws(s, j)
        token, j, _ = _arg_value(s, j)
        j = _skip_ws(s, j)
        if j < len(s) and s[j] == ":":
            j = _skip_ws(s, j + 1)
            value, j, vbare = _arg_value(s, j)
            out.append((token, value if vbare else json.dumps(value)))
            j = _skip_ws(s, j)
        if j < len(s) and s[j] == ",":
            j += 1
    return tuple(out)


def _arg(parsed: _Parsed, key: str) -> str:
    for k, v in parsed.args:
        if k == key:
            return v
    return ""


# A marker line's outcome without its position: the Marker (its `pos` a placeholder),
# or a MarkerError's message and the offset of the fault from the `+`.
_Outcome = Marker | tuple[str, int]
_NOWHERE = Position("", 0, 0)


class LineCache:
    """Outcomes of marker lines already parsed against one registry.

    The same lines (`+optional`, `+listType=atomic`, `+k8s:openapi-gen=...`) repeat
    thousands of times across an API tree; an outcome depends only on the line's text
    and the registry, and its position is added back on each use.
    """

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._outcomes: dict[str, _Outcome] = {}
        # By a comment line's whole text (after `//`): the offset of its `+`, the marker
        # text and its outcome; None when the line is no marker (prose with a `+`).
        self._lines: dict[str, tuple[int, str, _Outcome] | None] = {}

    def outcome(self, body: str) -> _Outcome:
        found = self._outcomes.get(body)
        if found is None:
            try:
                found = _parse_at(body, 0, _LineParser(body, self.registry), _NOWHERE, body)
            except _ParseError as e:
                found = (e.message, min(max(e.at, 0), len(body)))
            self._outcomes[body] = found
        return found

    def line(self, text: str) -> tuple[int, str, _Outcome] | None:
        """`parse_line`'s reading of a comment line's text, without its position."""
        try:
            return self._lines[text]
        except KeyError:
            pass
        found: tuple[int, str, _Outcome] | None = None
        stripped = text.lstrip()
        if stripped.startswith("+"):
            body = stripped.rstrip()
            if len(body) >= 2 and _is_name_start(body[1]):
                found = (len(text) - len(stripped), body, self.outcome(body))
        self._lines[text] = found
        return found

    def group(self, group: CommentGroup) -> tuple[list[Marker], list[MarkerError]]:
        """Every marker of a comment group, in line order, and the lines that failed:
        each distinct line text is read once per cache, and a line's record (its
        position) is made only for a marker."""
        markers: list[Marker] = []
        errors: list[MarkerError] = []
        lines = self._lines
        index = -1
        for text in group.texts:
            index += 1
            if "+" not in text:
                continue  # most doc lines: no marker can start without a `+`
            found = lines[text] if text in lines else self.line(text)
            if found is None:
                continue
            offset, body, outcome = found
            line = group.line(index)
            pos = line.pos
            if isinstance(outcome, Marker):
                # `replace(outcome, pos=...)` without its cost (it re-runs `__init__`
                # through keyword arguments): a copy of the instance dict at this line
                marker = _new(Marker)
                fields = marker.__dict__
                fields.update(outcome.__dict__)
                fields["pos"] = position(pos.file, pos.line, pos.column + offset)
                if isinstance(line, BlockCommentLine):
                    fields["in_block"] = True  # a fresh copy: ours to set
                markers.append(marker)
            else:
                message, at = outcome
                column = pos.column + offset + at
                errors.append(MarkerError(message, body, position(pos.file, pos.line, column)))
        return markers, errors


_new = object.__new__


def parse_line(
    text: str, pos: Position, registry: Registry = REGISTRY
) -> Marker | MarkerError | None:
    """Parse one comment line's text (everything after `//`).

    `pos` is the position of text[0]. Returns None when the line is not a marker, a
    Marker (with `pos` at its `+`) when it is, a MarkerError when it is a known marker
    written wrongly. (A tree's comment groups are read through a `LineCache`, which
    parses each distinct line text once.)
    """
    stripped = text.lstrip()
    offset = len(text) - len(stripped)
    if not stripped.startswith("+"):
        return None
    body = stripped.rstrip()
    if len(body) < 2 or not _is_name_start(body[1]):
        return None
    column = pos.column + offset
    parser = _LineParser(body, registry)
    try:
        return _parse_at(body, 0, parser, Position(pos.file, pos.line, column), body)
    except _ParseError as e:
        at = min(max(e.at, 0), len(body))
        return MarkerError(e.message, body, Position(pos.file, pos.line, column + at))


def parse_group(
    group: CommentGroup | None, registry: Registry = REGISTRY
) -> tuple[list[Marker], list[MarkerError]]:
    """Every marker of a comment group, in line order, and the lines that failed."""
    return ([], []) if group is None else LineCache(registry).group(group)


__all__ = [
    "REGISTRY",
    "LineCache",
    "Marker",
    "MarkerDef",
    "MarkerError",
    "Registry",
    "Shape",
    "Target",
    "Wrap",
    "default_registry",
    "edit_distance",
    "keyed_value",
    "parse_group",
    "parse_line",
    "split_list",
]


def default_string(raw: str | None) -> str | None:
    """The string a `+default=` / `+kubebuilder:default=` marker sets, or None.

    openapi-gen reads `+default=` as JSON (`+default="Foo"`); controller-gen's
    `+kubebuilder:default=Foo` also takes a bare word. Both are accepted; a JSON value
    that is not a string (a number, an object) sets no string.
    """
    if raw is None:
        return None
    text = raw.strip()
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, str) else None
