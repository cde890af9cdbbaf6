// Package controller is the operator's own code: no API type.
package controller

import "example.com/sharedapi/operator/api/v1"

// Phase is where a reconcile is.
// +enum
type Phase string

const (
	PhaseStart Phase = "Start"
	PhaseDone  Phase = "Done"
)

// Reconciler reconciles widgets.
type Reconciler struct {
	Last *v1.Widget `json:"last,omitempty"`
	Now  Phase      `json:"now"`
}
