package precision

// One mistake, one report. A misspelt or malformed enum marker on a discriminator's type
// leaves the discriminator without values; that is said once, at the marker (MG003 or
// MG004), not again at the discriminator (MG201).

// want "MG003" "did you mean"
// +kubebuilder:validation:Enmu=HTTP;TCP
type ProbeType string

type Probe struct {
	// +unionDiscriminator
	// +required
	Type ProbeType `json:"type"`

	// +unionMember=HTTP
	// +optional
	HTTP *string `json:"http,omitempty"`
}

// want "MG004" "needs a value"
// +kubebuilder:validation:Enum
type CheckType string

type Check struct {
	// +unionDiscriminator
	// +required
	Type CheckType `json:"type"`

	// +unionMember=TCP
	// +optional
	TCP *string `json:"tcp,omitempty"`
}

// A struct-valued member with json:"-" (openshift's omitzero members, once hidden) is
// MG308's, not also MG302's.
type Hidden struct {
	// +unionDiscriminator
	// +required
	Type ShapeType `json:"type"`

	// +unionMember
	// +optional
	Circle Settings `json:"-"` // want "MG308"
	// +unionMember
	// +optional
	Square *Settings `json:"square,omitempty"`
}

type Settings struct {
	Size int32 `json:"size"`
}
