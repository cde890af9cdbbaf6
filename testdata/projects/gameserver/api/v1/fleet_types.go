/*
Copyright 2026 The Gameserver Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
*/

package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// FleetSpec defines the desired state of Fleet.
type FleetSpec struct {
	// replicas is the number of game servers to keep running.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// paused stops the fleet from starting new game servers.
	// +optional
	Paused *bool `json:"paused,omitempty"`

	// ports is the range of host ports a game server may open.
	// +optional
	Ports *PortRange `json:"ports,omitempty"`

	// allocation picks the node a new game server runs on.
	Allocation Allocation `json:"allocation"`

	// strategy says how game servers are replaced after a change.
	// +optional
	Strategy *UpdateStrategy `json:"strategy,omitempty"`

	// healthCheck says how a game server is found healthy.
	// +optional
	HealthCheck *HealthCheck `json:"healthCheck,omitempty"`

	// resources is what every game server is given.
	// +optional
	Resources *GameResources `json:"resources,omitempty"`
}

// GameResources is what a game server may use.
type GameResources struct {
	// cpu is the CPU a game server is given.
	// +optional
	CPU *resource.Quantity `json:"cpu,omitempty"`

	// memory is the memory a game server is given.
	Memory resource.Quantity `json:"memory"`

	// scratch is the size of the scratch volume.
	// +optional
	Scratch *resource.Quantity `json:"scratch,omitempty"`
}

// AllocationPolicy says where new game servers go.
// +enum
// +kubebuilder:validation:Enum=Packed;Distributed;Node
type AllocationPolicy string

const (
	// AllocationPacked fills one node before the next.
	AllocationPacked AllocationPolicy = "Packed"
	// AllocationDistributed spreads game servers over all nodes.
	AllocationDistributed AllocationPolicy = "Distributed"
	// AllocationNode puts every game server on the nodes that match a selector.
	AllocationNode AllocationPolicy = "Node"
)

// Allocation is a union: node is set exactly when policy is Node.
type Allocation struct {
	// policy says where new game servers go.
	// +unionDiscriminator
	// +required
	Policy AllocationPolicy `json:"policy"`

	// node selects the nodes for policy Node.
	// +unionMember
	// +optional
	Node *NodeAllocation `json:"node,omitempty"`
}

// NodeAllocation selects nodes by label.
type NodeAllocation struct {
	// selector is the label selector of the nodes.
	Selector map[string]string `json:"selector"`
}

// UpdateStrategyType is how game servers are replaced.
// +kubebuilder:validation:Enum=RollingUpdate;Replace
type UpdateStrategyType string

const (
	// RollingUpdateStrategy replaces game servers a few at a time.
	RollingUpdateStrategy UpdateStrategyType = "RollingUpdate"
	// ReplaceStrategy replaces every game server at once.
	ReplaceStrategy UpdateStrategyType = "Replace"
)

// UpdateStrategy says how game servers are replaced after a change.
// The fields other than type are settings of every strategy.
// +union
type UpdateStrategy struct {
	// type is the replacement strategy.
	// +unionDiscriminator
	// +kubebuilder:default=RollingUpdate
	// +optional
	Type UpdateStrategyType `json:"type,omitempty"`

	// maxSurge is how many extra game servers may start during a rollout.
	// +optional
	MaxSurge *intstr.IntOrString `json:"maxSurge,omitempty"`

	// maxUnavailable is how many game servers may be down during a rollout.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`

	// drainTimeout is how long a replaced game server keeps its players.
	// +optional
	DrainTimeout *metav1.Duration `json:"drainTimeout,omitempty"`
}

// FleetStatus defines the observed state of Fleet.
type FleetStatus struct {
	// readyReplicas is the number of game servers that passed their health check.
	// +optional
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`

	// lastScaleTime is when the fleet last changed size.
	// +optional
	LastScaleTime *metav1.Time `json:"lastScaleTime,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Fleet is the Schema for the fleets API.
type Fleet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   FleetSpec   `json:"spec,omitempty"`
	Status FleetStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// FleetList contains a list of Fleet.
type FleetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Fleet `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Fleet{}, &FleetList{})
}
