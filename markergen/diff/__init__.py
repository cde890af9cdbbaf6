"""Union-aware compatibility report between two versions of an API."""

from markergen.diff.classify import Change, compare
from markergen.diff.errors import DiffInputError
from markergen.diff.run import DiffResult, run_diff

__all__ = ["Change", "DiffInputError", "DiffResult", "compare", "run_diff"]
