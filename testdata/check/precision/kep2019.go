package precision

// A `+union` struct (2019) whose discriminator is also marked `+unionMember` is the same
// kep2019 union with one wrong marker (MG204 at that marker), not openshift's style with
// the discriminator as its only member (which would add MG205 and MG201).

// +enum
type SourceType string

const (
	SourceFile SourceType = "File"
	SourceURL  SourceType = "URL"
)

// +union
type Source struct {
	// +unionDiscriminator
	// want "MG204"
	// +unionMember
	// +optional
	Type SourceType `json:"type,omitempty"`
	// +optional
	File *string `json:"file,omitempty"`
	// +optional
	URL *string `json:"url,omitempty"`
}
