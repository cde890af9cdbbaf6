// Package v1 is served by controller-gen's CRDs, not validation-gen (no
// `+k8s:validation-gen=` here): controller-gen writes a `+k8s:enum` type's constants into
// the schema as `enum`, which the API server checks only on a value present.
//
// +groupName=example.com
package v1

// +k8s:enum
type FailureMode string

const (
	FailClosed FailureMode = "FailClosed"
	FailOpen   FailureMode = "FailOpen"
)

type ExtAuth struct {
	// +optional
	FailureMode FailureMode `json:"failureMode,omitempty"`

	// validation-gen's requiredness tag: validation-gen's reading (an unset value is
	// not checked either way)
	// +k8s:optional
	Tagged FailureMode `json:"tagged,omitempty"`

	Modes []FailureMode `json:"modes,omitempty"`
}
