module example.com/collector

go 1.22.0

require (
	k8s.io/apimachinery v0.31.0
	sigs.k8s.io/controller-runtime v0.19.0
)
