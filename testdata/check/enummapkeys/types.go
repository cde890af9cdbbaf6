// Package enummapkeys: an enum type used only as a map's key. controller-gen writes no
// schema for a map's keys (the level map's CRD node is `additionalProperties` only), so
// the API server accepts any key, a constant outside the list included: seen in a proxy
// API (`Level map[ProxyLogComponent]LogLevel` with a `default` key) and in a bridge's
// capability map whose webhook sets a key the list leaves out.
package enummapkeys

// LogComponent names a component in Logging.Level; "default" is its catch-all key.
// +kubebuilder:validation:Enum=system;upstream;http
type LogComponent string

const (
	LogComponentDefault  LogComponent = "default"
	LogComponentSystem   LogComponent = "system"
	LogComponentUpstream LogComponent = "upstream"
)

// LogLevel is a map value: its list is the schema of every value.
// +kubebuilder:validation:Enum=debug;info;warn
type LogLevel string

const (
	LogLevelDebug LogLevel = "debug"
	LogLevelTrace LogLevel = "trace" // want "MG105" "trace"
)

// Capability is a map key here, and a field's value in Bridge.Primary: the list is
// enforced on that field, so the constant outside it is still reported.
// +kubebuilder:validation:Enum=AcceptsRemoteConfig;ReportsHealth
type Capability string

const (
	CapabilityReportsStatus Capability = "ReportsStatus" // want "MG105" "ReportsStatus"
	CapabilityReportsHealth Capability = "ReportsHealth"
)

// Capabilities is a named map: its key is still a key.
type Capabilities map[LogComponent]bool

type Logging struct {
	// +optional
	Level map[LogComponent]LogLevel `json:"level,omitempty"`
	// +optional
	Flags Capabilities `json:"flags,omitempty"`
}

type Bridge struct {
	// +optional
	Capabilities map[Capability]bool `json:"capabilities,omitempty"`
	// +optional
	Primary *Capability `json:"primary,omitempty"`
}
