package precision

// MG308 in every dialect: a union field with json:"-" never appears in the API. Each
// is reported once, at the field (the problem is the field, not its marker).

// +enum
type ShapeType string

const (
	ShapeCircle ShapeType = "Circle"
	ShapeSquare ShapeType = "Square"
)

// kep2022: `+unionMember=<discriminator>` on a plain string discriminator.
type Kep2022Hidden struct {
	// +unionDiscriminator
	// +required
	// +kubebuilder:validation:Enum=Circle
	Type string `json:"type"`

	// want "MG310"
	// +unionMember=type
	// +optional
	Circle *int32 `json:"-"` // want "MG308" "json:\"-\""
}

// controller-gen: the list names a field that is not in the JSON.
// +kubebuilder:validation:ExactlyOneOf=configMap;secret
type KubebuilderHidden struct {
	// +optional
	ConfigMap *string `json:"-"` // want "MG308" "ExactlyOneOf names it 'configMap'"
	// +optional
	Secret *string `json:"secret,omitempty"`
}

// k8s: a zeroOrOneOf member.
type ZeroOrOneOfHidden struct {
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	A *string `json:"-"` // want "MG308" "json:\"-\""
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	B *string `json:"b,omitempty"`
}

// kep1027: the discriminator itself.
type DiscriminatorHidden struct {
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"-"` // want "MG308" "json:\"-\""

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
	// +unionMember
	// +optional
	Square *int32 `json:"square,omitempty"`
}

// In a kep2019 `+union` struct every field but the discriminator is a member; a
// json:"-" one is a member never serialized, as for the other dialects (issue 39).
// +union
type Kep2019Skipped struct {
	// +unionDiscriminator
	// +optional
	Type string `json:"type,omitempty"`
	// +optional
	File *string `json:"file,omitempty"`
	// +optional
	Cache *string `json:"-"` // want "MG308" "json:\"-\""
	// +optional
	URL *string `json:"url,omitempty"`
}
