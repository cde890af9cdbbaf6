package v1alpha1

import "example.com/fileedits/api/shared"

// ScheduleSourceType says where a Schedule comes from.
// +enum
type ScheduleSourceType string

const (
	// ScheduleSourceImage takes an image.
	ScheduleSourceImage ScheduleSourceType = "Image"
	// ScheduleSourceGit takes a git repository.
	ScheduleSourceGit ScheduleSourceType = "Git"
	// ScheduleSourceNone takes nothing.
	ScheduleSourceNone ScheduleSourceType = "None"
)

// ScheduleSource is a union of the places a Schedule comes from.
type ScheduleSource struct {
	// type selects the source.
	// +unionDiscriminator
	// +required
	Type ScheduleSourceType `json:"type"`

	// image is a container image reference.
	// +unionMember
	// +optional
	Image *string `json:"image,omitempty"`

	// git is a repository URL.
	// +unionMember
	// +optional
	Git *ScheduleGit `json:"git,omitempty"`
}

// ScheduleGit is a git repository.
type ScheduleGit struct {
	// url is where the repository is.
	URL string `json:"url"`
	// ref is the branch or tag.
	// +optional
	Ref string `json:"ref,omitempty"`
}

// ScheduleSpec is the desired state of a Schedule.
type ScheduleSpec struct {
	// source is where the Schedule comes from.
	Source ScheduleSource `json:"source"`
	// protocol is the protocol the Schedule serves.
	// +optional
	Protocol shared.Protocol `json:"protocol,omitempty"`
	// tier is the service tier.
	// +optional
	Tier shared.Tier `json:"tier,omitempty"`
	// limits bound the Schedule.
	// +optional
	Limits *shared.Limits `json:"limits,omitempty"`
	// replicas is the number of copies.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// Schedule is a schedule of the batch API.
type Schedule struct {
	// spec is the desired state.
	Spec ScheduleSpec `json:"spec"`
}
