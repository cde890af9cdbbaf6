package v1

import "example.com/fileedits/api/shared"

// SnapshotSourceType says where a Snapshot comes from.
// +enum
type SnapshotSourceType string

const (
	// SnapshotSourceImage takes an image.
	SnapshotSourceImage SnapshotSourceType = "Image"
	// SnapshotSourceGit takes a git repository.
	SnapshotSourceGit SnapshotSourceType = "Git"
	// SnapshotSourceNone takes nothing.
	SnapshotSourceNone SnapshotSourceType = "None"
)

// SnapshotSource is a union of the places a Snapshot comes from.
type SnapshotSource struct {
	// type selects the source.
	// +unionDiscriminator
	// +required
	Type SnapshotSourceType `json:"type"`

	// image is a container image reference.
	// +unionMember
	// +optional
	Image *string `json:"image,omitempty"`

	// git is a repository URL.
	// +unionMember
	// +optional
	Git *SnapshotGit `json:"git,omitempty"`
}

// SnapshotGit is a git repository.
type SnapshotGit struct {
	// url is where the repository is.
	URL string `json:"url"`
	// ref is the branch or tag.
	// +optional
	Ref string `json:"ref,omitempty"`
}

// SnapshotSpec is the desired state of a Snapshot.
type SnapshotSpec struct {
	// source is where the Snapshot comes from.
	Source SnapshotSource `json:"source"`
	// protocol is the protocol the Snapshot serves.
	// +optional
	Protocol shared.Protocol `json:"protocol,omitempty"`
	// tier is the service tier.
	// +optional
	Tier shared.Tier `json:"tier,omitempty"`
	// limits bound the Snapshot.
	// +optional
	Limits *shared.Limits `json:"limits,omitempty"`
	// replicas is the number of copies.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// Snapshot is a snapshot of the storage API.
type Snapshot struct {
	// spec is the desired state.
	Spec SnapshotSpec `json:"spec"`
}
