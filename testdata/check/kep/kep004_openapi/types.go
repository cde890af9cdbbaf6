package kep004openapi

// kep/004 "OpenAPI": the example as printed, which elides the `// +enum type Union1Type
// string` declaration; it is restored here so the block is a compilable Go package.

// +enum
type Union1Type string

const (
	FieldA    Union1Type = "FieldA"
	FieldB    Union1Type = "FieldB"
	FieldC    Union1Type = "FieldC"
	FieldD    Union1Type = "FieldD"
	FieldNone Union1Type = ""
)

// This will generate one union, with two fields and a discriminator.
type Union struct {
	// +unionDiscriminator
	// +required
	Union1 Union1Type `json:"union1"`

	// +unionMember
	// +unionDiscriminatedBy=Union1
	// +optional
	FieldA int `json:"fieldA"`
	// +unionMember,optional
	// +unionDiscriminatedBy=Union1
	// +optional
	FieldB int `json:"fieldB"`
}
