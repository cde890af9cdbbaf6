package gateway

// gateway-api's house style: a discriminator whose members are only documented, with
// hand-written CEL doing the enforcing. One info-level note per union (MG205), at the
// discriminator, whose hint (`+unionMember=GRPC` above GRPCAuthConfig, ...) gives a
// clean run when followed (tests/test_hints.py applies it).

type HTTPRouteExternalAuthProtocol string

// +kubebuilder:validation:XValidation:message="grpc must be specified when protocol is set to 'GRPC'",rule="self.protocol == 'GRPC' ? has(self.grpc) : true"
// +kubebuilder:validation:XValidation:message="protocol must be 'GRPC' when grpc is set",rule="has(self.grpc) ? self.protocol == 'GRPC' : true"
type HTTPExternalAuthFilter struct {
	// ExternalAuthProtocol describes which protocol to use.
	//
	// want "MG205" "no members"
	// +unionDiscriminator
	// +required
	// +kubebuilder:validation:Enum=HTTP;GRPC
	ExternalAuthProtocol HTTPRouteExternalAuthProtocol `json:"protocol,omitempty"`

	// +required
	BackendRef string `json:"backendRef,omitempty"`

	// +optional
	GRPCAuthConfig *GRPCAuthConfig `json:"grpc,omitempty"`

	// +optional
	HTTPAuthConfig *HTTPAuthConfig `json:"http,omitempty"`
}

type GRPCAuthConfig struct {
	// +optional
	AllowedRequestHeaders []string `json:"allowedHeaders,omitempty"`
}

type HTTPAuthConfig struct {
	// +optional
	Path string `json:"path,omitempty"`
}
