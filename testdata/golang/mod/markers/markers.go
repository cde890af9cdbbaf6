// Package markers has every marker form of DESIGN section 3 ("Markers") in comments.
// The Go front end does not read markers; these files only check that each comment
// line arrives with its text and position, for the marker grammar to parse.
//
// +groupName=markers.example.com
// +k8s:deepcopy-gen=package
package markers

// Doc-extra comment: gengo and controller-gen also read the group one blank line
// above the doc comment.
// +kubebuilder:object:root=true

// StrategyType is the discriminator's enum.
// +enum
// +k8s:enum
// +kubebuilder:validation:Enum=RollingUpdate;Recreate;""
type StrategyType string

const (
	// RollingUpdate replaces pods gradually.
	RollingUpdate StrategyType = "RollingUpdate"
	// Recreate kills all pods first.
	Recreate StrategyType = "Recreate"
)

// Strategy shows every marker form. A + in the middle of a line (like this +notAMarker)
// is not a marker.
// +union
// +unionFormat=value,flag
type Strategy struct {
	// Type selects the member.
	// +unionDiscriminator
	// +required
	// +default="RollingUpdate"
	// +kubebuilder:default=RollingUpdate
	// +k8s:unionDiscriminator(union: "u")
	Type StrategyType `json:"type"`

	// +unionMember
	// +unionMember=RollingUpdate
	// +unionMember=RollingUpdate,optional
	// +unionMember,optional
	// +unionDiscriminatedBy=Type
	// +optional
	// +k8s:optional
	// +k8s:unionMember(union: "u", memberName: "RollingUpdate")
	// +k8s:alpha(since: "1.37")=+k8s:unionMember
	// +k8s:beta=+k8s:required
	// +k8s:ifEnabled(FeatureX)=+k8s:unionMember
	// +k8s:item(positional)=payload
	// +a:b:c=value
	// +kubebuilder:validation:Optional
	RollingUpdate *RollingUpdateSpec `json:"rollingUpdate,omitempty"`

	// +unionDeprecated
	// +k8s:zeroOrOneOfMember
	// +listType=map
	// +listMapKey=name
	// +patchStrategy=merge
	// +patchMergeKey=name
	Items []Item `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`

	// Misspelled markers the checker reports with "did you mean":
	// +unionDescriminator
	// +unionmember
	// +Enum
	Legacy *string `json:"legacy,omitempty"` // +optional
}

// RollingUpdateSpec is a member type.
type RollingUpdateSpec struct {
	// +kubebuilder:validation:Required
	MaxSurge int32 `json:"maxSurge"`
}

// Item is a list element.
type Item struct {
	Name string `json:"name"`
}
