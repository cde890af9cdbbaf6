package v1

import "example.com/fileedits/api/shared"

// VolumeSourceType says where a Volume comes from.
// +enum
type VolumeSourceType string

const (
	// VolumeSourceImage takes an image.
	VolumeSourceImage VolumeSourceType = "Image"
	// VolumeSourceGit takes a git repository.
	VolumeSourceGit VolumeSourceType = "Git"
	// VolumeSourceNone takes nothing.
	VolumeSourceNone VolumeSourceType = "None"
)

// VolumeSource is a union of the places a Volume comes from.
type VolumeSource struct {
	// type selects the source.
	// +unionDiscriminator
	// +required
	Type VolumeSourceType `json:"type"`

	// image is a container image reference.
	// +unionMember
	// +optional
	Image *string `json:"image,omitempty"`

	// git is a repository URL.
	// +unionMember
	// +optional
	Git *VolumeGit `json:"git,omitempty"`
}

// VolumeGit is a git repository.
type VolumeGit struct {
	// url is where the repository is.
	URL string `json:"url"`
	// ref is the branch or tag.
	// +optional
	Ref string `json:"ref,omitempty"`
}

// VolumeSpec is the desired state of a Volume.
type VolumeSpec struct {
	// source is where the Volume comes from.
	Source VolumeSource `json:"source"`
	// protocol is the protocol the Volume serves.
	// +optional
	Protocol shared.Protocol `json:"protocol,omitempty"`
	// tier is the service tier.
	// +optional
	Tier shared.Tier `json:"tier,omitempty"`
	// limits bound the Volume.
	// +optional
	Limits *shared.Limits `json:"limits,omitempty"`
	// replicas is the number of copies.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// Volume is a volume of the storage API.
type Volume struct {
	// spec is the desired state.
	Spec VolumeSpec `json:"spec"`
}
