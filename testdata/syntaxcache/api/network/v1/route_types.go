package v1

import "example.com/fileedits/api/shared"

// RouteSourceType says where a Route comes from.
// +enum
type RouteSourceType string

const (
	// RouteSourceImage takes an image.
	RouteSourceImage RouteSourceType = "Image"
	// RouteSourceGit takes a git repository.
	RouteSourceGit RouteSourceType = "Git"
	// RouteSourceNone takes nothing.
	RouteSourceNone RouteSourceType = "None"
)

// RouteSource is a union of the places a Route comes from.
type RouteSource struct {
	// type selects the source.
	// +unionDiscriminator
	// +required
	Type RouteSourceType `json:"type"`

	// image is a container image reference.
	// +unionMember
	// +optional
	Image *string `json:"image,omitempty"`

	// git is a repository URL.
	// +unionMember
	// +optional
	Git *RouteGit `json:"git,omitempty"`
}

// RouteGit is a git repository.
type RouteGit struct {
	// url is where the repository is.
	URL string `json:"url"`
	// ref is the branch or tag.
	// +optional
	Ref string `json:"ref,omitempty"`
}

// RouteSpec is the desired state of a Route.
type RouteSpec struct {
	// source is where the Route comes from.
	Source RouteSource `json:"source"`
	// protocol is the protocol the Route serves.
	// +optional
	Protocol shared.Protocol `json:"protocol,omitempty"`
	// tier is the service tier.
	// +optional
	Tier shared.Tier `json:"tier,omitempty"`
	// limits bound the Route.
	// +optional
	Limits *shared.Limits `json:"limits,omitempty"`
	// replicas is the number of copies.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// Route is a route of the network API.
type Route struct {
	// spec is the desired state.
	Spec RouteSpec `json:"spec"`
}
