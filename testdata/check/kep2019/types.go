package kep2019

// The kep/000 "Go tags" examples, verbatim but for omitempty-less ints, are near misses
// of MG401/MG402; their int members draw the warnings the KEP's prose implies.

// This will have one embedded union.
type TopLevelUnion struct {
	Name string `json:"name"`

	Union `json:",inline"`
}

// This will generate one union, with two fields and a discriminator.
// +union
type Union struct {
	// +unionDiscriminator
	// +optional
	UnionType string `json:"unionType"`

	// +optional
	FieldA int `json:"fieldA"` // want "MG302"
	// +optional
	FieldB int `json:"fieldB"` // want "MG302"
}

// This also generates one union, with two fields and on discriminator.
type Union2 struct {
	// +unionDiscriminator
	Type string `json:"type"`
	// +unionDeprecated
	// +optional
	Alpha int `json:"alpha"` // want "MG403" "not a pointer and not omitempty"
	// +unionDeprecated
	// +optional
	Beta int `json:"beta"` // want "MG403"
}

// This has 3 embedded unions:
// One for the fields that are directly embedded, one for Union, and one for Union2.
type InlinedUnion struct {
	Name string `json:"name"`

	// +unionDeprecated
	// +optional
	Field1 *int `json:"field1,omitempty"`
	// +unionDeprecated
	// +optional
	Field2 *int `json:"field2,omitempty"`

	Union  `json:",inline"`
	Union2 `json:",inline"`
}

type Base struct {
	Name string `json:"name"`
}

// +union
type Embeds struct {
	Base `json:",inline"` // want "MG401" "inlines Base"

	// +optional
	File *string `json:"file,omitempty"`
}

// +union
type WithDeprecated struct {
	// +unionDeprecated
	// +optional
	File *string `json:"file,omitempty"` // want "MG402"
	// +optional
	URL *string `json:"url,omitempty"`
	// +optional
	Count int32 `json:"count"` // want "MG302"
}

// +union
type NotOptional struct {
	Required *string `json:"required"` // want "MG301"
}

type Mixed struct { // want "MG404" "one union cannot mix"
	// +unionDeprecated
	// +optional
	Value *string `json:"value,omitempty"`
	// +unionMember
	// +optional
	ValueFrom *string `json:"valueFrom,omitempty"`
}

// +union
type PointerValues struct {
	// Near miss for MG403: MG403 is only about +unionDeprecated fields.
	// +optional
	File *string `json:"file,omitempty"`
}

// MG308 in the kep2019 dialect: a +unionDeprecated member that never appears in JSON.
type HiddenDeprecated struct {
	// +unionDeprecated
	// +optional
	Shown *string `json:"shown,omitempty"`
	// +unionDeprecated
	// +optional
	Hidden *string `json:"-"` // want "MG308" "json:\"-\""
}
