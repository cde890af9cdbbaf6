// Package v1 holds the relay.example.com/v1 API.
// +groupName=relay.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Level is a log level.
// +kubebuilder:validation:Enum=Info;Debug
type Level string

// RelaySpec is the desired state of a Relay.
type RelaySpec struct {
	// level is the log level.
	// +optional
	Level Level `json:"level,omitempty"`
}

// Relay forwards traffic.
// +kubebuilder:object:root=true
type Relay struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RelaySpec `json:"spec,omitempty"`
}
