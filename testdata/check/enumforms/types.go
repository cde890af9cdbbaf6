// Package enumforms: enum forms as the generators of real projects read them.
package enumforms

/*
ModuleType has its list in a block comment: controller-gen reads markers only from
`//` lines, so the CRD has no enum here, and neither has markergen.
+kubebuilder:validation:Enum=DSM
*/
type ModuleType string

const (
	// ModuleDSM is the one module.
	ModuleDSM ModuleType = "DSM"
)

// RouteFilterType is the type of a route filter; the fields using it list its values.
type RouteFilterType string

// Filter has a channel enum (gateway-api's generator): the experimental channel's
// CRDs take the tag's list in place of the field's.
type Filter struct {
	// Type names the filter.
	//
	// +kubebuilder:validation:Enum=RequestHeaderModifier;URLRewrite
	// <gateway:experimental:validation:Enum=RequestHeaderModifier;URLRewrite;ExternalAuth>
	// +required
	Type RouteFilterType `json:"type"`

	// +optional
	Module ModuleType `json:"module,omitempty"`
}

// FilterType is listed on the type, so a channel tag cannot widen it.
// +kubebuilder:validation:Enum=RequestHeaderModifier;URLRewrite
type FilterType string

// NarrowFilter's channel tag names a value its type's list rejects.
type NarrowFilter struct {
	// Type names the filter.
	//
	// +kubebuilder:validation:Enum=RequestHeaderModifier;URLRewrite
	// want "MG106" "names \"ExternalAuth\""
	// <gateway:experimental:validation:Enum=RequestHeaderModifier;URLRewrite;ExternalAuth>
	// +required
	Type FilterType `json:"type"`
}

// RevocationSpec has its field's markers in a block one blank line above the doc
// comment: controller-gen reads that block too (its "closest non-godoc" comment).
type RevocationSpec struct {
	// +kubebuilder:validation:Enum=customer-break-glass;sre-break-glass

	// SignerClass identifies the class of signer to revoke.
	SignerClass string `json:"signerClass"`
}
