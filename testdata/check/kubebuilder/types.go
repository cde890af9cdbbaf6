// Package kubebuilder is a kubebuilder project's API as controller-gen reads it.
// +kubebuilder:object:generate=true
// +groupName=shapes.example.com
// +versionName=v1
package kubebuilder

// +kubebuilder:validation:Enum=Circle;Square
type ShapeType string

const (
	ShapeCircle ShapeType = "Circle"
	ShapeSquare ShapeType = "Square"
)

// controller-gen's own unions: the model holds them (the runtime validates them, diff
// classifies their changes) and `markergen crd` leaves their rules to controller-gen.
// +kubebuilder:validation:ExactlyOneOf=configMap;secret
// +kubebuilder:validation:AtMostOneOf=inline;url
// +kubebuilder:validation:AtLeastOneOf=configMap;secret;inline
type Source struct {
	// +optional
	ConfigMap *string `json:"configMap,omitempty"`
	// +optional
	Secret *string `json:"secret,omitempty"`
	// +optional
	Inline *string `json:"inline,omitempty"`
	// +optional
	URL *string `json:"url,omitempty"`
}

// want "MG341" "names 'config', which is no JSON field"
// +kubebuilder:validation:ExactlyOneOf=config;secret
type BadSource struct {
	// +optional
	ConfigMap *string `json:"configMap,omitempty"`
	// +optional
	Secret *string `json:"secret,omitempty"`
}

// Defaults in every spelling a kubebuilder project writes, and omitzero (Go 1.24).
type Shape struct {
	// +unionDiscriminator
	// +optional
	// +default=ref(ShapeCircle)
	Type ShapeType `json:"type,omitempty"`

	// +unionMember
	// +optional
	Circle *Circle `json:"circle,omitempty"`

	// +unionMember
	// +optional
	Square Square `json:"square,omitzero"`

	// +kubebuilder:default={"size": 1, "labels": ["a"]}
	// +optional
	Extra *Circle `json:"extra,omitempty"`

	// +kubebuilder:default=3
	// +optional
	Count int32 `json:"count,omitempty"`

	// +kubebuilder:default=true
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// +kubebuilder:default="quoted"
	// +optional
	Name string `json:"name,omitempty"`
}

type Circle struct {
	// +optional
	Size int32 `json:"size,omitempty"`
}

type Square struct {
	// +optional
	Side int32 `json:"side,omitempty"`
}
