package members

// +enum
type ShapeType string

const (
	ShapeCircle ShapeType = "Circle"
	ShapeSquare ShapeType = "Square"
	ShapeRound  ShapeType = "Round"
	ShapeNone   ShapeType = "None"
)

type Inner struct {
	Size int32 `json:"size"`
}

// Labels is a map type: a member of this type can be nil.
type Labels map[string]string

type Optionality struct {
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// +unionMember
	// +required
	Circle *int32 `json:"circle"` // want "MG301" "member Circle of union Optionality.type is not optional"
	// +unionMember
	Square *int32 `json:"square"` // want "MG301" "neither \\+optional nor omitempty"
	// Near miss for MG301: omitempty without +required is optional.
	// +unionMember
	Round *int32 `json:"round,omitempty"`
}

type Unset struct {
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// +unionMember
	// +optional
	Circle int32 `json:"circle"` // want "MG302" "cannot be told unset"
	// +unionMember
	// +optional
	Square Inner `json:"square,omitempty"` // want "MG302" "struct value"
	// Near misses for MG302: a scalar with omitempty, a map type, a pointer.
	// +unionMember
	// +optional
	Round int32 `json:"round,omitempty"`
	// want "MG305"
	// +unionMember=None
	// +optional
	Extra Labels `json:"extra"`
}

type Values struct {
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
	// want "MG303" "has value \"Triangle\", which is not a value of enum ShapeType \\(\"Circle\", \"None\", \"Round\", \"Square\"\\)"
	// +unionMember=Triangle
	// +optional
	Triangle *int32 `json:"triangle,omitempty"`
	// want "MG303" "did you mean|\"square\""
	// +unionMember=square
	// +optional
	Square *int32 `json:"square,omitempty"`
	// want "MG304" "members Circle and Disc"
	// +unionMember=Circle
	// +optional
	Disc *int32 `json:"disc,omitempty"`
}

// Near miss for MG303/MG305: an upper-case memberName matching the JSON name.
// +enum
type Union2Type string

const (
	Alpha Union2Type = "ALPHA"
)

type Union2 struct {
	// +unionDiscriminator
	// +required
	Type Union2Type `json:"type"`
	// +unionMember=ALPHA,optional
	// +optional
	Alpha *int32 `json:"alpha,omitempty"`
}

type Spanning struct {
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// +unionMember
	// want "MG306" "names no discriminator of struct Spanning"
	// +unionDiscriminatedBy=Kind
	// +optional
	Circle *int32 `json:"circle,omitempty"`
	// Near miss for MG306: the discriminator named by its JSON name.
	// +unionMember
	// +unionDiscriminatedBy=type
	// +optional
	Square *int32 `json:"square,omitempty"`
}

type NoDiscriminator struct {
	// want "MG307" "no \\+unionDiscriminator field"
	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

type Hidden struct {
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// +unionMember
	// +optional
	Circle *int32 `json:"-"` // want "MG308" "json:\"-\""
	// +unionMember=Square
	// +optional
	square *int32 `json:"square,omitempty"` // want "MG308" "unexported"
	// Near miss for MG308: not a member, so json:"-" is fine.
	Cache *int32 `json:"-"`
}

// +enum
type OutlineType string

const (
	OutlineCircle OutlineType = "Circle"
)

type TwoUnions struct {
	// +unionDiscriminator
	// +required
	Shape ShapeType `json:"shape"`
	// want "MG205"
	// +unionDiscriminator
	// +required
	Outline OutlineType `json:"outline"`

	// +unionMember
	// +unionDiscriminatedBy=Shape
	// want "MG309" "member of two unions"
	// +unionDiscriminatedBy=Outline
	// +optional
	Circle *int32 `json:"circle,omitempty"`
	// +unionMember
	// +unionDiscriminatedBy=Shape
	// +optional
	Round *int32 `json:"round,omitempty"`
}

type OldForm struct {
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// want "MG310" "kep2022 form"
	// +unionMember=type
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}

// MG308 in openshift/api's house style.
// +kubebuilder:validation:Enum=Basic;Token
type HiddenAuthType string

// +union
type HiddenOpenShift struct {
	// +unionDiscriminator
	// +required
	Type HiddenAuthType `json:"type"`
	// +unionMember
	// +optional
	Token *string `json:"token,omitempty"`
	// +unionMember
	// +optional
	Basic *string `json:"-"` // want "MG308" "json:\"-\""
}
