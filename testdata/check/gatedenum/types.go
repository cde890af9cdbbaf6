// Package gatedenum: openshift's field-level feature-gated enum on a discriminator. The
// values come from the field's `+openshift:validation:FeatureGateAwareEnum` lines (the
// union of every gate's values, each gate recorded), so the union is a kep1027 union
// with values, not a kep2022 one.
package gatedenum

// PlatformType names a platform; its values are given where it is used.
type PlatformType string

// PlatformSpec selects a platform's settings.
type PlatformSpec struct {
	// +openshift:validation:FeatureGateAwareEnum:featureGate="",enum=AWS;Azure
	// +openshift:validation:FeatureGateAwareEnum:featureGate=GCPPlatform,enum=AWS;Azure;GCP
	// +unionDiscriminator
	// +required
	Type PlatformType `json:"type"`

	// +unionMember
	// +optional
	AWS *AWSPlatform `json:"aws,omitempty"`

	// +unionMember
	// +optional
	Azure *AzurePlatform `json:"azure,omitempty"`

	// +unionMember
	// +optional
	GCP *GCPPlatform `json:"gcp,omitempty"`
}

// AWSPlatform holds the AWS settings.
type AWSPlatform struct {
	// +optional
	Region string `json:"region,omitempty"`
}

// AzurePlatform holds the Azure settings.
type AzurePlatform struct {
	// +optional
	Location string `json:"location,omitempty"`
}

// GCPPlatform holds the GCP settings.
type GCPPlatform struct {
	// +optional
	Project string `json:"project,omitempty"`
}
