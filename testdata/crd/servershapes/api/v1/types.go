// +groupName=shapes.example.com
package v1

// RotationType says how secrets are rotated.
// +kubebuilder:validation:Enum=Custom;None
type RotationType string

const (
	CustomRotation RotationType = "Custom"
	NoRotation     RotationType = "None"
)

// Rotation is a 2019-form union: at most one member, and a discriminator that names
// the member that is set. Its hand-written rule also requires `custom` under Custom.
// +kubebuilder:validation:XValidation:rule="has(self.type) && self.type == 'Custom' ? has(self.custom) : !has(self.custom)",message="custom must be set when type is 'Custom', and must not be set otherwise"
// +union
type Rotation struct {
	// +required
	// +unionDiscriminator
	Type RotationType `json:"type"`

	// +optional
	Custom *CustomRotationConfig `json:"custom,omitempty"`
}

type CustomRotationConfig struct {
	// +optional
	Interval string `json:"interval,omitempty"`
}

type RotatorSpec struct {
	// +optional
	Rotation *Rotation `json:"rotation,omitempty"`
}

// +kubebuilder:object:root=true
type Rotator struct {
	Spec RotatorSpec `json:"spec,omitempty"`
}
