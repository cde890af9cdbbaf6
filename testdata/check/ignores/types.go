package ignores

// `// markergen:ignore MGnnn reason` silences a code on the lines it covers: from the
// line below it down to the field (in a field's comment), or the whole struct (in the
// struct's comment). One that silences nothing is MG010; one without a reason is MG011
// and silences nothing.

// +enum
type Kind string

const (
	KindA Kind = "A"
	KindB Kind = "B"
)

type FieldLevel struct {
	// +unionDiscriminator
	// +required
	Kind Kind `json:"kind"`

	// markergen:ignore MG302 clients always send a; the zero struct means "defaults"
	// +unionMember
	// +optional
	A Settings `json:"a,omitempty"`

	// +unionMember
	// +optional
	B Settings `json:"b,omitempty"` // want "MG302"
}

// markergen:ignore MG302 both members are value structs on purpose (API frozen in v1)
type StructLevel struct {
	// +unionDiscriminator
	// +required
	Kind Kind `json:"kind"`

	// +unionMember
	// +optional
	A Settings `json:"a,omitempty"`

	// +unionMember
	// +optional
	B Settings `json:"b,omitempty"`
}

type Unused struct {
	// want "MG010" "silences nothing"
	// markergen:ignore MG302 this member was a struct value once
	// +optional
	A *Settings `json:"a,omitempty"`
}

type NoReason struct {
	// +unionDiscriminator
	// +required
	Kind Kind `json:"kind"`

	// want "MG011" "no reason"
	// markergen:ignore MG302
	// +unionMember
	// +optional
	A Settings `json:"a,omitempty"` // want "MG302"

	// +unionMember
	// +optional
	B *Settings `json:"b,omitempty"`
}

type Settings struct {
	// +optional
	Level int32 `json:"level,omitempty"`
}
