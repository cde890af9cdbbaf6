// +groupName=app.example.com
package v1

import "example.com/dep/policy"

// ServiceSpec holds a field typed with the dependency's alias.
type ServiceSpec struct {
	// familyPolicy is the dual-stack-ness the service asks for.
	// +optional
	FamilyPolicy *policy.FamilyPolicyType `json:"familyPolicy,omitempty"`
}
