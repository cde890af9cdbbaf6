// Package v1 holds a union in the items of an unbounded list (docs/cel-cost.md).
// +kubebuilder:object:generate=true
// +groupName=routing.example.com
package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is group version used to register these objects.
var GroupVersion = schema.GroupVersion{Group: "routing.example.com", Version: "v1"}
