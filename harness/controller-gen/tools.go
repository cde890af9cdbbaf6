//go:build tools

// Package tools pins controller-gen for the tests: `go build` of
// sigs.k8s.io/controller-tools/cmd/controller-gen in this module (tests/kubeserver.py)
// builds the version go.mod requires, with controller-tools' own dependency versions
// (nothing else is required here, so minimal version selection picks exactly those).
package tools

import _ "sigs.k8s.io/controller-tools/cmd/controller-gen"
