// Package shared holds a type that another package of the parity inputs refers to,
// so that cross-package references are compared too.
package shared

// Thing is referred to from package v1.
type Thing struct {
	// Value of the thing.
	// +optional
	Value string `json:"value,omitempty"`

	// Count is required: no omitempty and no +optional.
	Count int32 `json:"count"`
}
