package v1

import "example.com/fileedits/api/shared"

// ListenerSourceType says where a Listener comes from.
// +enum
type ListenerSourceType string

const (
	// ListenerSourceImage takes an image.
	ListenerSourceImage ListenerSourceType = "Image"
	// ListenerSourceGit takes a git repository.
	ListenerSourceGit ListenerSourceType = "Git"
	// ListenerSourceNone takes nothing.
	ListenerSourceNone ListenerSourceType = "None"
)

// ListenerSource is a union of the places a Listener comes from.
type ListenerSource struct {
	// type selects the source.
	// +unionDiscriminator
	// +required
	Type ListenerSourceType `json:"type"`

	// image is a container image reference.
	// +unionMember
	// +optional
	Image *string `json:"image,omitempty"`

	// git is a repository URL.
	// +unionMember
	// +optional
	Git *ListenerGit `json:"git,omitempty"`
}

// ListenerGit is a git repository.
type ListenerGit struct {
	// url is where the repository is.
	URL string `json:"url"`
	// ref is the branch or tag.
	// +optional
	Ref string `json:"ref,omitempty"`
}

// ListenerSpec is the desired state of a Listener.
type ListenerSpec struct {
	// source is where the Listener comes from.
	Source ListenerSource `json:"source"`
	// protocol is the protocol the Listener serves.
	// +optional
	Protocol shared.Protocol `json:"protocol,omitempty"`
	// tier is the service tier.
	// +optional
	Tier shared.Tier `json:"tier,omitempty"`
	// limits bound the Listener.
	// +optional
	Limits *shared.Limits `json:"limits,omitempty"`
	// replicas is the number of copies.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// Listener is a listener of the network API.
type Listener struct {
	// spec is the desired state.
	Spec ListenerSpec `json:"spec"`
}
