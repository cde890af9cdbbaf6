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

// A discriminator whose type is no string but whose Enum lists names (gateway-api's
// filter Type, with its type changed to int32) is reported: the values do not fit it.
type NamedOnInt struct {
	// +unionDiscriminator
	// +kubebuilder:validation:Enum=HTTP;TCP
	// +required
	Type int32 `json:"type"` // want "MG201" "which is not a string"

	// +unionMember=HTTP
	// +optional
	HTTP *string `json:"http,omitempty"`
}

// Near miss for MG201: numbers on an integer discriminator are typed values (the
// memberName "1" is no JSON name, which MG305 says).
type NumbersOnInt struct {
	// +unionDiscriminator
	// +kubebuilder:validation:Enum=1;2
	// +required
	Version int32 `json:"version"`

	// want "MG305"
	// +unionMember=1
	// +optional
	V1 *string `json:"v1,omitempty"`
}

// The same with the enum marker on the discriminator field (gateway-api's style).
type FieldEnumMisspelt struct {
	// +unionDiscriminator
	// want "MG003"
	// +kubebuilder:validation:Enmu=HTTP;TCP
	// +required
	Type string `json:"type"`

	// +unionMember=HTTP
	// +optional
	HTTP *string `json:"http,omitempty"`
}
