"""How Kubernetes names a CRD property in CEL (apiextensions "Escaping").

A name that is a CEL reserved word becomes `__<word>__`; otherwise `__` → `__underscores__`,
`.` → `__dot__`, `-` → `__dash__`, `/` → `__slash__`; a name with any other character
outside `[a-zA-Z0-9_.-/]`, or starting with a digit, cannot be reached from CEL at all.
Shared by the cost estimate, the rules markergen writes and the CRD comparison of `diff`.
"""

from __future__ import annotations

import re

# CEL's reserved words that Kubernetes escapes as `__<word>__` (k8s.io/apiserver cel).
RESERVED = frozenset(
    {
        "true", "false", "null", "in", "as", "break", "const", "continue", "else",
        "for", "function", "if", "import", "let", "loop", "package", "namespace",
        "return", "var", "void", "while",
    }
)  # fmt: skip
_ESCAPABLE = re.compile(r"^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$")


def escape_property(name: str) -> str | None:
    """The CEL identifier Kubernetes gives property `name`, or None if CEL cannot reach it."""
    if name in RESERVED:
        return f"__{name}__"
    if not _ESCAPABLE.match(name):
        return None
    out = name.replace("__", "__underscores__")
    return out.replace(".", "__dot__").replace("-", "__dash__").replace("/", "__slash__")
