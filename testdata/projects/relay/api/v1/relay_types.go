package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/relay/api/shared"
)

// RelaySpec defines the desired state of Relay.
type RelaySpec struct {
	// payload is what the relay sends.
	Payload Payload `json:"payload"`

	// template renders the payload before it is sent.
	// +optional
	Template *Template `json:"template,omitempty"`

	// routes select which requests the relay answers.
	// +listType=atomic
	// +optional
	Routes []Route `json:"routes,omitempty"`

	// delivery says where the payload goes.
	Delivery Delivery `json:"delivery"`
}

// Payload holds nothing but the shared source fields: exactly one of them is set.
// +kubebuilder:validation:ExactlyOneOf=configMap;secret
type Payload struct {
	shared.SourceFields `json:",inline"`
}

// Template inlines the shared source fields, adds an inline text, and declares its own
// secret, which hides the shared one (encoding/json: the shallowest field wins).
// +kubebuilder:validation:ExactlyOneOf=configMap;secret;text
type Template struct {
	shared.SourceFields `json:",inline"`

	// secret reads the template from a whole Secret.
	// +optional
	Secret *SecretRef `json:"secret,omitempty"`

	// text is the template itself.
	// +optional
	Text *string `json:"text,omitempty"`
}

// SecretRef names a Secret in the relay's namespace.
type SecretRef struct {
	// name of the Secret.
	Name string `json:"name"`
}

// Route matches requests by at most one of header or query, through a pointer embed.
// +kubebuilder:validation:AtMostOneOf=header;query
type Route struct {
	// name of the route.
	Name string `json:"name"`

	*MatchFields `json:",inline"`
}

// MatchFields are the ways a route matches a request.
type MatchFields struct {
	// header matches a request header.
	// +optional
	Header *string `json:"header,omitempty"`

	// query matches a query parameter.
	// +optional
	Query *string `json:"query,omitempty"`
}

// DeliveryMode selects a delivery target.
// +enum
// +kubebuilder:validation:Enum=Webhook;Queue
type DeliveryMode string

const (
	// DeliveryModeWebhook posts the payload to a URL.
	DeliveryModeWebhook DeliveryMode = "Webhook"
	// DeliveryModeQueue puts the payload on a queue.
	DeliveryModeQueue DeliveryMode = "Queue"
)

// Delivery inlines DeliveryFields, whose union is enforced at delivery's schema node.
type Delivery struct {
	DeliveryFields `json:",inline"`

	// retries is how often a failed delivery is tried again.
	// +optional
	Retries *int32 `json:"retries,omitempty"`
}

// DeliveryFields is a discriminated union: mode selects the target.
type DeliveryFields struct {
	// mode selects the target.
	// +unionDiscriminator
	// +required
	Mode DeliveryMode `json:"mode"`

	// webhook posts the payload to a URL.
	// +unionMember
	// +optional
	Webhook *WebhookTarget `json:"webhook,omitempty"`

	// queue puts the payload on a queue.
	// +unionMember
	// +optional
	Queue *QueueTarget `json:"queue,omitempty"`
}

// WebhookTarget is a URL.
type WebhookTarget struct {
	// url to post to.
	URL string `json:"url"`
}

// QueueTarget is a queue name.
type QueueTarget struct {
	// name of the queue.
	Name string `json:"name"`
}

// RelayStatus defines the observed state of Relay.
type RelayStatus struct {
	// sent counts the payloads sent.
	// +optional
	Sent int64 `json:"sent,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Relay is the Schema for the relays API.
type Relay struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RelaySpec   `json:"spec,omitempty"`
	Status RelayStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// RelayList contains a list of Relay.
type RelayList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Relay `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Relay{}, &RelayList{})
}
