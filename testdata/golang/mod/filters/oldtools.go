// +build ignore

package filters

// OldIgnored is in a file with the old `+build ignore` line.
type OldIgnored struct{}
