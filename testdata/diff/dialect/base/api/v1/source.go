package v1

// Source says where a build reads its code (kep/000's `+union`: every field but the
// discriminator is a member, and a member's value is its Go field name).
// +union
type Source struct {
	// +unionDiscriminator
	// +optional
	Type *string `json:"type,omitempty"`
	// +optional
	Git *GitSource `json:"git,omitempty"`
	// +optional
	HTTP *HTTPSource `json:"http,omitempty"`
}

type GitSource struct {
	URL string `json:"url"`
}

type HTTPSource struct {
	URL string `json:"url"`
}
