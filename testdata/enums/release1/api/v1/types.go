package v1

// XFCCForwardMode says how the client certificate header is forwarded.
// +kubebuilder:validation:Enum=Strict;Disabled
type XFCCForwardMode string

const (
	XFCCStrict   XFCCForwardMode = "Strict"
	XFCCSyntax   XFCCForwardMode = "Syntax"
	XFCCDisabled XFCCForwardMode = "Disabled"
)

// ProxySpec is the desired state.
type ProxySpec struct {
	// +optional
	ForwardMode XFCCForwardMode `json:"forwardMode,omitempty"`
}
