package api

// `+k8s:alpha=` / `+k8s:beta=` around union tags, in the shape of validation-gen's
// output_tests tags/levels/unions, written for tests/test_k8s_stages.py.

// +k8s:enum
type D string

const (
	DM1 D = "M1"
	DM2 D = "M2"
)

type Union struct {
	// +k8s:alpha=+k8s:unionDiscriminator
	D D `json:"d"`

	// +k8s:alpha=+k8s:unionMember
	// +k8s:optional
	M1 *string `json:"m1,omitempty"`

	// +k8s:alpha(since: "1.35")=+k8s:unionMember
	// +k8s:optional
	M2 *string `json:"m2,omitempty"`
}

type ZeroOrOne struct {
	// +k8s:beta=+k8s:zeroOrOneOfMember
	// +k8s:optional
	Z1 *string `json:"z1,omitempty"`

	// +k8s:beta=+k8s:zeroOrOneOfMember
	// +k8s:optional
	Z2 *string `json:"z2,omitempty"`
}

type Stable struct {
	// +k8s:unionMember
	// +k8s:optional
	A *string `json:"a,omitempty"`

	// +k8s:unionMember
	// +k8s:optional
	B *string `json:"b,omitempty"`
}
