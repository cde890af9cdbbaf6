package v1

type CashPayment struct {
	Currency string `json:"currency"`
}

// PaymentMethod is a discriminated union (kep/004); it was called Payment.
type PaymentMethod struct {
	// +unionMember=Cash,optional
	// +optional
	Cash *CashPayment `json:"cash,omitempty"`
	// +unionMember
	// +optional
	Card *CardPayment `json:"card,omitempty"`
	// +unionDiscriminator
	// +required
	Type PaymentType `json:"type"`
}

// PaymentType selects how an order is paid.
// +enum
type PaymentType string

const (
	// PaymentTypeNone means nothing is paid yet.
	PaymentTypeNone PaymentType = "None"
	// PaymentTypeCash pays in cash.
	PaymentTypeCash PaymentType = "Cash"
	// PaymentTypeCard pays by card.
	PaymentTypeCard PaymentType = "Card"
)

type CardPayment struct {
	Number string `json:"number"`
}
