// Package v1 holds the relay.example.com/v1 API.
// +groupName=relay.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Mode selects how a relay connects.
// +enum
// +kubebuilder:validation:Enum=Plain;Secure
type Mode string

const (
	// ModePlain connects without encryption.
	ModePlain Mode = "Plain"
	// ModeTLS connects with TLS.
	ModeTLS Mode = "TLS" // want check "MG105" "constant ModeTLS = \"TLS\" of type Mode is not in its enum list (\"Plain\", \"Secure\")"
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
	// want check "MG107" "member TLS of union Endpoint.mode is selected by \"TLS\", which the Go declares but the API server's enum of Mode rejects"
	// +unionMember
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
