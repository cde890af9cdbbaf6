// Package kep000 holds the example of kep/000 (KEP "Union types", 2019),
// section "Go tags", transcribed as written. The KEP's snippet has no package clause;
// this file adds one. Some lines of the KEP's example are indented with four spaces
// instead of a tab; gofmt would change that, and it does not change the Go meaning, so
// the spacing is kept as the KEP has it.
package kep000

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
	FieldA int `json:"fieldA"`
    // +optional
	FieldB int `json:"fieldB"`
}

// This also generates one union, with two fields and on discriminator.
type Union2 struct {
	// +unionDiscriminator
	Type string `json:"type"`
	// +unionDeprecated
    // +optional
	Alpha int `json:"alpha"`
	// +unionDeprecated
    // +optional
	Beta int `json:"beta"`
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
