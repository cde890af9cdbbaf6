// Package broken has a syntax error in one declaration; the others must still be read.
// This file is deliberately not valid Go.
package broken

// Before is read.
type Before struct {
	Name string `json:"name"`
}

// Broken has an unfinished map type.
type Broken struct {
	A int
	B map[string
	C int
}

// After is read too.
// +enum
type After string

const (
	// AfterA is a value.
	AfterA After = "A"
)
