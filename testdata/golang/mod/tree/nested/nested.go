// Package nested is in mod/tree/nested.
package nested

// Tnested is a type.
type Tnested struct{}
