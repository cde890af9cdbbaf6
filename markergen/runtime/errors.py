"""Field errors in the style of Kubernetes' `field.Error`, and the exceptions of the runtime."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

ErrorType = Literal["Required", "Forbidden", "NotSupported", "Invalid"]

# How Kubernetes' field.ErrorType.String() spells each type in a message.
_LABELS: dict[str, str] = {
    "Required": "Required value",
    "Forbidden": "Forbidden",
    "NotSupported": "Unsupported value",
    "Invalid": "Invalid value",
}


@dataclass(frozen=True)
class FieldError:
    """One problem at one place of an object.

    `path` is rendered Kubernetes-style (`spec.strategy.rollingUpdate`, `[2]`, `[name=foo]`,
    map values `[key]`); the empty path means the object the call started from.
    For `NotSupported` and `Invalid` the message starts with the offending value, quoted as
    Kubernetes quotes it, so `str()` reads exactly like an API server's error.
    """

    path: str
    type: ErrorType
    message: str
    # validation-gen's `WithOrigin(...)` ("union", "zeroOrOneOf"); empty for the other
    # semantics, whose errors are hand-written validation's. Not part of `str()`, as in
    # Kubernetes, where the origin is metadata of the error, not its text.
    origin: str = ""
    # validation-gen's `MarkAlpha()` / `MarkBeta()`: "alpha" or "beta" when the check
    # comes from a tag wrapped in `+k8s:alpha=` / `+k8s:beta=`; metadata, as the origin.
    stage: str = ""

    def to_record(self) -> dict[str, str]:
        """The error as plain JSON data (`markergen validate --format json`): the metadata
        the text line leaves out (origin, stage) beside what it says."""
        return {
            "path": self.path,
            "type": self.type,
            "detail": self.message,
            "origin": self.origin,
            "stage": self.stage,
            "error": str(self),
        }

    def __str__(self) -> str:
        body = _LABELS[self.type]
        if self.message:
            body = f"{body}: {self.message}"
        return f"{self.path}: {body}" if self.path else body


class TableError(ValueError):
    """A runtime table that cannot be used: unreadable, not JSON, or of the wrong shape.

    `where` says which part of the table is wrong (`types["a.B"].unions[0].members`).
    """

    def __init__(self, message: str, where: str = "") -> None:
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class UnionError(Exception):
    """Raised by normalize/normalize_apply/apply_patch; `.errors` lists every problem found."""

    def __init__(self, errors: list[FieldError]) -> None:
        self.errors = list(errors)
        # the message is written when someone reads it: a caller that only looks at
        # `.errors`, or drops the update, never pays for the text
        super().__init__(self.errors)

    def __str__(self) -> str:
        return "; ".join(str(e) for e in self.errors)


def quote(value: object) -> str:
    """Render a value the way Kubernetes prints it in `Invalid value: ...` (strings quoted)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, dict):
        return '"object"'
    if isinstance(value, list):
        return '"array"'
    return json.dumps(type(value).__name__)
