package v1

// XFCCForwardMode: release 2 renamed the constant Syntax to InsecureSyntax and listed it.
// +kubebuilder:validation:Enum=Strict;InsecureSyntax;Disabled
type XFCCForwardMode string

const (
	XFCCStrict         XFCCForwardMode = "Strict"
	XFCCInsecureSyntax XFCCForwardMode = "InsecureSyntax"
	XFCCDisabled       XFCCForwardMode = "Disabled"
)

// SourceType is the discriminator's type.
// +kubebuilder:validation:Enum=HTTP;Image
type SourceType string

const (
	SourceHTTP  SourceType = "HTTP"
	SourceImage SourceType = "Image"
)

// Source is a union; its discriminator defaults to HTTP.
type Source struct {
	// +unionDiscriminator
	// +kubebuilder:default=HTTP
	// +optional
	Type SourceType `json:"type,omitempty"`

	// +unionMember
	// +optional
	HTTP *string `json:"http,omitempty"`

	// +unionMember
	// +optional
	Image *string `json:"image,omitempty"`
}

// ProxySpec is the desired state.
type ProxySpec struct {
	// +optional
	ForwardMode XFCCForwardMode `json:"forwardMode,omitempty"`

	// +optional
	Source *Source `json:"source,omitempty"`

	// +optional
	Modes []XFCCForwardMode `json:"modes,omitempty"`
}

// ProxyStatus is the observed state.
type ProxyStatus struct {
	// +optional
	ForwardMode XFCCForwardMode `json:"forwardMode,omitempty"`
}

// Proxy is the kind.
// +kubebuilder:object:root=true
type Proxy struct {
	Spec   ProxySpec   `json:"spec,omitempty"`
	Status ProxyStatus `json:"status,omitempty"`
}
