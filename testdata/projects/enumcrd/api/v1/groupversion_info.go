// Package v1 holds the Proxy kind.
// +kubebuilder:object:generate=true
// +groupName=enums.example.com
package v1
