"""CRD patching (DESIGN section 6, "CRD patching"): union CEL rules for controller-gen CRDs."""

from markergen.crd.patch import CrdError, CrdResult, patch_text, run_crd

__all__ = ["CrdError", "CrdResult", "patch_text", "run_crd"]
