// Package sub is in mod/tree/sub.
package sub

// Tsub is a type.
type Tsub struct{}
