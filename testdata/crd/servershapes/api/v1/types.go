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

// DriverType names the driver a Driver configures; "" is a value of its own.
// +kubebuilder:validation:Enum="";AWS;Azure;vSphere
type DriverType string

// Driver is openshift/api's CSIDriverConfigSpec reduced: a 2019-form union whose member
// VSphere selects "VSphere" (its Go name), a value the enum spells "vSphere". markergen
// writes no rule for the union (MG506), so the API server lets `driverType: AWS` stand
// beside `azure`, which the markers, and `markergen validate`, reject.
// +union
type Driver struct {
	// +required
	// +unionDiscriminator
	DriverType DriverType `json:"driverType"`

	// +optional
	AWS *DriverConfig `json:"aws,omitempty"`

	// +optional
	Azure *DriverConfig `json:"azure,omitempty"`

	// +optional
	VSphere *DriverConfig `json:"vSphere,omitempty"`
}

type DriverConfig struct {
	// +optional
	Key string `json:"key,omitempty"`
}

// Abort is Envoy Gateway's FaultInjectionAbort reduced: a 2019-form union (every optional
// field a member) whose member percentage has a default. The API server sets it on
// every object, so an "at most one member" rule would reject each abort with a status.
// +union
type Abort struct {
	// +optional
	HTTPStatus *int32 `json:"httpStatus,omitempty"`

	// +optional
	GrpcStatus *int32 `json:"grpcStatus,omitempty"`

	// +optional
	// +kubebuilder:default=100
	Percentage *int32 `json:"percentage,omitempty"`
}

type RotatorSpec struct {
	// +optional
	Abort *Abort `json:"abort,omitempty"`

	// +optional
	Rotation *Rotation `json:"rotation,omitempty"`

	// +optional
	Driver *Driver `json:"driver,omitempty"`
}

// +kubebuilder:object:root=true
type Rotator struct {
	Spec RotatorSpec `json:"spec,omitempty"`
}
