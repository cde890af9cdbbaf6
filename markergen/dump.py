"""`markergen dump`: the model as JSON, for debugging and for other tools."""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from markergen.emit.fastjson import dumps_indented
from markergen.model import Model


def _plain(value: Any) -> Any:
    # A dataclass without slots keeps exactly its fields in its instance dict, much
    # cheaper to read than dataclasses.fields() per object; a slotted one (the syntax
    # records: Position, JSONTag) has no instance dict.
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = getattr(value, "__dict__", None)
        if fields is None:
            return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {k: _plain(v) for k, v in fields.items()}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(_plain(v) for v in value)
    if isinstance(value, Enum):
        return value.value
    return value


def model_to_json(model: Model) -> str:
    from markergen.gcpause import gc_paused

    # Hundreds of thousands of short-lived dicts and no cycles: the collector would only
    # rescan them (markergen.gcpause says more).
    with gc_paused():
        return dumps_indented(_plain(model), 2) + "\n"
