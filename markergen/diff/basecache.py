"""A git revision's side of `markergen diff`, kept between runs.

A reviewer runs `diff` on every push against the same base: the base revision's Go
surface and CRD files do not change between those runs, so they are kept in markergen's
one run cache (markergen.cache, command `diff-base`): the slot is where the command runs,
its patterns and CRD directories; the key adds the commit (it pins every file's content)
and markergen's own code. A new base commit replaces the entry. The side is one JSON
entry of the run, read back by its type hints: loading it never runs code, and one that
cannot be decoded is a miss.

The Go model itself is not kept: a base read from the cache has its surface (what the Go
comparison needs) and its CRD texts (parsed again: their positions are yaml nodes); the
rare CRD change that needs the base's model (a node gone from the head) reads the
revision again.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markergen.cache import CachedRun, OutputCache
from markergen.diff.surface import Surface

_ENTRY = "side"  # the run's one output: the side as JSON


@dataclass(frozen=True)
class CachedSide:
    surface: Surface
    crd_files: tuple[tuple[str, str], ...] | None  # (shown path, text); None: no CRDs
    crd_origin: str
    found: tuple[str, ...]  # the patterns that named something on this side
    naming: str
    module: str
    shown: str


def load(cache: OutputCache) -> CachedSide | None:
    run = cache.lookup()
    if run is None:
        return None
    try:
        return _decode(CachedSide, json.loads(run.outputs[_ENTRY]), {})  # type: ignore[no-any-return]
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def store(cache: OutputCache, side: CachedSide) -> bool:
    text = json.dumps(_encode(side), sort_keys=True, separators=(",", ":"))
    return cache.store(CachedRun((), {_ENTRY: text}))


# -- a JSON form of frozen dataclasses, read back by their type hints ----------------------


def _encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in sorted(value.items())}
    if isinstance(value, frozenset):
        return sorted(_encode(v) for v in value)
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    return value


def _decode(hint: Any, value: Any, hints_of: dict[type, dict[str, Any]]) -> Any:
    """`value` read back as `hint`; `hints_of` keeps each dataclass's resolved type hints
    for the one decoding (resolving them is most of the time otherwise)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _decode(inner[0], value, hints_of)
    if origin is typing.Literal:
        if value not in args:
            raise ValueError(f"{value!r} is not one of {args}")
        return value
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise TypeError(f"{hint.__name__}: not an object")
        hints = hints_of.get(hint)
        if hints is None:
            hints = hints_of[hint] = typing.get_type_hints(hint)
        return hint(
            **{
                f.name: _decode(hints[f.name], value[f.name], hints_of)
                for f in dataclasses.fields(hint)
                if f.init
            }
        )
    if origin is tuple:
        if not isinstance(value, list):
            raise TypeError("not a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v, hints_of) for v in value)
        if len(args) != len(value):
            raise TypeError("wrong length")
        return tuple(_decode(a, v, hints_of) for a, v in zip(args, value, strict=True))
    if origin in (frozenset, set):
        if not isinstance(value, list):
            raise TypeError("not a list")
        return frozenset(_decode(args[0], v, hints_of) for v in value)
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        if not isinstance(value, dict):
            raise TypeError("not an object")
        return {str(k): _decode(args[1], v, hints_of) for k, v in value.items()} if args else value
    if hint in (str, int, bool, float):
        if not isinstance(value, hint) or (hint is int and isinstance(value, bool)):
            raise TypeError(f"not a {hint.__name__}")
        return value
    if hint is type(None):
        if value is not None:
            raise TypeError("not null")
        return None
    raise TypeError(f"cannot read {hint!r}")
