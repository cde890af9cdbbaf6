package imports

import (
	"example.com/check/enums"
	"example.com/missing/protocols"
)

// Near miss for MG020: the value comes from another package of this module.
// +enum
type Kind string

const (
	KindA Kind = Kind(enums.TextA)
)

// +enum
type Protocol string

const (
	ProtocolTCP Protocol = Protocol(protocols.TCP) // want "MG020" "example.com/missing/protocols.TCP, but package .* was not found .*no require or replace line"
)
