// Package kep004openapi holds the example of kep/004 (KEP-1027, latest design),
// section "OpenAPI" ("The following is an example of what the generated OpenAPI
// definition will look like for a given go type"), with a package clause added.
//
// NOTE(markergen): the KEP's example uses Union1Type without declaring it. The
// declaration of Union1Type, and its enum marker (kep/004 requires the discriminator
// to be an enum), were added so that the example is valid Go and a kep1027 union.
package kep004openapi

// +enum
type Union1Type string

const (
  FieldA Union1Type = "FieldA"
  FieldB Union1Type = "FieldB"
  FieldC Union1Type = "FieldC"
  FieldD Union1Type = "FieldD"
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
