// Package shared holds the enums every API group uses.
package shared

// Protocol is a network protocol.
// +enum
type Protocol string

const (
	// ProtocolTCP is TCP.
	ProtocolTCP Protocol = "TCP"
	// ProtocolUDP is UDP.
	ProtocolUDP Protocol = "UDP"
)

// Tier is a service tier.
// +enum
type Tier string

const (
	// TierGold is the first tier.
	TierGold Tier = "Gold"
	// TierSilver is the second tier.
	TierSilver Tier = "Silver"
	// TierBronze is the third tier.
	TierBronze Tier = "Bronze"
)

// Limits bounds what a tier may use.
type Limits struct {
	// cpu is the number of cores.
	// +optional
	CPU *int32 `json:"cpu,omitempty"`
	// memory is the memory in MiB.
	// +optional
	Memory *int64 `json:"memory,omitempty"`
}
