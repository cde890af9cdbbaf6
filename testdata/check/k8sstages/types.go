package k8sstages

// A stage prefix inside another, as validation-gen's own test packages write it
// (cmd/validation-gen/output_tests/tags/levels): validation-gen accepts it and the
// outermost stage wins, so markergen reports nothing here.

type MapItem struct {
	Key   string `json:"key"`
	Value int    `json:"value"`
}

type Levels struct {
	// +k8s:alpha=+k8s:alpha=+k8s:minimum=20
	RecursiveAlpha int `json:"recursiveAlpha"`

	// +k8s:beta=+k8s:alpha=+k8s:minimum=20
	BetaAroundAlpha int `json:"betaAroundAlpha"`

	// +k8s:listType=map
	// +k8s:listMapKey=key
	// +k8s:beta=+k8s:item(key: "foo")=+k8s:subfield(value)=+k8s:beta=+k8s:minimum=10
	DoubleBeta []MapItem `json:"doubleBeta"`
}
