// +k8s:deepcopy-gen=package,register
// +groupName=ingress.example.openshift.io
package v1
