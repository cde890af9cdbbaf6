// Package v1 is the tunnels API.
// +kubebuilder:object:generate=true
// +groupName=net.example.com
package v1

// Mode says how a tunnel is secured.
// +enum
type Mode string

const (
	// ModeTLS encrypts the tunnel.
	ModeTLS Mode = "TLS"
	// ModePlain sends in the clear.
	ModePlain Mode = "Plain"
)

// Tunnel is a secured connection.
// +kubebuilder:object:root=true
type Tunnel struct {
	APIVersion string     `json:"apiVersion,omitempty"`
	Kind       string     `json:"kind,omitempty"`
	Spec       TunnelSpec `json:"spec"`
}

// TunnelSpec says how the tunnel runs.
type TunnelSpec struct {
	// Mode selects how the tunnel is secured.
	// +unionDiscriminator
	// +required
	// +kubebuilder:validation:Enum=TLS;Plain
	Mode Mode `json:"mode"`

	// TLS configures the TLS mode.
	// +unionMember
	// +optional
	TLS *TLSConfig `json:"tls,omitempty"`

	// Port is where the tunnel listens.
	// +optional
	// +kubebuilder:validation:Maximum=65535
	Port int32 `json:"port,omitempty"`
}

// TLSConfig names the certificate.
type TLSConfig struct {
	SecretName string `json:"secretName"`
}
