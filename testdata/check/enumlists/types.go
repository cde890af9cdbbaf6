// Package enumlists: enums as the API server enforces them (issue "Enums exactly as the
// API server enforces them"). Shapes seen in a gateway project: a type whose constants
// exceed its Enum list, a filter-name type whose list lacks some constants, a field
// list wider than its type's list, and a union member selected by an unenforced value.
package enumlists

// XFCCForwardMode is validated by its list: Syntax is a constant, not a value.
// +kubebuilder:validation:Enum=Strict;Disabled
type XFCCForwardMode string

const (
	XFCCStrict   XFCCForwardMode = "Strict"
	XFCCSyntax   XFCCForwardMode = "Syntax" // want "MG105" "not in its enum list"
	XFCCDisabled XFCCForwardMode = "Disabled"
)

// FilterName lists three of its five constants.
// +kubebuilder:validation:Enum=envoy.filters.http.cors;envoy.filters.http.jwt_authn;envoy.filters.http.router
type FilterName string

const (
	FilterCORS   FilterName = "envoy.filters.http.cors"
	FilterJWT    FilterName = "envoy.filters.http.jwt_authn"
	FilterWasm   FilterName = "envoy.filters.http.wasm" // want "MG105" "envoy.filters.http.wasm"
	FilterRBAC   FilterName = "envoy.filters.http.rbac" // want "MG105" "envoy.filters.http.rbac"
	FilterRouter FilterName = "envoy.filters.http.router"
)

// CodeSourceType: the field below lists ConfigMap too; the server takes HTTP and Image.
// +kubebuilder:validation:Enum=HTTP;Image
type CodeSourceType string

const (
	HTTPCodeSource  CodeSourceType = "HTTP"
	ImageCodeSource CodeSourceType = "Image"
)

// CodeSource is a union whose discriminator's field list is wider than its type's.
type CodeSource struct {
	// want "MG106" "names \"ConfigMap\", which its type CodeSourceType does not accept"
	// +kubebuilder:validation:Enum=HTTP;Image;ConfigMap
	// +unionDiscriminator
	// +required
	Type CodeSourceType `json:"type"`

	// +unionMember
	// +optional
	HTTP *string `json:"http,omitempty"`

	// +unionMember
	// +optional
	Image *string `json:"image,omitempty"`
}

// Settings has the enum fields.
type Settings struct {
	// +optional
	ForwardMode XFCCForwardMode `json:"forwardMode,omitempty"`

	// +optional
	// +listType=set
	Filters []FilterName `json:"filters,omitempty"`

	// Narrowing on the field is deliberate and exact: no warning.
	// +kubebuilder:validation:Enum=HTTP
	// +optional
	Only CodeSourceType `json:"only,omitempty"`
}

// ModeType has a constant its list leaves out, and a union selects a member by it.
// +kubebuilder:validation:Enum=Fast;Safe
type ModeType string

const (
	ModeFast ModeType = "Fast"
	ModeSafe ModeType = "Safe"
	ModeSlow ModeType = "Slow" // want "MG105" "Slow"
)

// Mode is a union with a member the API server never lets anyone select.
type Mode struct {
	// +unionDiscriminator
	// +required
	Type ModeType `json:"type"`

	// +unionMember
	// +optional
	Fast *string `json:"fast,omitempty"`

	// +unionMember
	// +optional
	Safe *string `json:"safe,omitempty"`

	// want "MG107" "selected by \"Slow\", which the Go declares"
	// +unionMember
	// +optional
	Slow *string `json:"slow,omitempty"`
}

// Adherence lists its values; "" is how Go spells "not set" (openshift's NoOpinion
// constants): an omitempty field leaves it out, so it needs no place in the list.
// +kubebuilder:validation:Enum=Legacy;Strict
type Adherence string

const (
	AdherenceNoOpinion Adherence = ""
	AdherenceLegacy    Adherence = "Legacy"
	AdherenceStrict    Adherence = "Strict"
)
