package k8smodes

// validation-gen's mode unions (+k8s:modeDiscriminator / +k8s:ifMode), their earlier
// spellings, +k8s:enumExclude and stage versions, in the shapes kubernetes/api and
// validation-gen's own tests use.

// +k8s:enum
type PriorityLevelEnablement string

const (
	PriorityLevelEnablementExempt  PriorityLevelEnablement = "Exempt"
	PriorityLevelEnablementLimited PriorityLevelEnablement = "Limited"
)

// kubernetes/api flowcontrol: the 2019 +union and the mode tags on the same fields are
// one union; nothing to report.
// +union
type PriorityLevelConfigurationSpec struct {
	// +required
	// +unionDiscriminator
	// +k8s:beta(since: "1.37")=+k8s:required
	// +k8s:beta(since: "1.37")=+k8s:modeDiscriminator
	Type PriorityLevelEnablement `json:"type"`

	// +optional
	// +k8s:beta(since: "1.37")=+k8s:optional
	// +k8s:beta(since: "1.37")=+k8s:ifMode("Limited")=+k8s:required
	Limited *string `json:"limited,omitempty"`

	// +optional
	// +k8s:beta(since: "1.37")=+k8s:optional
	// +k8s:beta(since: "1.37")=+k8s:ifMode("Exempt")=+k8s:optional
	Exempt *string `json:"exempt,omitempty"`
}

type OldSpelling struct {
	// want "MG110" "earlier spelling of `.k8s:modeDiscriminator`"
	// +k8s:discriminator(name: "flag")
	Flag bool `json:"flag,omitempty"`

	// want "MG110" "earlier spelling of `.k8s:ifMode`"
	// +k8s:member(discriminator: "flag", value: "true")=+k8s:required
	// +optional
	Settings *string `json:"settings,omitempty"`
}

type NoDiscriminator struct {
	Mode string `json:"mode"`

	// want "MG111" "has no `.k8s:modeDiscriminator`"
	// +k8s:ifMode("A")=+k8s:required
	// +optional
	A *string `json:"a,omitempty"`
}

type Incomplete struct {
	// +k8s:modeDiscriminator
	Mode string `json:"mode"`

	// want "MG112" "no payload"
	// +k8s:ifMode("A")
	// +optional
	A *string `json:"a,omitempty"`

	// want "MG112" "names no mode"
	// +k8s:ifMode=+k8s:required
	// +optional
	B *string `json:"b,omitempty"`
}

type PointerDiscriminator struct {
	// want "MG113" "non-pointer"
	// +k8s:modeDiscriminator(modality: "p")
	Mode *string `json:"mode,omitempty"`

	// want "MG111" "modality \"p\""
	// +k8s:ifMode(modality: "p", mode: "A")=+k8s:required
	// +optional
	A *string `json:"a,omitempty"`
}

type IntDiscriminator struct {
	// want "MG113" "string or bool"
	// +k8s:modeDiscriminator
	Mode int32 `json:"mode,omitempty"`
}

type BadModality struct {
	// want "MG114" "reserved"
	// +k8s:modeDiscriminator(modality: "default")
	Mode string `json:"mode"`

	// want "MG114" "must match"
	// +k8s:modeDiscriminator(modality: "1st")
	Other string `json:"other"`
}

type TwoDiscriminators struct {
	// +k8s:modeDiscriminator
	Mode string `json:"mode"`

	// want "MG320" "duplicate discriminator"
	// +k8s:modeDiscriminator
	Kind string `json:"kind"`

	// +k8s:ifMode("A")=+k8s:required
	// +optional
	A *string `json:"a,omitempty"`
}

type Config struct {
	Level int32 `json:"level,omitempty"`
}

type StructMember struct {
	// +k8s:modeDiscriminator
	Mode string `json:"mode"`

	// +k8s:ifMode("A")=+k8s:required
	// +optional
	A Config `json:"a,omitempty"` // want "MG321"
}

type BoolModes struct {
	// +k8s:modeDiscriminator
	On bool `json:"on,omitempty"`

	// want "MG322" "no bool"
	// +k8s:ifMode("yes")=+k8s:required
	// +optional
	A *string `json:"a,omitempty"`
}

type EnumModes struct {
	// +k8s:modeDiscriminator
	Type PriorityLevelEnablement `json:"type"`

	// want "MG323" "\"limited\""
	// +k8s:ifMode("limited")=+k8s:required
	// +optional
	Limited *string `json:"limited,omitempty"`
}

type Versions struct {
	// want "MG324" "'v1.37'"
	// +k8s:alpha(since: "v1.37")=+k8s:optional
	// +optional
	A *string `json:"a,omitempty"`
}

type Phase string

const (
	PhaseRunning Phase = "Running"
	// want "MG325" "type Phase has no"
	// +k8s:enumExclude
	PhaseLegacy Phase = "Legacy"
)

// +k8s:enum
type Conditional string

const (
	// +k8s:ifEnabled(FeatureA)=+k8s:enumExclude
	ConditionalA Conditional = "A"
	// +k8s:ifDisabled(FeatureB)=+k8s:enumExclude
	ConditionalB Conditional = "B"
	// +k8s:enumExclude
	ConditionalX Conditional = "X"
	ConditionalC Conditional = "C"
)
