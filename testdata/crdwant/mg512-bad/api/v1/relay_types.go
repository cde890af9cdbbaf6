// Package v1 holds the relay.example.com/v1 API.
// +groupName=relay.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Route is one route; it takes at most one backend.
// +union
type Route struct {
	// a is backend a.
	// +optional
	A *string `json:"a,omitempty"`
	// b is backend b.
	// +optional
	B *string `json:"b,omitempty"`
	// c is backend c.
	// +optional
	C *string `json:"c,omitempty"`
	// d is backend d.
	// +optional
	D *string `json:"d,omitempty"`
	// e is backend e.
	// +optional
	E *string `json:"e,omitempty"`
}

// RelaySpec is the desired state of a Relay.
type RelaySpec struct {
	// routes are the relay's routes.
	// +optional
	Routes []Route `json:"routes,omitempty"`
}

// Relay forwards traffic.
// +kubebuilder:object:root=true
type Relay struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RelaySpec `json:"spec,omitempty"`
}
