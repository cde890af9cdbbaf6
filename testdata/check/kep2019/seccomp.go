package kep2019

// Near miss of MG303, as in kubernetes/api core/v1: in a kep2019 union the member's
// discriminator value is its Go field name (kep/000 "OpenAPI"), so `LocalhostProfile`
// is not checked against the discriminator's enum.

// SeccompProfileType defines the supported seccomp profile types.
// +enum
type SeccompProfileType string

const (
	SeccompProfileTypeUnconfined     SeccompProfileType = "Unconfined"
	SeccompProfileTypeRuntimeDefault SeccompProfileType = "RuntimeDefault"
	SeccompProfileTypeLocalhost      SeccompProfileType = "Localhost"
)

// SeccompProfile defines a pod/container's seccomp profile settings.
// +union
type SeccompProfile struct {
	// +unionDiscriminator
	Type SeccompProfileType `json:"type"`
	// +optional
	LocalhostProfile *string `json:"localhostProfile,omitempty"`
}
