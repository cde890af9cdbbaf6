// Package k8szero reproduces the shapes of validation-gen's own test packages
// (output_tests/tags/options/unions, .../union/undiscriminated/simple,
// .../zerooroneof/zerooroneof/simple): `+k8s:unionMember` and `+k8s:zeroOrOneOfMember`
// on non-pointer fields without omitempty, gated or not. validation-gen reads a member
// at its Go zero value as unset, so they are valid (no MG301 error, no MG302); MG342
// gives the API conventions' advice once per member.
package k8szero

// Union is options/unions' Union: a gated discriminator and gated string members.
type Union struct {
	// +k8s:ifEnabled(FeatureX)=+k8s:unionDiscriminator
	Discriminator string `json:"discriminator"`

	// +k8s:ifEnabled(FeatureX)=+k8s:unionMember
	XEnabledField string `json:"xEnabledField"` // want "MG342" "zero value is always written"

	// +k8s:ifEnabled(FeatureX)=+k8s:unionMember
	XDisabledField string `json:"xDisabledField"` // want "MG342" "zero value is always written"
}

// ZeroOrOneOf is options/unions' ZeroOrOneOf, ungated.
type ZeroOrOneOf struct {
	// +k8s:zeroOrOneOfMember
	XEnabledField string `json:"xEnabledField"` // want "MG342"

	// +k8s:zeroOrOneOfMember
	Count int32 `json:"count"` // want "MG342"
}

// Simple is union/undiscriminated/simple's Struct: one member a `string` with
// `+k8s:optional` but no omitempty.
type Simple struct {
	NonUnionField string `json:"nonUnionField"`

	// +k8s:unionMember
	// +k8s:optional
	M1 *M1 `json:"m1"`

	// +k8s:unionMember
	// +k8s:optional
	M3 string `json:"m3"` // want "MG342" "zero value is always written"

	// +k8s:unionMember
	// +k8s:optional
	M4 *string `json:"m4"`
}

// M1 is an empty struct.
type M1 struct{}

// Tidy follows the conventions: no finding.
type Tidy struct {
	// +k8s:unionMember
	// +k8s:optional
	A string `json:"a,omitempty"`

	// +k8s:unionMember
	// +k8s:optional
	B *string `json:"b,omitempty"`
}

// Required marks a member required: it is always set, which no union allows.
type Required struct {
	// +k8s:unionMember
	// +k8s:required
	A string `json:"a"` // want "MG301"

	// +k8s:unionMember
	// +k8s:optional
	B *string `json:"b,omitempty"`
}

// Alpha wraps the member tags in a stability level.
type Alpha struct {
	// +k8s:alpha=+k8s:unionMember
	A string `json:"a"` // want "MG342"

	// +k8s:alpha=+k8s:unionMember
	// +k8s:optional
	B *string `json:"b,omitempty"`
}
