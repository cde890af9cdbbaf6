// Package v1alpha1 is the v1alpha1 version of the batch API.
// +groupName=batch.example.com
package v1alpha1
