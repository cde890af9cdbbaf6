package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Ref names an object in the widget's namespace.
type Ref struct {
	// name of the object.
	Name string `json:"name"`
}

// Source is where the widget comes from: exactly one of its fields.
// +kubebuilder:validation:ExactlyOneOf=configMap;secret;url
type Source struct {
	// +optional
	ConfigMap *Ref `json:"configMap,omitempty"`
	// +optional
	Secret *Ref `json:"secret,omitempty"`
	// +optional
	URL *string `json:"url,omitempty"`
}

// AWS configures the AWS provider.
type AWS struct {
	// +optional
	Region string `json:"region,omitempty"`
}

// GCP configures the GCP provider.
type GCP struct {
	// +optional
	Project string `json:"project,omitempty"`
}

// Provider is a union written by hand in CEL.
// +kubebuilder:validation:XValidation:rule="self.type == 'AWS' ? has(self.aws) : !has(self.aws)",message="aws is required when type is AWS, and only then"
// +kubebuilder:validation:XValidation:rule="has(self.gcp) ? self.type == 'GCP' : true",message="gcp is allowed only when type is GCP"
type Provider struct {
	// +kubebuilder:default=AWS
	// +kubebuilder:validation:Enum=AWS;GCP
	Type string `json:"type"`
	// +optional
	AWS *AWS `json:"aws,omitempty"`
	// +optional
	GCP *GCP `json:"gcp,omitempty"`
}

// Size is the widget's size.
// +kubebuilder:validation:Enum=Small;Medium;Large
type Size string

// WidgetSpec defines the desired state of Widget.
type WidgetSpec struct {
	// Source is where the widget comes from.
	// +optional
	Source *Source `json:"source,omitempty"`
	// +optional
	Provider *Provider `json:"provider,omitempty"`
	// +optional
	Size Size `json:"size,omitempty"`
	// +kubebuilder:validation:XValidation:rule="self >= 0",message="must be positive"
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:subresource:status

// Widget is the Schema for the widgets API.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec,omitempty"`
}
