// Package nomod is outside any Go module: its import path is its directory.
package nomod

// Free is a type.
type Free struct{}
