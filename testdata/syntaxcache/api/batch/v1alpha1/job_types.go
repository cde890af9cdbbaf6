package v1alpha1

import "example.com/fileedits/api/shared"

// JobSourceType says where a Job comes from.
// +enum
type JobSourceType string

const (
	// JobSourceImage takes an image.
	JobSourceImage JobSourceType = "Image"
	// JobSourceGit takes a git repository.
	JobSourceGit JobSourceType = "Git"
	// JobSourceNone takes nothing.
	JobSourceNone JobSourceType = "None"
)

// JobSource is a union of the places a Job comes from.
type JobSource struct {
	// type selects the source.
	// +unionDiscriminator
	// +required
	Type JobSourceType `json:"type"`

	// image is a container image reference.
	// +unionMember
	// +optional
	Image *string `json:"image,omitempty"`

	// git is a repository URL.
	// +unionMember
	// +optional
	Git *JobGit `json:"git,omitempty"`
}

// JobGit is a git repository.
type JobGit struct {
	// url is where the repository is.
	URL string `json:"url"`
	// ref is the branch or tag.
	// +optional
	Ref string `json:"ref,omitempty"`
}

// JobSpec is the desired state of a Job.
type JobSpec struct {
	// source is where the Job comes from.
	Source JobSource `json:"source"`
	// protocol is the protocol the Job serves.
	// +optional
	Protocol shared.Protocol `json:"protocol,omitempty"`
	// tier is the service tier.
	// +optional
	Tier shared.Tier `json:"tier,omitempty"`
	// limits bound the Job.
	// +optional
	Limits *shared.Limits `json:"limits,omitempty"`
	// replicas is the number of copies.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// Job is a job of the batch API.
type Job struct {
	// spec is the desired state.
	Spec JobSpec `json:"spec"`
}
