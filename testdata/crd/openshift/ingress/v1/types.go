package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Widget is an openshift-style root type (no +kubebuilder:object:root marker).
// +genclient
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec holds the widget's settings.
	// +required
	Spec WidgetSpec `json:"spec"`
}

// WidgetSpec is the desired state.
type WidgetSpec struct {
	// balancer is a 2019-style union whose members are named after their Go fields.
	// +optional
	Balancer *BalancerParameters `json:"balancer,omitempty"`
	// publishing is a kep1027 union whose member values are spelled by +unionMember.
	// +optional
	Publishing *Publishing `json:"publishing,omitempty"`
	// policy is a union its hand-written rules already enforce.
	// +optional
	Policy *Policy `json:"policy,omitempty"`
	// endpoint is a 2019-style union as openshift's EndpointPublishingStrategy writes
	// it: half of its fields are named after their values, half are not.
	// +optional
	Endpoint *Endpoint `json:"endpoint,omitempty"`
}

// BalancerType is the type of load balancer.
// +enum
type BalancerType string

const (
	// BalancerClassic is a classic load balancer.
	BalancerClassic BalancerType = "Classic"
	// BalancerNLB is a network load balancer.
	BalancerNLB BalancerType = "NLB"
)

// BalancerParameters picks a load balancer; the members' values (their Go names) are not
// the enum's spelling, so no rule can be written.
// +union
type BalancerParameters struct {
	// type is the kind of load balancer.
	// +unionDiscriminator
	// +required
	Type BalancerType `json:"type"`
	// classicLoadBalancer configures a classic load balancer.
	// +optional
	ClassicLoadBalancerParameters *Settings `json:"classicLoadBalancer,omitempty"`
	// networkLoadBalancer configures a network load balancer.
	// +optional
	NetworkLoadBalancerParameters *Settings `json:"networkLoadBalancer,omitempty"`
}

// PublishingType says how a widget is published.
// +enum
type PublishingType string

const (
	// PublishingLoadBalancer publishes through a load balancer service.
	PublishingLoadBalancer PublishingType = "LoadBalancerService"
	// PublishingNodePort publishes through a node port service.
	PublishingNodePort PublishingType = "NodePortService"
	// PublishingPrivate does not publish.
	PublishingPrivate PublishingType = "Private"
)

// Publishing is a kep1027 union; nodePort exists only behind a feature gate.
type Publishing struct {
	// type selects the publishing strategy.
	// +unionDiscriminator
	// +required
	Type PublishingType `json:"type"`
	// loadBalancer holds the load balancer settings.
	// +unionMember=LoadBalancerService
	// +optional
	LoadBalancer *Settings `json:"loadBalancer,omitempty"`
	// nodePort holds the node port settings.
	// +unionMember=NodePortService
	// +openshift:enable:FeatureGate=NodePortPublishing
	// +optional
	NodePort *Settings `json:"nodePort,omitempty"`
}

// PolicyType selects a policy.
// +enum
type PolicyType string

const (
	// PolicyAllow allows.
	PolicyAllow PolicyType = "Allow"
	// PolicyDeny denies.
	PolicyDeny PolicyType = "Deny"
)

// Policy is enforced by its hand-written rule already.
// +kubebuilder:validation:XValidation:rule="has(self.type) && self.type == 'Deny' ? has(self.deny) : !has(self.deny)",message="deny is required when type is Deny, and forbidden otherwise"
type Policy struct {
	// type selects the policy.
	// +unionDiscriminator
	// +required
	Type PolicyType `json:"type"`
	// deny holds the deny settings.
	// +unionMember
	// +optional
	Deny *Settings `json:"deny,omitempty"`
}

// EndpointType is how an endpoint is published.
// +kubebuilder:validation:Enum=LoadBalancerService;HostNetwork;Private;NodePortService
type EndpointType string

// +union
type Endpoint struct {
	// type selects the strategy.
	// +unionDiscriminator
	// +required
	Type EndpointType `json:"type"`
	// loadBalancer is named unlike its value LoadBalancerService.
	// +optional
	LoadBalancer *Settings `json:"loadBalancer,omitempty"`
	// hostNetwork is named after its value.
	// +optional
	HostNetwork *Settings `json:"hostNetwork,omitempty"`
	// private is named after its value.
	// +optional
	Private *Settings `json:"private,omitempty"`
	// nodePort is named unlike its value NodePortService.
	// +optional
	NodePort *Settings `json:"nodePort,omitempty"`
}

// Settings are shared settings.
type Settings struct {
	// name is a name.
	// +optional
	Name string `json:"name,omitempty"`
}
