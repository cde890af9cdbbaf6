// Package hidden is in mod/tree/_hidden.
package hidden

// Thidden is a type.
type Thidden struct{}
