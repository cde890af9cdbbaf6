// Package controller reconciles Guestbooks; it declares no API type.
package controller

// Reconciler is the controller's state.
type Reconciler struct {
	Name string `json:"name"`
}
