// Package dot is in mod/tree/.dot.
package dot

// Tdot is a type.
type Tdot struct{}
