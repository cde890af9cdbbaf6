package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Abort says how a request is aborted. Every optional field of a 2019 `+union` struct
// is a member, and one of them has a default: the API server sets `percentage` on every
// abort before the union's rules run (the shape of a real project's fault injection).
// +union
type Abort struct {
	// httpStatus is the HTTP status returned.
	// +optional
	HTTPStatus *int32 `json:"httpStatus,omitempty"`

	// grpcStatus is the gRPC status returned.
	// +optional
	GRPCStatus *int32 `json:"grpcStatus,omitempty"`

	// percentage of requests aborted.
	// +optional
	// +kubebuilder:default=100
	Percentage *int32 `json:"percentage,omitempty"`
}

// InjectorSpec is the desired state of an Injector.
type InjectorSpec struct {
	// abort aborts requests.
	// +optional
	Abort *Abort `json:"abort,omitempty"`
}

// Injector injects faults.
// +kubebuilder:object:root=true
type Injector struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec InjectorSpec `json:"spec,omitempty"`
}
