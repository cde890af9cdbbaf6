// Package extern is not among the inputs when testdata/check/promotion is checked: its
// struct is found through the module, as `go` finds an import.
package extern

// Pair holds two alternatives and a nested embedding of its own package.
type Pair struct {
	// +optional
	Left *string `json:"left,omitempty"`
	// +optional
	Right *string `json:"right,omitempty"`

	Extra `json:",inline"`
}

// Extra is embedded by Pair.
type Extra struct {
	// +optional
	Middle *string `json:"middle,omitempty"`
}
