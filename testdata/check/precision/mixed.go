package precision

// A union written in two dialects at once is reported once, at the struct.

type MixedWithK8s struct { // want "MG404" "Circle \\+unionMember and Square \\+k8s:unionMember"
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
	// +k8s:unionMember
	// +k8s:optional
	Square *int32 `json:"square,omitempty"`
}

type DeprecatedWithK8s struct { // want "MG404" "one union cannot mix dialects"
	// +unionDeprecated
	// +optional
	Circle *int32 `json:"circle,omitempty"`
	// +k8s:unionMember
	// +k8s:optional
	Square *int32 `json:"square,omitempty"`
	// +k8s:unionMember
	// +k8s:optional
	Triangle *int32 `json:"triangle,omitempty"`
}

// Near miss: a named k8s union next to a kep1027 union is a second union, not a mix.
type TwoUnions struct {
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
	// +unionMember
	// +optional
	Square *int32 `json:"square,omitempty"`

	// +k8s:unionMember(union: "source")
	// +k8s:optional
	File *string `json:"file,omitempty"`
	// +k8s:unionMember(union: "source")
	// +k8s:optional
	URL *string `json:"url,omitempty"`
}

// Near miss: one union written twice (+union and +k8s:unionMember, as kubernetes/api
// does) is one union.
// +union
type WrittenTwice struct {
	// +k8s:unionMember
	// +k8s:optional
	// +optional
	File *string `json:"file,omitempty"`
	// +k8s:unionMember
	// +k8s:optional
	// +optional
	URL *string `json:"url,omitempty"`
}
