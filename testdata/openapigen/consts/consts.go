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
