package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CollectorSpec defines the desired state of Collector.
type CollectorSpec struct {
	// scan says whether and how the collector scans its volumes.
	// +optional
	Scan *ScanSettings `json:"scan,omitempty"`

	// tokens says how the collector authenticates to the sink.
	// +optional
	Tokens *TokenSettings `json:"tokens,omitempty"`
}

// ScanMode is how the collector scans its volumes.
// +kubebuilder:validation:Enum=Walk;Off
type ScanMode string

const (
	// ScanWalk walks every file of a volume.
	ScanWalk ScanMode = "Walk"
	// ScanOff scans nothing.
	ScanOff ScanMode = "Off"
)

// ScanSettings is a union in the openshift style: `+union` on the struct, the member
// marked `+unionMember` with its own `+optional` line, and no rule on the struct that
// asks for the member. Its walk settings may be left out when mode is Walk: the
// collector's defaults apply.
// +union
type ScanSettings struct {
	// mode selects how volumes are scanned.
	// +unionDiscriminator
	// +required
	Mode ScanMode `json:"mode"`

	// walk tunes the walk when mode is Walk; left out, the defaults apply.
	// +unionMember
	// +optional
	Walk *WalkSettings `json:"walk,omitempty"`
}

// WalkSettings tunes a walk.
type WalkSettings struct {
	// intervalMinutes is how often a volume is walked.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1440
	// +optional
	IntervalMinutes int32 `json:"intervalMinutes,omitempty"`
}

// TokenMode is where the collector's tokens come from.
// +kubebuilder:validation:Enum=Issued;None
type TokenMode string

const (
	// TokenIssued asks the collector to request tokens for an audience.
	TokenIssued TokenMode = "Issued"
	// TokenNone sends no token.
	TokenNone TokenMode = "None"
)

// TokenSettings is the same style, with a rule on the struct that states what the member
// needs: issued must be set when mode is Issued, and left out otherwise.
// +kubebuilder:validation:XValidation:rule="has(self.mode) && self.mode == 'Issued' ? has(self.issued) : !has(self.issued)",message="issued must be set when mode is Issued, and must not be set otherwise"
// +union
type TokenSettings struct {
	// mode selects where tokens come from.
	// +unionDiscriminator
	// +required
	Mode TokenMode `json:"mode"`

	// issued names the audience of the tokens.
	// +unionMember
	// +optional
	Issued *IssuedTokens `json:"issued,omitempty"`
}

// IssuedTokens names the audience of issued tokens.
type IssuedTokens struct {
	// audience is the token's audience.
	// +kubebuilder:validation:MinLength=1
	// +required
	Audience string `json:"audience"`
}

// +kubebuilder:object:root=true

// Collector is the Schema for the collectors API.
type Collector struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec CollectorSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// CollectorList contains a list of Collector.
type CollectorList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Collector `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Collector{}, &CollectorList{})
}
