package v1

import (
	"example.com/sharedapi/operator/pkg/apis/shared"
)

// Gadget is built from a source too.
// +kubebuilder:object:root=true
type Gadget struct {
	APIVersion string     `json:"apiVersion,omitempty"`
	Kind       string     `json:"kind,omitempty"`
	Spec       GadgetSpec `json:"spec"`
}

// GadgetSpec says where the gadget comes from.
type GadgetSpec struct {
	Source shared.Source `json:"source"`
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
}
