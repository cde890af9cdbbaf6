// Package v1 is the cluster configuration group.
// +groupName=config.example.io
package v1

// Build holds the cluster's build defaults.
// +kubebuilder:object:root=true
type Build struct {
	APIVersion string    `json:"apiVersion,omitempty"`
	Kind       string    `json:"kind,omitempty"`
	Spec       BuildSpec `json:"spec"`
}

// BuildSpec holds the defaults.
type BuildSpec struct {
	// +unionDiscriminator
	// +required
	Mode ProxyMode `json:"mode"`
	// +unionMember
	// +optional
	Proxy *Proxy `json:"proxy,omitempty"`
}

// ProxyMode says whether builds use a proxy.
// +enum
type ProxyMode string

const (
	ProxyNone  ProxyMode = "None"
	ProxyProxy ProxyMode = "Proxy"
)

// Proxy is an HTTP proxy.
type Proxy struct {
	HTTPProxy string `json:"httpProxy,omitempty"`
}
