// Package v1beta1 contains the earlier, still served version of the widgets API.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v1beta1
