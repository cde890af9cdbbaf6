// Package testdata is in mod/tree/testdata.
package testdata

// Ttestdata is a type.
type Ttestdata struct{}
