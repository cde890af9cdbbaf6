"""Marker grammar and the registry of known markers.

A marker is a comment line whose text, after `//` and leading white space, starts
with `+` (DESIGN section 3). This module turns such a line into a `Marker`; it knows
nothing about unions. The registry says, for each known marker, where it may appear
and what shape its argument has, so the parser and the checker never match strings
by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from markergen.golang.syntax import CommentGroup, Position


class Target(str, Enum):
    PACKAGE = "package"
    TYPE = "type"
    FIELD = "field"


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

    def arg(self, key: str) -> str | None:
        for k, v in self.args:
            if k == key:
                return v
        return None

    def has_flag(self, flag: str) -> bool:
        return flag in self.flags

    @property
    def values(self) -> tuple[str, ...]:
        """For LIST markers: the `;`-separated items of the value."""
        if self.value is None:
            return ()
        return tuple(v for v in self.value.split(";"))


@dataclass(frozen=True)
class MarkerError:
    """A marker line that could not be parsed (MG004)."""

    message: str
    raw: str
    pos: Position


# The functions below are implemented in this module:
#   REGISTRY: Registry                                  -- every known marker (MarkerDef)
#   parse_line(text, pos, registry) -> Marker | MarkerError | None
#       None when the line is not a marker. `text` is CommentLine.text.
#   parse_group(group, registry) -> tuple[list[Marker], list[MarkerError]]
#   Registry.get(name) -> MarkerDef | None ; Registry.suggest(name) -> str | None
#       suggest: the known union/enum marker within edit distance 2 (MG003), case-insensitive
__all__ = ["CommentGroup", "Marker", "MarkerDef", "MarkerError", "Shape", "Target"]
