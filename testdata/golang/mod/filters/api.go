// Package filters has one file of each kind the loader sorts out.
package filters

// API is a plain type.
type API struct{}
