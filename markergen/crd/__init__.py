"""CRD patching: union CEL rules for controller-gen CRDs.

The names below are loaded on first use: `markergen check` asks only
`markergen.project.outputs` whether a project has CRDs, and importing the patcher (YAML, CEL)
for that was half of a warm check's time.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markergen.crd.checkfind import sample_findings
    from markergen.crd.files import CrdError, CrdResult
    from markergen.crd.patch import patch_text, run_crd
    from markergen.crd.project import ProjectRun, run_project
    from markergen.project.outputs import CrdTargets, find_crd_outputs

_WHERE = {
    "CrdTargets": "outputs",
    "find_crd_outputs": "outputs",
    "CrdError": "files",
    "CrdResult": "files",
    "patch_text": "patch",
    "run_crd": "patch",
    "sample_findings": "checkfind",
    "ProjectRun": "project",
    "run_project": "project",
}

__all__ = [
    "CrdError",
    "CrdResult",
    "CrdTargets",
    "ProjectRun",
    "find_crd_outputs",
    "patch_text",
    "run_crd",
    "run_project",
    "sample_findings",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
