"""How a failure reaches the user: one line for every error that is the input's, the
configuration's or the file system's fault (exit code 2), and None for a bug.

The command line asks this one function, so every user error reads the same way. The
error classes are looked up in `sys.modules` rather than imported: an error can only be
of a class whose module was loaded, and checking stays free of the imports (yaml, the
runtime, the CRD patcher) it would otherwise pull in.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def _kept(error: Any) -> str:
    return str(error)


def _output(error: Any) -> str:
    return f"{error.path}: {error.message}; no output was changed"


# (module, class name, how its message reads)
_USER_ERRORS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("markergen.pipeline", "InputError", _kept),
    ("markergen.config", "ConfigError", _kept),
    ("markergen.policy", "PolicyError", _kept),
    ("markergen.objects", "ObjectError", _kept),
    ("markergen.runtime.errors", "TableError", _kept),
    ("markergen.explain", "ExplainError", _kept),
    ("markergen.crd.files", "CrdError", _kept),
    ("markergen.diff.errors", "DiffInputError", _kept),
    ("markergen.emit.writer", "OutputError", _output),
    ("markergen.emit.templating", "TemplateError", _kept),
)


def user_message(error: BaseException) -> str | None:
    """The one-line message for a user error, or None when `error` is a bug."""
    for module_name, class_name, message in _USER_ERRORS:
        module = sys.modules.get(module_name)
        cls = getattr(module, class_name, None) if module is not None else None
        if isinstance(cls, type) and isinstance(error, cls):
            return message(error)
    if isinstance(error, OSError):
        name = f"{error.filename}: " if error.filename else ""
        return f"{name}{error.strerror or error}"
    return None
