package v1

// SourceType names the member of Source that is set.
// +enum
type SourceType string

const (
	// SourceTypeGit reads a git repository.
	SourceTypeGit SourceType = "GitRepository"
	// SourceTypeHTTP downloads an archive.
	SourceTypeHTTP SourceType = "Archive"
)

// Source says where a build reads its code (kep/004 union).
type Source struct {
	// +unionDiscriminator
	// +required
	Type SourceType `json:"type"`
	// +unionMember=GitRepository
	// +optional
	Git *GitSource `json:"git,omitempty"`
	// +unionMember=Archive
	// +optional
	HTTP *HTTPSource `json:"http,omitempty"`
}

type GitSource struct {
	URL string `json:"url"`
}

type HTTPSource struct {
	URL string `json:"url"`
}
