//go:build ignore

package filters

// Ignored is in a file with an ignore build constraint.
type Ignored struct{}
