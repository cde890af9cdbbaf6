package discriminators

// +enum
type ShapeType string

const (
	ShapeCircle ShapeType = "Circle"
	ShapeSquare ShapeType = "Square"
)

// +enum
type ModeType string

const (
	ModeNone ModeType = ""
	ModeFast ModeType = "Fast"
)

// Near miss for everything: a correct kep1027 union.
type Good struct {
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
	// +unionMember,optional
	// +optional
	Square *int32 `json:"square,omitempty"`
}

type NotString struct {
	// +unionDiscriminator
	// +required
	Type int32 `json:"type"` // want "MG201" "has type int32, which is not a string"

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

type PlainString struct {
	// +unionDiscriminator
	// +required
	Type string `json:"type"` // want "MG201" "no enum values: this is a kep2022 union"

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

// Near miss for MG201: a kubebuilder enum list on the field gives it values.
type KubebuilderEnum struct {
	// +unionDiscriminator
	// +kubebuilder:validation:Enum=Circle;Square
	// +required
	Type string `json:"type"`

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

type OptionalNoDefault struct {
	// +unionDiscriminator
	// +optional
	Type ShapeType `json:"type,omitempty"` // want "MG202" "no default option"

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

type EmptyValueNoOmitempty struct {
	// +unionDiscriminator
	// +required
	Mode ModeType `json:"mode"` // want "MG202" "must be omitempty"

	// +unionMember
	// +optional
	Fast *int32 `json:"fast,omitempty"`
}

// Near miss for MG202: "" is the default option and the field is omitempty.
type EmptyValueOmitempty struct {
	// +unionDiscriminator
	// +optional
	Mode ModeType `json:"mode,omitempty"`

	// +unionMember
	// +optional
	Fast *int32 `json:"fast,omitempty"`
}

type DefaultButRequired struct {
	// +unionDiscriminator
	// +required
	// +default="Circle"
	Type ShapeType `json:"type"` // want "MG202" "lacks \\+optional and omitempty: a Go client that leaves it unset sends \"\", which the enum rejects"

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

// Near miss for MG202: a pointer with a default and without omitempty, as
// envoyproxy/gateway's LocalJWKS writes it. A nil pointer is sent as null, which the API
// server prunes and then defaults, so clients can leave it unset.
type DefaultOnPointer struct {
	// +unionDiscriminator
	// +kubebuilder:default=Circle
	Type *ShapeType `json:"type"`

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

// Near miss for MG202 and MG206: a valid default, optional and omitempty.
type DefaultGood struct {
	// +unionDiscriminator
	// +optional
	// +kubebuilder:default=Square
	Type ShapeType `json:"type,omitempty"`

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

type DefaultNotAValue struct {
	// +unionDiscriminator
	// +optional
	// want "MG206" "\"Triangle\", which is not a value of enum ShapeType"
	// +default="Triangle"
	Type ShapeType `json:"type,omitempty"`

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

type DiscriminatorIsMember struct {
	// +unionDiscriminator
	// want "MG204" "discriminator .* and also a union member"
	// +unionMember
	// +required
	Type ShapeType `json:"type"`

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

type NoMembers struct {
	// want "MG205" "has no members"
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

type TwoDiscriminators struct {
	// want "MG205"
	// +unionDiscriminator
	// +required
	Shape ShapeType `json:"shape"`
	// +unionDiscriminator
	// +required
	Mode ModeType `json:"mode"` // want "MG202"

	// want "MG203" "does not say which union"
	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
	// +unionMember
	// +unionDiscriminatedBy=Mode
	// +optional
	Fast *int32 `json:"fast,omitempty"`
}

// openshift/api writes controller-gen's default and openapi-gen's both; each is checked,
// at its own marker.
type TwoDefaults struct {
	// +unionDiscriminator
	// +optional
	// +kubebuilder:default:="Circle"
	// want "MG206" "defaults to \"Round\""
	// +default="Round"
	Type ShapeType `json:"type,omitempty"`

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}
