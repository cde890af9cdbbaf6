/*
Copyright The Example Authors.
*/

// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true

// +groupName=

// Package v1 is the core group's API, as kubernetes/api's core/v1 writes it: the tag
// stands in a block of its own, and its empty value names the core group.
package v1
