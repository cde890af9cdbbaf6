package kep004examples

// kep/004 "Examples", first block, verbatim (indentation aside).

// +enum
type UnionType string

const (
	FieldA    UnionType = "FieldA"
	FieldB    UnionType = "FieldB"
	FieldC    UnionType = "FieldC"
	FieldD    UnionType = "FieldD"
	FieldNone UnionType = ""
)

type Union struct {
	// +unionDiscriminator
	// +required
	UnionType UnionType

	// +unionMember
	// +optional
	FieldA int
	// +unionMember
	// +optional
	FieldB int
}
