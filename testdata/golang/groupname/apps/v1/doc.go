// +k8s:deepcopy-gen=package,register
// +openshift:featuregated-schema-gen=true

// +kubebuilder:validation:Optional
// +groupName=apps.example.com

// Package v1: openshift/api's layout, the tags one blank line above the doc comment.
package v1
