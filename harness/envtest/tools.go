//go:build tools

// The real kube-apiserver of Kubernetes v1.37.2, built for the tests of `markergen crd
// --server` as setup-envtest would lay it out (with etcd, from ./etcd).
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
