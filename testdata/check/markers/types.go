package markers

// +enum
type ShapeType string

const (
	ShapeCircle ShapeType = "Circle"
)

type Misspelt struct {
	// want "MG003" "did you mean `\\+unionDiscriminator`"
	// +unionDescriminator
	// +required
	Type ShapeType `json:"type"`

	// No MG307 here: the member has a discriminator, misspelt, and MG003 says so once.
	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
	// Near miss for MG003: a marker of another generator, far from any union marker.
	// +kubebuilder:validation:MinLength=1
	// +optional
	Name *string `json:"name,omitempty"`
}

type Malformed struct {
	// want "MG004"
	// +k8s:unionMember(union: "shape"
	// +k8s:optional
	Circle *int32 `json:"circle,omitempty"`
	// Near miss for MG004.
	// +k8s:unionMember(union: "shape")
	// +k8s:optional
	Square *int32 `json:"square,omitempty"`
}

type WrongPlace struct {
	// want "MG005" "belongs on a type"
	// +enum
	Kind string `json:"kind"`
}

// want "MG005"
// +unionMember
type WrongType string

const (
	// want "MG005" "on constant ShapeSquare has no effect: it belongs on a type"
	// +enum
	ShapeSquare ShapeType = "Square"
)

type MisspeltBy struct {
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// want "MG003" "did you mean `\\+unionDiscriminatedBy`"
	// +unionDiscrimnatedBy=Type
	// +unionMember=Circle
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}
