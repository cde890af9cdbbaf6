// Package kep001 holds the example of kep/001 (KEP-1027 2022 draft), section
// "Design Details" / "Go tags", transcribed as written, with a package clause added.
// Indentation with spaces instead of tabs is kept as the KEP has it.
package kep001

// This will have one embedded union.
type TopLevelUnion struct {
	Name string `json:"name"`

	Union `json:",inline"`
}

// This will generate one union, with two fields and a discriminator.
type Union struct {
	// +unionDiscriminator
	// +optional
	UnionType string `json:"unionType"`

	// +optional
        // +unionMember
	FieldA int `json:"fieldA"`
        // +optional
	FieldB int `json:"fieldB"`
}

// This generates two unions, each with two fields and a discriminator. The 
type Union2 struct {
	// +unionDiscriminator
        // +required
	Type string `json:"type"`
	// +unionMember=type
        // +optional
	Alpha int `json:"alpha"`
	// +unionMember=type
        // +optional
	Beta int `json:"beta"`
}

// This has 3 embedded unions:
// One for the fields that are directly embedded, one for Union, and one for Union2.
type InlinedUnion struct {
	Name string `json:"name"`

        // +unionDiscriminator
        // +optional
        FieldType string `json:"fieldType"`
	// +unionMember=fieldType
	// +optional
	Field1 *int `json:"field1,omitempty"`
	// +unionMember=fieldType
	// +optional
	Field2 *int `json:"field2,omitempty"`

	// NOTE(markergen): the KEP's example is not valid Go here: its comment went on
	// with a line "cannot be inlined" without `//` (fixed below by adding `//`). Also,
	// the field was written `union Union` with a lowercase name, which makes it
	// unexported, so encoding/json ignores it despite its tag. It is written here as
	// `Union Union`, the exported field the KEP's `json:"union"` tag intends. This
	// note is kept apart by a blank line so it is not part of the field's doc.

        // Union does not label its members, so it
        // cannot be inlined
	Union Union  `json:"union"`
	Union2 `json:",inline"`
}
