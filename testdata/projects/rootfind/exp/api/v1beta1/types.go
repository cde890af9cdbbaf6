// +groupName=exp.example.com
package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Source says where items come from.
type Source struct {
	// type selects the source.
	// +unionDiscriminator
	// +kubebuilder:validation:Enum=Git;OCI
	// +required
	Type SourceType `json:"type"`

	// git reads a Git repository.
	// +unionMember
	// +optional
	Git *Repository `json:"git,omitempty"`

	// oci reads an OCI artifact.
	// +unionMember
	// +optional
	OCI *Repository `json:"oci,omitempty"`
}

// SourceType names a source.
// +enum
type SourceType string

const (
	SourceTypeGit SourceType = "Git"
	SourceTypeOCI SourceType = "OCI"
)

// Repository is where a source lives.
type Repository struct {
	// url of the repository.
	URL string `json:"url"`
}

// GadgetSpec is the desired state.
type GadgetSpec struct {
	// source of the items.
	Source Source `json:"source"`
}

// +kubebuilder:object:root=true
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec,omitempty"`
}
