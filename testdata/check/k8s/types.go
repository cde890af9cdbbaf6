package k8s

// Kubernetes declarative validation markers (DESIGN section 3, dialect k8s).

// +k8s:enum
type ShapeType string

const (
	ShapeCircle ShapeType = "Circle"
	ShapeSquare ShapeType = "Square"
)

type Shape struct {
	// +k8s:unionDiscriminator(union: "shape")
	// +k8s:required
	Type ShapeType `json:"type"`

	// Near miss for MG305: memberName matches the JSON name.
	// +k8s:unionMember(union: "shape", memberName: "Circle")
	// +k8s:optional
	Circle *int32 `json:"circle,omitempty"`
	// want "MG305" "memberName \"Square\""
	// +k8s:unionMember(union: "shape", memberName: "Square")
	// +k8s:optional
	Box *int32 `json:"box,omitempty"`
}

// A union without discriminator: at most one of the fields.
type Source struct {
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	File *string `json:"file,omitempty"`
	// +k8s:zeroOrOneOfMember
	// +k8s:required
	URL *string `json:"url"` // want "MG301"
}

type Stages struct {
	// +k8s:unionDiscriminator(union: "shape")
	// +k8s:required
	Type ShapeType `json:"type"`

	// +k8s:alpha(since: "1.37")=+k8s:unionMember(union: "shape", memberName: "Circle")
	// +k8s:optional
	Circle *int32 `json:"circle,omitempty"`
	// want "MG303" "Triangle"
	// +k8s:unionMember(union: "shape", memberName: "Triangle")
	// +k8s:optional
	Triangle *int32 `json:"triangle,omitempty"`
}

// MG308 in the k8s dialect: a member that never appears in JSON.
type HiddenK8sMember struct {
	// +k8s:unionMember
	// +k8s:optional
	Visible *int32 `json:"visible,omitempty"`
	// +k8s:unionMember
	// +k8s:optional
	Hidden *int32 `json:"-"` // want "MG308" "json:\"-\""
}
