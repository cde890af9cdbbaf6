package v1

// XFCCForwardMode says how the client certificate header is forwarded.
// +kubebuilder:validation:Enum=Strict;InsecureSyntax;Disabled
type XFCCForwardMode string

const (
	XFCCStrict         XFCCForwardMode = "Strict"
	XFCCInsecureSyntax XFCCForwardMode = "InsecureSyntax"
	XFCCDisabled       XFCCForwardMode = "Disabled"
)

// ProxySpec is the desired state.
type ProxySpec struct {
	// +optional
	ForwardMode XFCCForwardMode `json:"forwardMode,omitempty"`
}
