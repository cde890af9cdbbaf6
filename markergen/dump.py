"""`markergen dump`: the model as JSON, for debugging and for other tools."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from markergen.model import Model


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def model_to_json(model: Model) -> str:
    return json.dumps(_plain(model), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
