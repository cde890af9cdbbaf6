package v1beta1

import "example.com/fileedits/api/shared"

// DeploymentSourceType says where a Deployment comes from.
// +enum
type DeploymentSourceType string

const (
	// DeploymentSourceImage takes an image.
	DeploymentSourceImage DeploymentSourceType = "Image"
	// DeploymentSourceGit takes a git repository.
	DeploymentSourceGit DeploymentSourceType = "Git"
	// DeploymentSourceNone takes nothing.
	DeploymentSourceNone DeploymentSourceType = "None"
)

// DeploymentSource is a union of the places a Deployment comes from.
type DeploymentSource struct {
	// type selects the source.
	// +unionDiscriminator
	// +required
	Type DeploymentSourceType `json:"type"`

	// image is a container image reference.
	// +unionMember
	// +optional
	Image *string `json:"image,omitempty"`

	// git is a repository URL.
	// +unionMember
	// +optional
	Git *DeploymentGit `json:"git,omitempty"`
}

// DeploymentGit is a git repository.
type DeploymentGit struct {
	// url is where the repository is.
	URL string `json:"url"`
	// ref is the branch or tag.
	// +optional
	Ref string `json:"ref,omitempty"`
}

// DeploymentSpec is the desired state of a Deployment.
type DeploymentSpec struct {
	// source is where the Deployment comes from.
	Source DeploymentSource `json:"source"`
	// protocol is the protocol the Deployment serves.
	// +optional
	Protocol shared.Protocol `json:"protocol,omitempty"`
	// tier is the service tier.
	// +optional
	Tier shared.Tier `json:"tier,omitempty"`
	// limits bound the Deployment.
	// +optional
	Limits *shared.Limits `json:"limits,omitempty"`
	// replicas is the number of copies.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// Deployment is a deployment of the apps API.
type Deployment struct {
	// spec is the desired state.
	Spec DeploymentSpec `json:"spec"`
}
