package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ProviderType names the cloud an uplink runs in.
// +enum
// +kubebuilder:validation:Enum=AWS;GCP;Azure
type ProviderType string

const (
	// ProviderAWS is Amazon Web Services.
	ProviderAWS ProviderType = "AWS"
	// ProviderGCP is Google Cloud.
	ProviderGCP ProviderType = "GCP"
	// ProviderAzure is Microsoft Azure.
	ProviderAzure ProviderType = "Azure"
)

// Provider holds the settings of the uplink's cloud. controller-gen's ExactlyOneOf
// rule requires one member, but not the one the discriminator names: it accepts
// `type: AWS` with `gcp` set, which the union forbids.
// +kubebuilder:validation:ExactlyOneOf=aws;gcp;azure
type Provider struct {
	// type selects the cloud.
	// +unionDiscriminator
	// +required
	Type ProviderType `json:"type"`
	// aws holds the settings for AWS.
	// +unionMember
	// +optional
	AWS *CloudSettings `json:"aws,omitempty"`
	// gcp holds the settings for GCP.
	// +unionMember
	// +optional
	GCP *CloudSettings `json:"gcp,omitempty"`
	// azure holds the settings for Azure.
	// +unionMember
	// +optional
	Azure *CloudSettings `json:"azure,omitempty"`
}

// CloudSettings are a cloud's settings.
type CloudSettings struct {
	// region is where the uplink runs.
	// +optional
	Region string `json:"region,omitempty"`
}

// CollectionPolicy says whether metrics are collected.
// +enum
// +kubebuilder:validation:Enum=Collect;DoNotCollect
type CollectionPolicy string

const (
	// CollectionPolicyCollect collects metrics.
	CollectionPolicyCollect CollectionPolicy = "Collect"
	// CollectionPolicyDoNotCollect collects nothing.
	CollectionPolicyDoNotCollect CollectionPolicy = "DoNotCollect"
)

// Collector configures metrics collection. Its hand-written rule allows `collect` to be
// left out under `Collect` on purpose, while the member marker (no `,optional`)
// makes it required there: the two disagree.
// +kubebuilder:validation:XValidation:rule="has(self.policy) && self.policy == 'Collect' ? true : !has(self.collect)",message="collect may be set when policy is Collect, and forbidden otherwise"
type Collector struct {
	// policy says whether metrics are collected.
	// +unionDiscriminator
	// +required
	Policy CollectionPolicy `json:"policy"`
	// collect holds the collection settings.
	// +unionMember=Collect
	// +optional
	Collect *CollectSettings `json:"collect,omitempty"`
}

// CollectSettings are the collection settings.
type CollectSettings struct {
	// interval between two collections, in seconds.
	// +optional
	Interval int32 `json:"interval,omitempty"`
}

// EndpointMode selects how the uplink is reached.
// +enum
// +kubebuilder:validation:Enum=TLS;Plain
type EndpointMode string

const (
	// EndpointModeTLS is reached over TLS.
	EndpointModeTLS EndpointMode = "TLS"
	// EndpointModePlain is reached in the clear.
	EndpointModePlain EndpointMode = "Plain"
)

// Endpoint is how the uplink is reached. The API-server test suite beside the CRD
// accepts `mode: TLS` without `tls`: the member is optional in fact.
type Endpoint struct {
	// mode selects how the uplink is reached.
	// +unionDiscriminator
	// +required
	Mode EndpointMode `json:"mode"`
	// tls holds the TLS settings.
	// +unionMember=TLS
	// +optional
	TLS *TLSSettings `json:"tls,omitempty"`
}

// TLSSettings are TLS settings.
type TLSSettings struct {
	// secretName names the certificate's secret.
	// +optional
	SecretName string `json:"secretName,omitempty"`
}

// Storage is where the uplink keeps its traces, a 2019 `+union`. Its discriminator is
// a plain string whose values a rule on the field lists; it is required and "" is no
// value, so the schema alone already rejects an empty or missing type.
// +union
type Storage struct {
	// type selects the store.
	// +unionDiscriminator
	// +required
	// +kubebuilder:validation:XValidation:rule="self in ['S3', 'GCS']",message="type must be S3 or GCS"
	Type string `json:"type"`
	// s3 holds the S3 settings.
	// +optional
	S3 *BucketSettings `json:"s3,omitempty"`
	// gcs holds the GCS settings.
	// +optional
	GCS *BucketSettings `json:"gcs,omitempty"`
}

// BucketSettings name a bucket.
type BucketSettings struct {
	// bucket is the bucket's name.
	// +optional
	Bucket string `json:"bucket,omitempty"`
}

// UplinkSpec defines the desired state of Uplink.
type UplinkSpec struct {
	// provider is the uplink's cloud.
	// +optional
	Provider *Provider `json:"provider,omitempty"`
	// collector configures metrics collection.
	// +optional
	Collector *Collector `json:"collector,omitempty"`
	// endpoint is how the uplink is reached.
	// +optional
	Endpoint *Endpoint `json:"endpoint,omitempty"`
	// storage is where traces are kept.
	// +optional
	Storage *Storage `json:"storage,omitempty"`
}

// +kubebuilder:object:root=true

// Uplink is the Schema for the uplinks API.
type Uplink struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec defines the desired state of Uplink.
	// +optional
	Spec UplinkSpec `json:"spec,omitempty"`
}
