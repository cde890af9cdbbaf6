// Package kep004basic holds the first example of kep/004 (KEP-1027, latest design),
// section "Design Details" / "Examples" ("Below is an example of how to define a union
// based on the above design"), transcribed as written with a package clause added.
// The KEP indents with two spaces; gofmt would use tabs, which changes nothing else.
package kep004basic

// +enum
type UnionType string

const (
  FieldA UnionType = "FieldA"
  FieldB UnionType = "FieldB"
  FieldC UnionType = "FieldC"
  FieldD UnionType = "FieldD"
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
