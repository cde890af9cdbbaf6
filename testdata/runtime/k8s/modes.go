package api

// Mode unions in the shapes of validation-gen's output_tests (tags/mode, tags/levels/modes,
// tags/options/discriminators), written for tests/test_k8s_modes.py.

type Strict struct {
	// +k8s:modeDiscriminator
	Mode string `json:"mode"`

	// +k8s:ifMode("A")=+k8s:required
	// +optional
	First *string `json:"first,omitempty"`

	// +k8s:ifMode("B")=+k8s:required
	// +optional
	Second *string `json:"second,omitempty"`
}

// The earlier spelling of Strict (MG110): the same verdicts.
type OldStrict struct {
	// +k8s:discriminator
	Mode string `json:"mode"`

	// +k8s:member("A")=+k8s:required
	// +optional
	First *string `json:"first,omitempty"`

	// +k8s:member(value: "B")=+k8s:required
	// +optional
	Second *string `json:"second,omitempty"`
}

type Shared struct {
	// +k8s:modeDiscriminator
	Mode string `json:"mode"`

	// allowed in A and B, forbidden in any other mode
	// +k8s:ifMode("A")=+k8s:optional
	// +k8s:ifMode("B")=+k8s:optional
	// +optional
	Value *string `json:"value,omitempty"`
}

type Flag struct {
	// +k8s:modeDiscriminator(modality: "On")
	On bool `json:"on,omitempty"`

	// +k8s:ifMode(modality: "On", mode: "true")=+k8s:required
	// +optional
	Settings *string `json:"settings,omitempty"`
}

type TwoModalities struct {
	// +k8s:modeDiscriminator(modality: "X")
	X string `json:"x"`

	// +k8s:modeDiscriminator(modality: "Y")
	Y string `json:"y"`

	// +k8s:ifMode(modality: "X", mode: "A")=+k8s:required
	// +optional
	A *string `json:"a,omitempty"`

	// +k8s:ifMode(modality: "Y", mode: "B")=+k8s:required
	// +optional
	B *string `json:"b,omitempty"`
}

type Collections struct {
	// +k8s:modeDiscriminator
	Mode string `json:"mode"`

	// +k8s:ifMode("A")=+k8s:optional
	// +optional
	List []string `json:"list,omitempty"`

	// +k8s:ifMode("A")=+k8s:optional
	// +optional
	Map map[string]string `json:"map,omitempty"`

	// +k8s:ifMode("A")=+k8s:forbidden
	// +k8s:ifMode("B")=+k8s:optional
	// +optional
	Count int32 `json:"count,omitempty"`
}

type Leveled struct {
	// +k8s:modeDiscriminator
	Mode string `json:"mode"`

	// +k8s:alpha=+k8s:ifMode("A")=+k8s:required
	// +optional
	A *string `json:"a,omitempty"`

	// +k8s:beta(since: "1.37")=+k8s:ifMode("B")=+k8s:required
	// +optional
	B *string `json:"b,omitempty"`

	// +k8s:alpha=+k8s:ifMode("A")=+k8s:optional
	// +k8s:beta=+k8s:ifMode("B")=+k8s:optional
	// +optional
	Mixed *string `json:"mixed,omitempty"`
}

type Gated struct {
	// +k8s:ifEnabled(FeatureZ)=+k8s:modeDiscriminator
	Mode string `json:"mode"`

	// +k8s:ifEnabled(FeatureZ)=+k8s:ifMode("A")=+k8s:optional
	// +optional
	A *string `json:"a,omitempty"`

	// +k8s:ifEnabled(FeatureZ)=+k8s:ifMode("B")=+k8s:optional
	// +optional
	B *string `json:"b,omitempty"`
}

type GatedOff struct {
	// +k8s:ifDisabled(FeatureZ)=+k8s:modeDiscriminator
	Mode string `json:"mode"`

	// +k8s:ifDisabled(FeatureZ)=+k8s:ifMode("A")=+k8s:optional
	// +optional
	A *string `json:"a,omitempty"`

	// +k8s:ifDisabled(FeatureZ)=+k8s:ifMode("B")=+k8s:optional
	// +optional
	B *string `json:"b,omitempty"`
}

type Outer struct {
	// +optional
	Inner *Strict `json:"inner,omitempty"`
}

// +enum
type PriorityLevelEnablement string

const (
	PriorityLevelEnablementExempt  PriorityLevelEnablement = "Exempt"
	PriorityLevelEnablementLimited PriorityLevelEnablement = "Limited"
)

// kubernetes/api flowcontrol/v1's shape: the 2019 +union and the mode tags are one union.
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

// +enum
type LimitResponseType string

const (
	LimitResponseTypeQueue  LimitResponseType = "Queue"
	LimitResponseTypeReject LimitResponseType = "Reject"
)

// flowcontrol/v1 LimitResponse: the mode ("Queue") is not the 2019 member value (the Go
// field name "Queuing"), which openapi-gen writes.
// +union
type LimitedByName struct {
	// +unionDiscriminator
	// +k8s:modeDiscriminator
	Type LimitResponseType `json:"type"`

	// +optional
	// +k8s:ifMode("Queue")=+k8s:required
	Queuing *string `json:"queuing,omitempty"`
}
