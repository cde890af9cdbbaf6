package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// RouteType selects what a route does.
// +enum
type RouteType string

const (
	RouteDirect   RouteType = "Direct"
	RouteMirror   RouteType = "Mirror"
	RouteSplit    RouteType = "Split"
	RouteRedirect RouteType = "Redirect"
	RouteFault    RouteType = "Fault"
)

// Route is a kep1027 union of five members; routers hold any number of them.
type Route struct {
	// type selects the member.
	// +unionDiscriminator
	// +optional
	Type RouteType `json:"type,omitempty"`

	// +unionMember
	// +optional
	Direct *Target `json:"direct,omitempty"`
	// +unionMember
	// +optional
	Mirror *Target `json:"mirror,omitempty"`
	// +unionMember
	// +optional
	Split *Target `json:"split,omitempty"`
	// +unionMember
	// +optional
	Redirect *Target `json:"redirect,omitempty"`
	// +unionMember
	// +optional
	Fault *Target `json:"fault,omitempty"`
}

// Target names a backend.
type Target struct {
	Name string `json:"name,omitempty"`
}

// RouterSpec holds the routes wanted.
type RouterSpec struct {
	// routes has no maxItems.
	// +optional
	Routes []Route `json:"routes,omitempty"`
}

// RouterStatus holds the routes served.
type RouterStatus struct {
	// +optional
	Routes []Route `json:"routes,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Router is the Schema for the routers API.
type Router struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RouterSpec   `json:"spec,omitempty"`
	Status RouterStatus `json:"status,omitempty"`
}
