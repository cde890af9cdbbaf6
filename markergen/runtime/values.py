"""The value types every runtime module shares: a JSON value as read from an object,
and a discriminator value. Kept apart so that the table, the tree walk and the
compiled checks can all name them without importing one another."""

from __future__ import annotations

from typing import Any

JSON = Any
Scalar = str | bool | int | float
