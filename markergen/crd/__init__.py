"""CRD patching: union CEL rules for controller-gen CRDs (`markergen crd`)."""
