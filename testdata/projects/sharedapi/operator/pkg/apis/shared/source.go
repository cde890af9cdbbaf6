// Package shared holds API types that several kinds use; it declares no group.
package shared

// SourceType names where a source comes from.
// +enum
type SourceType string

const (
	SourceGit   SourceType = "Git"
	SourceImage SourceType = "Image"
)

// Source is a union: its type selects the one member that says where.
type Source struct {
	// +unionDiscriminator
	// +required
	Type SourceType `json:"type"`
	// +unionMember
	// +optional
	Git *GitSource `json:"git,omitempty"`
	// +unionMember
	// +optional
	Image *ImageSource `json:"image,omitempty"`
}

// GitSource is a repository.
type GitSource struct {
	URL string `json:"url"`
}

// ImageSource is a container image.
type ImageSource struct {
	Ref string `json:"ref"`
}
