package promotion

import (
	"example.com/check/promotion/extern"
	"example.com/nowhere/missing"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// FromElsewhere embeds a struct of a package that is not among the inputs.
// +kubebuilder:validation:ExactlyOneOf=left;right;middle
type FromElsewhere struct {
	extern.Pair `json:",inline"`
}

// Unfindable embeds a struct markergen cannot find: its fields are unknown, so an item
// that names none of the known fields is not called wrong; nothing is enforced.
// want "MG343" "names 'thing'.*missing.Thing"
// +kubebuilder:validation:AtMostOneOf=thing;own
type Unfindable struct {
	missing.Thing `json:",inline"`

	// +optional
	Own *string `json:"own,omitempty"`
}

// Inner declares its own controller-gen union, with a wrong item: reported once, here,
// however many structs inline Inner.
// want "MG341" "names 'zz', which is no JSON field of Inner"
// +kubebuilder:validation:ExactlyOneOf=p;zz
type Inner struct {
	// +optional
	P *string `json:"p,omitempty"`
	// +optional
	Q *string `json:"q,omitempty"`
}

// OuterOne inlines Inner.
type OuterOne struct {
	Inner `json:",inline"`
}

// OuterTwo inlines Inner too, and names its fields in a union of its own.
// +kubebuilder:validation:AtMostOneOf=q;r
type OuterTwo struct {
	Inner `json:",inline"`

	// +optional
	R *string `json:"r,omitempty"`
}

// Kind selects a member of InnerUnion.
// +enum
type Kind string

const (
	// KindA selects a.
	KindA Kind = "A"
)

// InnerUnion is a discriminated union whose member is not optional: reported once.
type InnerUnion struct {
	// +unionDiscriminator
	// +required
	Kind Kind `json:"kind"`

	// +unionMember
	A *string `json:"a"` // want "MG301" "member A of union InnerUnion.kind"
}

// HoldsUnionOne and HoldsUnionTwo inline InnerUnion.
type HoldsUnionOne struct {
	InnerUnion `json:",inline"`
}

// HoldsUnionTwo inlines InnerUnion through a pointer.
type HoldsUnionTwo struct {
	*InnerUnion `json:",inline"`
}

// Rooted embeds metav1.TypeMeta, whose package is not found here: its fields are kind
// and apiVersion whatever the package says, so a typo is still MG341.
// want "MG341" "names 'spc', which is no JSON field of Rooted"
// +kubebuilder:validation:ExactlyOneOf=spc;status
type Rooted struct {
	metav1.TypeMeta `json:",inline"`

	// +optional
	Spec *string `json:"spec,omitempty"`
	// +optional
	Status *string `json:"status,omitempty"`
}
