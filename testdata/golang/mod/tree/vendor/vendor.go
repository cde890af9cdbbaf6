// Package vendor is in mod/tree/vendor.
package vendor

// Tvendor is a type.
type Tvendor struct{}
