// Package v1 is the builds group.
// +groupName=build.example.io
package v1

// SourceType says where a build's source comes from.
// +enum
type SourceType string

const (
	SourceGit    SourceType = "Git"
	SourceBinary SourceType = "Binary"
)

// Build runs one build.
// +kubebuilder:object:root=true
type Build struct {
	APIVersion string    `json:"apiVersion,omitempty"`
	Kind       string    `json:"kind,omitempty"`
	Spec       BuildSpec `json:"spec"`
}

// BuildSpec says what to build.
type BuildSpec struct {
	// +unionDiscriminator
	// +required
	Type SourceType `json:"type"`
	// +unionMember
	// +optional
	Git *GitSource `json:"git,omitempty"`
	// +unionMember
	// +optional
	Binary *BinarySource `json:"binary,omitempty"`
}

// GitSource is a repository.
type GitSource struct {
	URI string `json:"uri"`
}

// BinarySource is an uploaded archive.
type BinarySource struct {
	AsFile string `json:"asFile,omitempty"`
}
