// Package deeper is in mod/tree/sub/deeper.
package deeper

// Tdeeper is a type.
type Tdeeper struct{}
