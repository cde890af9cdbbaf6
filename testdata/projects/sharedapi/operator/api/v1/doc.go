// Package v1 is the shop API.
// +kubebuilder:object:generate=true
// +groupName=shop.example.com
package v1
