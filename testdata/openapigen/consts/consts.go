// Package consts declares constants only: markergen is never run on it, it reads the
// constants the imported package uses when it follows the import.
package consts

// Protocol is a network protocol.
type Protocol string

const (
	TCP  Protocol = "TCP"
	SCTP Protocol = "SCTP"
	// SCTPAlias refers to another constant of this package.
	SCTPAlias = SCTP
	// UDPName is untyped: the declaration that uses it gives it a type.
	UDPName = "UDP"
)

// Prefix is joined to other strings by constant expressions of the importing package.
const Prefix = "Q"

// Mode is an enum of this package that a field of another package uses: markergen
// reads its values through the import, as openapi-gen reads them from its universe.
// +enum
type Mode string

const (
	// ModeActive is computed by a constant expression.
	ModeActive Mode = "Act" + "ive"
	// ModePassive is a plain literal.
	ModePassive Mode = "Passive"
)
