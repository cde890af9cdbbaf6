package api

// `+k8s:enum` and `+k8s:enumExclude` in the shapes of validation-gen's output_tests
// (tags/enum, tags/enum/options, tags/levels/enums), written for tests/test_k8s_enum.py.

// +k8s:enum
type Empty string // no values

// +k8s:enum
type Two string

const (
	TwoA Two = "a"
	TwoB Two = "b"
)

// +k8s:enum
type WithExclude string

const (
	WithExcludeKept WithExclude = "kept"
	// +k8s:enumExclude
	WithExcludeGone WithExclude = "gone"
)

// +k8s:enum
type Conditional string

const (
	// +k8s:ifEnabled(FeatureA)=+k8s:enumExclude
	ConditionalA Conditional = "A"

	// +k8s:ifDisabled(FeatureB)=+k8s:enumExclude
	ConditionalB Conditional = "B"

	// always in
	ConditionalC Conditional = "C"

	// +k8s:ifEnabled(FeatureA)=+k8s:enumExclude
	// +k8s:ifEnabled(FeatureB)=+k8s:enumExclude
	ConditionalD Conditional = "D"

	// +k8s:ifDisabled(FeatureC)=+k8s:enumExclude
	// +k8s:ifDisabled(FeatureD)=+k8s:enumExclude
	ConditionalE Conditional = "E"

	// +k8s:ifDisabled(FeatureC)=+k8s:enumExclude
	// +k8s:ifEnabled(FeatureD)=+k8s:enumExclude
	ConditionalF Conditional = "F"
)

// +enum
// +k8s:beta(since: "1.37")=+k8s:enum
type Effect string

const (
	EffectNone   Effect = "None"
	EffectNoExec Effect = "NoExecute"
)

// an openapi-gen enum only: validation-gen does not check it
// +enum
type Plain string

const (
	PlainX Plain = "x"
)

// not an enum: a defined type of its own (validation-gen checks only Two's own fields)
type NotEnum Two

// an alias is the same type: checked
type TwoAlias = Two

type Struct struct {
	EmptyField    Empty  `json:"emptyField"`
	EmptyPtrField *Empty `json:"emptyPtrField"`

	TwoField    Two  `json:"twoField"`
	TwoPtrField *Two `json:"twoPtrField"`

	WithExcludeField WithExclude `json:"withExcludeField"`

	PlainField Plain `json:"plainField"`

	NotEnumField NotEnum `json:"notEnumField"`
	// +k8s:optional
	AliasField TwoAlias `json:"aliasField,omitempty"`
}

type Options struct {
	// +k8s:optional
	// +optional
	Value Conditional `json:"value,omitempty"`
}

type Tainted struct {
	// +k8s:required
	Effect Effect `json:"effect"`
}
