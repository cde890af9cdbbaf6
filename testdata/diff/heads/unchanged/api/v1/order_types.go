package v1

// Priority of an order.
// +enum
type Priority string

const (
	PriorityHigh Priority = "High"
	PriorityLow  Priority = "Low"
)

// Order is what a customer buys.
type Order struct {
	// +optional
	Gift *string `json:"gift,omitempty"`
	// +optional
	Note     *string       `json:"note,omitempty"`
	Payment  PaymentMethod `json:"payment"`
	Priority Priority      `json:"priority"`
}
