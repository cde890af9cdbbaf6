package v1beta1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// WidgetSpec defines the desired state of Widget.
type WidgetSpec struct {
	// +optional
	Size string `json:"size,omitempty"`
}

// +kubebuilder:object:root=true

// Widget is the Schema for the widgets API.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec,omitempty"`
}
