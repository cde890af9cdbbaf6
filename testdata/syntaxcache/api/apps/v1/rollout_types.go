package v1

import "example.com/fileedits/api/shared"

// RolloutSourceType says where a Rollout comes from.
// +enum
type RolloutSourceType string

const (
	// RolloutSourceImage takes an image.
	RolloutSourceImage RolloutSourceType = "Image"
	// RolloutSourceGit takes a git repository.
	RolloutSourceGit RolloutSourceType = "Git"
	// RolloutSourceNone takes nothing.
	RolloutSourceNone RolloutSourceType = "None"
)

// RolloutSource is a union of the places a Rollout comes from.
type RolloutSource struct {
	// type selects the source.
	// +unionDiscriminator
	// +required
	Type RolloutSourceType `json:"type"`

	// image is a container image reference.
	// +unionMember
	// +optional
	Image *string `json:"image,omitempty"`

	// git is a repository URL.
	// +unionMember
	// +optional
	Git *RolloutGit `json:"git,omitempty"`
}

// RolloutGit is a git repository.
type RolloutGit struct {
	// url is where the repository is.
	URL string `json:"url"`
	// ref is the branch or tag.
	// +optional
	Ref string `json:"ref,omitempty"`
}

// RolloutSpec is the desired state of a Rollout.
type RolloutSpec struct {
	// source is where the Rollout comes from.
	Source RolloutSource `json:"source"`
	// protocol is the protocol the Rollout serves.
	// +optional
	Protocol shared.Protocol `json:"protocol,omitempty"`
	// tier is the service tier.
	// +optional
	Tier shared.Tier `json:"tier,omitempty"`
	// limits bound the Rollout.
	// +optional
	Limits *shared.Limits `json:"limits,omitempty"`
	// replicas is the number of copies.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// Rollout is a rollout of the apps API.
type Rollout struct {
	// spec is the desired state.
	Spec RolloutSpec `json:"spec"`
}
