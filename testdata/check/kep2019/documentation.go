package kep2019

// MG360: `+union` on structs whose fields mostly match no discriminator value. Shapes
// seen in kubebuilder projects (settings shared by every variant) and in openshift/api
// (alternatives named unlike their values: classicLoadBalancer for Classic).

// +kubebuilder:validation:Enum=HTTP;TCP;Exec
type ProbeType string

// want "MG360" "3 of its 4 fields \\(timeout, interval, threshold\\) match no value of Type"
// +union
type Probe struct {
	// +unionDiscriminator
	Type ProbeType `json:"type"`
	// +optional
	Timeout *string `json:"timeout,omitempty"`
	// +optional
	Interval *string `json:"interval,omitempty"`
	// +optional
	Threshold *int32 `json:"threshold,omitempty"`
	// +optional
	HTTP *string `json:"http,omitempty"`
}

// +kubebuilder:validation:Enum=Classic;NLB
type BalancerType string

// want "MG360" "2 of its 2 fields \\(classicLoadBalancer, networkLoadBalancer\\)"
// +union
type Balancer struct {
	// +unionDiscriminator
	// +required
	Type BalancerType `json:"type"`
	// +optional
	ClassicLoadBalancerParameters *string `json:"classicLoadBalancer,omitempty"`
	// +optional
	NetworkLoadBalancerParameters *string `json:"networkLoadBalancer,omitempty"`
}

// Near miss: most fields are named after a value (the 2019 KEP's own shape).
// +union
type Switch struct {
	// +unionDiscriminator
	Type ProbeType `json:"type"`
	// +optional
	HTTP *string `json:"http,omitempty"`
	// +optional
	Exec *string `json:"exec,omitempty"`
	// +optional
	Timeout *string `json:"timeout,omitempty"`
}

// Near miss for MG301, as in envoyproxy/gateway's EnvoyPatchPolicySpec: a required field
// of a `+union` that only documents the struct is no member, so it may be required.
// want "MG360" "2 of its 2 fields \\(targetRef, priority\\)"
// +union
type PatchPolicy struct {
	// +unionDiscriminator
	// +required
	Type ProbeType `json:"type"`
	// +required
	TargetRef string `json:"targetRef"`
	// +optional
	Priority int32 `json:"priority,omitempty"`
}
