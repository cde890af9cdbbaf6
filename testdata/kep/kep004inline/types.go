// Package kep004inline holds the second example of kep/004 (KEP-1027, latest design),
// section "Design Details" / "Examples" ("examples of what is allowed"), transcribed
// as written with a package clause added. kep/004 redefines UnionType and Union in
// its two examples, so each example is its own package.
package kep004inline

// This will have one embedded union.
type TopLevelUnion struct {
  Name string `json:"name"`

  Union `json:",inline"`
}

// +enum
type UnionType string

const (
  FieldA UnionType = "FieldA"
  FieldB UnionType = "FieldB"
  FieldC UnionType = "FieldC"
  FieldD UnionType = "FieldD"
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

// Beta is untyped, exactly as in the KEP: in Go it is an untyped string constant,
// not a value of Union2Type (the checker's MG103 is about this case).
const (
  Alpha Union2Type = "ALPHA"
  Beta = "BETA"
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

// NOTE(markergen): in the KEP, the doc comment of Union2 goes on with the line
// "customize the names used for each field in the discriminator." without `//`,
// which is not valid Go; `//` was added.
