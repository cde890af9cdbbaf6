"""Union-aware compatibility report between two versions of an API.

The names below are loaded on first use (PEP 562): `markergen diff --help` imports
markergen.diff.choices for the options' values, which must not load the whole diff and
the model it builds.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markergen.diff.classify import Change, compare
    from markergen.diff.errors import DiffInputError
    from markergen.diff.run import DiffResult, run_diff

# Each public name and the module that defines it (no name is also a module's: the
# import system would bind the module over it).
_WHERE = {
    "Change": "classify",
    "compare": "classify",
    "DiffInputError": "errors",
    "DiffResult": "run",
    "run_diff": "run",
}

__all__ = ["Change", "DiffInputError", "DiffResult", "compare", "run_diff"]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
