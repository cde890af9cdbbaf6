package promotion

import (
	"example.com/check/promotion/extern"
	"example.com/nowhere/missing"
)

// FromElsewhere embeds a struct of a package that is not among the inputs.
// +kubebuilder:validation:ExactlyOneOf=left;right;middle
type FromElsewhere struct {
	extern.Pair `json:",inline"`
}

// Unfindable embeds a struct markergen cannot find: its fields are unknown, so an item
// that names none of the known fields is not called wrong; nothing is enforced.
// want "MG343" "names 'thing'.*missing.Thing"
// +kubebuilder:validation:AtMostOneOf=thing;own
type Unfindable struct {
	missing.Thing `json:",inline"`

	// +optional
	Own *string `json:"own,omitempty"`
}
