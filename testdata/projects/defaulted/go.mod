module example.com/faults

go 1.26.0

require (
	k8s.io/apimachinery v0.35.0
	sigs.k8s.io/controller-runtime v0.22.4
)
