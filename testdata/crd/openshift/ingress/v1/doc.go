// +k8s:deepcopy-gen=package,register
// +groupName=ingress.example.openshift.io
// +k8s:openapi-model-package=com.example.osapi.ingress.v1

// +kubebuilder:validation:Optional
// Package v1 is the v1 version of the API (openshift/api's doc.go: the package markers
// sit in a comment block of their own, apart from the package comment).
package v1
