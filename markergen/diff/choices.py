"""The values of `markergen diff`'s options, declared once.

A leaf: `markergen diff --help` lists them, and imports nothing else of the diff (nor the
model it builds).
"""

from __future__ import annotations

# The report's formats (markergen.diff.render).
FORMATS = ("text", "markdown", "json", "github")

# When the command exits 1 (markergen.diff.run). breaking: a breaking change of a GA
# version that no gate hides (the Kubernetes conventions allow alpha and gated changes to
# break); breaking-any-stage: any breaking change; any: any change at all, "not compared"
# ones included.
FAIL_ON = ("breaking", "breaking-any-stage", "any", "none")
