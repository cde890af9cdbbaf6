// Package tree is in mod/tree.
package tree

// Ttree is a type.
type Ttree struct{}
