package v1

// Route sends requests through filters.
// +kubebuilder:object:root=true
type Route struct {
	APIVersion string    `json:"apiVersion,omitempty"`
	Kind       string    `json:"kind,omitempty"`
	Spec       RouteSpec `json:"spec"`
}

// RouteSpec holds the filters.
type RouteSpec struct {
	// Filters run in order.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	Filters []RouteFilter `json:"filters,omitempty"`
}

// RouteFilterType names a filter.
type RouteFilterType string

const (
	// FilterHeader sets a header.
	FilterHeader RouteFilterType = "Header"
	// FilterMirror mirrors requests.
	FilterMirror RouteFilterType = "Mirror"
	// FilterAuth asks an external service (experimental channel only).
	FilterAuth RouteFilterType = "Auth"
	// FilterDeny refuses every request; it needs no configuration (experimental
	// channel only).
	FilterDeny RouteFilterType = "Deny"
)

// RouteFilter is one filter: its type selects the one member that configures it.
type RouteFilter struct {
	// Type selects the filter.
	//
	// +unionDiscriminator
	// +kubebuilder:validation:Enum=Header;Mirror
	// <gateway:experimental:validation:Enum=Header;Mirror;Auth;Deny>
	// +required
	Type RouteFilterType `json:"type"`

	// Header configures the Header filter.
	// +unionMember
	// +optional
	Header *HeaderFilter `json:"header,omitempty"`

	// Mirror configures the Mirror filter.
	// +unionMember
	// +optional
	Mirror *MirrorFilter `json:"mirror,omitempty"`

	// Auth configures the Auth filter.
	//
	// +unionMember
	// +optional
	// <gateway:experimental>
	Auth *AuthFilter `json:"auth,omitempty"`
}

// HeaderFilter sets one header.
type HeaderFilter struct {
	Name string `json:"name"`
}

// MirrorFilter mirrors to a backend.
type MirrorFilter struct {
	Backend string `json:"backend"`
}

// AuthFilter asks an external service.
type AuthFilter struct {
	URL string `json:"url"`
}
