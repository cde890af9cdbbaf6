package kep004spanning

// kep/004 "Examples", second block. The page wraps one comment line ("customize the
// names used ...") without its `//`; it is restored here, the rest is verbatim.

// This will have one embedded union.
type TopLevelUnion struct {
	Name string `json:"name"`

	Union `json:",inline"`
}

// +enum
type UnionType string

const (
	FieldA    UnionType = "FieldA"
	FieldB    UnionType = "FieldB"
	FieldC    UnionType = "FieldC"
	FieldD    UnionType = "FieldD"
	FieldNone UnionType = ""
)

// This will generate one union, with two fields and a discriminator.
type Union struct {
	// +unionDiscriminator
	// +required
	UnionType UnionType `json:"unionType"`

	// +unionMember
	// +optional
	FieldA int `json:"fieldA"`
	// +unionMember,optional
	// +optional
	FieldB int `json:"fieldB"`
}

// +enum
type Union2Type string

const (
	Alpha Union2Type = "ALPHA"
	Beta             = "BETA"
)

// This generates a union where the unionMember markers demonstrate how to
// customize the names used for each field in the discriminator.
type Union2 struct {
	// +unionDiscriminator
	// +required
	Type2 Union2Type `json:"type"`
	// +unionMember=ALPHA
	// +optional
	Alpha int `json:"alpha"`
	// +unionMember=BETA,optional
	// +optional
	Beta int `json:"beta"`
}
