"""CRD patching: union CEL rules for controller-gen CRDs."""

from markergen.crd.outputs import CrdTargets, find_crd_outputs
from markergen.crd.patch import CrdError, CrdResult, patch_text, run_crd, sample_findings
from markergen.crd.project import ProjectRun, run_project

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
