package v1

import "example.com/sharedapi/operator/pkg/apis/shared"

// Widget is built from a source.
// +kubebuilder:object:root=true
type Widget struct {
	APIVersion string     `json:"apiVersion,omitempty"`
	Kind       string     `json:"kind,omitempty"`
	Spec       WidgetSpec `json:"spec"`
}

// WidgetSpec says where the widget comes from.
type WidgetSpec struct {
	Source shared.Source `json:"source"`
}
