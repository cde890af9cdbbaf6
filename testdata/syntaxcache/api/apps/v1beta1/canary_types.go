package v1beta1

import "example.com/fileedits/api/shared"

// CanarySourceType says where a Canary comes from.
// +enum
type CanarySourceType string

const (
	// CanarySourceImage takes an image.
	CanarySourceImage CanarySourceType = "Image"
	// CanarySourceGit takes a git repository.
	CanarySourceGit CanarySourceType = "Git"
	// CanarySourceNone takes nothing.
	CanarySourceNone CanarySourceType = "None"
)

// CanarySource is a union of the places a Canary comes from.
type CanarySource struct {
	// type selects the source.
	// +unionDiscriminator
	// +required
	Type CanarySourceType `json:"type"`

	// image is a container image reference.
	// +unionMember
	// +optional
	Image *string `json:"image,omitempty"`

	// git is a repository URL.
	// +unionMember
	// +optional
	Git *CanaryGit `json:"git,omitempty"`
}

// CanaryGit is a git repository.
type CanaryGit struct {
	// url is where the repository is.
	URL string `json:"url"`
	// ref is the branch or tag.
	// +optional
	Ref string `json:"ref,omitempty"`
}

// CanarySpec is the desired state of a Canary.
type CanarySpec struct {
	// source is where the Canary comes from.
	Source CanarySource `json:"source"`
	// protocol is the protocol the Canary serves.
	// +optional
	Protocol shared.Protocol `json:"protocol,omitempty"`
	// tier is the service tier.
	// +optional
	Tier shared.Tier `json:"tier,omitempty"`
	// limits bound the Canary.
	// +optional
	Limits *shared.Limits `json:"limits,omitempty"`
	// replicas is the number of copies.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// Canary is a canary of the apps API.
type Canary struct {
	// spec is the desired state.
	Spec CanarySpec `json:"spec"`
}
