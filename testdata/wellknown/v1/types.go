// Package v1 has what differs between OpenAPI v2 and v3 in one place: well-known
// external types (v2 and v3 schemas of their own), references with siblings (an
// `allOf` in v3), references without, and the same inside lists, maps and inlined
// structs; with an enum and a union, so that the fragments have something to hold.
// +groupName=wellknown.example.com
package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Size is a size class.
// +enum
type Size string

const (
	// SizeSmall is small.
	SizeSmall Size = "Small"
	// SizeLarge is large.
	SizeLarge Size = "Large"
)

// Machine is a resource.
type Machine struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is what is wanted.
	Spec MachineSpec `json:"spec"`

	// +optional
	Status *MachineStatus `json:"status,omitempty"`
}

// Common is inlined into MachineSpec.
type Common struct {
	// owner is another machine's status.
	// +optional
	Owner *MachineStatus `json:"owner,omitempty"`

	// memory is inlined from Common.
	// +optional
	Memory *resource.Quantity `json:"memory,omitempty"`
}

// Medium is the kind of a machine's disk.
// +enum
type Medium string

const (
	// MediumVirtual is a virtual disk.
	MediumVirtual Medium = "Virtual"
	// MediumPhysical is a physical disk.
	MediumPhysical Medium = "Physical"
)

// MachineSpec is what a machine should be.
type MachineSpec struct {
	Common `json:",inline"`

	// cpu is a quantity with an enum of its own: a string in v2 (which takes the
	// enum), oneOf in v3 (which does not).
	// +kubebuilder:validation:Enum="1";"2"
	// +optional
	CPU *resource.Quantity `json:"cpu,omitempty"`

	// port is a number or a name.
	// +optional
	Port *intstr.IntOrString `json:"port,omitempty"`

	// started is when the machine started.
	// +optional
	Started *metav1.Time `json:"started,omitempty"`

	// size is an enum.
	// +optional
	Size *Size `json:"size,omitempty"`

	// limits are quantities by name.
	// +optional
	Limits map[string]resource.Quantity `json:"limits,omitempty"`

	// disks are listed by name.
	// +listType=map
	// +listMapKey=name
	// +optional
	Disks []Disk `json:"disks,omitempty"`

	// medium selects the member.
	// +unionDiscriminator
	// +required
	Medium Medium `json:"medium"`

	// +unionMember
	// +optional
	Virtual *Disk `json:"virtual,omitempty"`

	// physical is the other member.
	// +unionMember
	// +optional
	Physical *Disk `json:"physical,omitempty"`
}

// Disk is a disk.
type Disk struct {
	Name string `json:"name"`

	// size is the disk's size class.
	Size Size `json:"size"`

	// capacity is the disk's capacity.
	Capacity resource.Quantity `json:"capacity"`
}

// MachineStatus is what a machine is.
type MachineStatus struct {
	// disks are the disks found, by size class.
	// +optional
	Disks map[string][]Disk `json:"disks,omitempty"`
}
