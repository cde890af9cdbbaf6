package v1

// PaymentType selects how an order is paid.
// +enum
type PaymentType string

const (
	// PaymentTypeCard pays by card.
	PaymentTypeCard PaymentType = "Card"
	// PaymentTypeCash pays in cash.
	PaymentTypeCash PaymentType = "Cash"
	// PaymentTypeNone means nothing is paid yet.
	PaymentTypeNone PaymentType = "None"
)

// Priority of an order.
// +enum
type Priority string

const (
	PriorityLow  Priority = "Low"
	PriorityHigh Priority = "High"
)

// Payment is a discriminated union (kep/004).
type Payment struct {
	// +unionDiscriminator
	// +required
	Type PaymentType `json:"type"`
	// +unionMember
	// +optional
	Card *CardPayment `json:"card,omitempty"`
	// +unionMember=Cash,optional
	// +optional
	Cash *CashPayment `json:"cash,omitempty"`
}

type CardPayment struct {
	Number string `json:"number"`
}

type CashPayment struct {
	Currency string `json:"currency"`
}

// Order is what a customer buys.
type Order struct {
	Priority Priority `json:"priority"`
	Payment  Payment  `json:"payment"`
	// +optional
	Note *string `json:"note,omitempty"`
	// +optional
	Gift *string `json:"gift,omitempty"`
}
