// Package imported has an enum whose values are constants of another package
// (example.com/parity/consts), which is not among markergen's inputs.
package imported

import "example.com/parity/consts"

// Transport is how a connection is carried.
// +enum
type Transport string

const (
	// TransportTCP is a conversion of another package's typed constant.
	TransportTCP Transport = Transport(consts.TCP)
	// TransportUDP is another package's untyped constant.
	TransportUDP Transport = consts.UDPName
	// TransportSCTP goes through a reference inside the other package.
	TransportSCTP Transport = Transport(consts.SCTPAlias)
	// TransportQUIC is a constant expression over another package's constant.
	TransportQUIC Transport = consts.Prefix + "UIC"
)

// Connection uses Transport.
type Connection struct {
	// Transport of the connection.
	Transport Transport `json:"transport"`
	// Mode is an enum type of another package.
	Mode consts.Mode `json:"mode"`
}
