"""hatchling's metadata hook for markergen's dependencies (pyproject.toml names it).

markergen depends on markergen-runtime, its own distribution built from this checkout's
runtime/ folder and not published on an index. Built in a checkout (`pip install .`,
`pip install -e .`), the tool's wheel names it by path, `markergen-runtime @
file:///<checkout>/runtime`, so pip builds it from there. A wheel meant to leave the
checkout (hack/wheels.sh, with MARKERGEN_RUNTIME_PIN=1) names it by version,
`markergen-runtime==<markergen's version>`, so pip takes the runtime wheel beside it and
the checkout can be gone.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hatchling.metadata.plugin.interface import MetadataHookInterface

PIN = "MARKERGEN_RUNTIME_PIN"


class RuntimeDependency(MetadataHookInterface):
    def update(self, metadata: dict[str, Any]) -> None:
        listed = self.config.get("dependencies")
        if not isinstance(listed, list) or not all(isinstance(d, str) for d in listed):
            raise TypeError("[tool.hatch.metadata.hooks.custom] needs a dependencies list")
        if os.environ.get(PIN) == "1":
            runtime = f"markergen-runtime=={metadata['version']}"
        else:
            runtime = f"markergen-runtime @ {(Path(self.root) / 'runtime').as_uri()}"
        metadata["dependencies"] = [*listed, runtime]
