package openshift

// Near miss for MG401, as in bpfman-operator's BpfApplicationProgramState: in the
// openshift style the members are the fields marked +unionMember, so a struct embedded
// beside them (shared state) is no member and may be inlined.

// +kubebuilder:validation:Enum:="XDP";"TC"
type ProgramType string

// ProgramStateCommon is state every program has.
type ProgramStateCommon struct {
	// +optional
	Name string `json:"name,omitempty"`
}

// +union
type ProgramState struct {
	ProgramStateCommon `json:",inline"`

	// +unionDiscriminator
	// +required
	Type ProgramType `json:"type"`

	// +unionMember
	// +optional
	XDP *string `json:"xdp,omitempty"`

	// +unionMember
	// +optional
	TC *string `json:"tc,omitempty"`
}
