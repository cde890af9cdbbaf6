// Package v1 holds the relay.example.com/v1 API.
// +groupName=relay.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Mode selects how a relay connects.
// +enum
type Mode string

const (
	// ModePlain connects without encryption.
	ModePlain Mode = "Plain"
	// ModeTLS connects with TLS.
	ModeTLS Mode = "TLS"
)

// TLS configures a TLS connection.
type TLS struct {
	// secretName names the certificate's secret.
	SecretName string `json:"secretName"`
}

// Endpoint is where a relay connects.
type Endpoint struct {
	// mode selects how to connect.
	// +unionDiscriminator
	// +required
	Mode Mode `json:"mode"`

	// tls configures TLS.
	// markergen:ignore MG511 relays written before v1 set mode TLS without tls; the rule waits for v2
	// +unionMember=TLS
	// +optional
	TLS *TLS `json:"tls,omitempty"`
}

// RelaySpec is the desired state of a Relay.
type RelaySpec struct {
	// endpoint is where the relay connects.
	Endpoint Endpoint `json:"endpoint"`
}

// Relay forwards traffic.
// +kubebuilder:object:root=true
type Relay struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RelaySpec `json:"spec,omitempty"`
}
