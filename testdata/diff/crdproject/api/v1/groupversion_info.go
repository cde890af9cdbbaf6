// Package v1 contains API Schema definitions for the v1 API group.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v1
