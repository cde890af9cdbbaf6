"""Pure-Python normalization and validation of KEP-1027 unions, driven by a runtime table.

This package imports nothing from markergen outside markergen/runtime/ and never the Go
parser, so webhooks and operators can use it with only a generated table.
See docs/runtime.md.
"""

from markergen.runtime.errors import FieldError, TableError, UnionError
from markergen.runtime.normalize import normalize, normalize_apply
from markergen.runtime.patch import apply_patch
from markergen.runtime.table import Table
from markergen.runtime.validate import validate

__all__ = [
    "FieldError",
    "Table",
    "TableError",
    "UnionError",
    "apply_patch",
    "normalize",
    "normalize_apply",
    "validate",
]
