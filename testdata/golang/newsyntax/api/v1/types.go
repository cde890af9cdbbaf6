// Package v1 uses Go 1.21-1.26 syntax outside the declarations markergen reads:
// tree-sitter-go 0.25 cannot parse `new(expr)` (Go 1.26), and the rest must read
// cleanly too. `markergen check` reports nothing here.
package v1

import "iter"

// +enum
type Protocol string

const (
	ProtocolTCP Protocol = "TCP"
	ProtocolUDP Protocol = "UDP"
)

// Endpoint is one endpoint.
type Endpoint struct {
	// +unionDiscriminator
	// +required
	Protocol Protocol `json:"protocol"`

	// +unionMember=TCP
	// +optional
	TCP *TCPSettings `json:"tcp,omitempty"`

	// +unionMember=UDP
	// +optional
	UDP *UDPSettings `json:"udp,omitempty"`
}

// TCPSettings are TCP settings.
type TCPSettings struct {
	// +optional
	NoDelay *bool `json:"noDelay,omitempty" protobuf:"varint,1,opt,name=noDelay"`
}

// UDPSettings are UDP settings.
type UDPSettings struct {
	// +optional
	BufferSize *uint32 `json:"bufferSize,omitempty"`
}

// Set is a generic type alias (Go 1.24).
type Set[T comparable] = map[T]struct{}

// Package-level vars with Go 1.26 new(expr): markergen does not read var initializers.
var (
	defaultNoDelay = new(false)
	defaultBuffer  = new(uint32(65536))
)

// Defaults fills in defaults (Go 1.26 new(expr) in a function body).
func Defaults(e *Endpoint, size int) {
	if e.TCP != nil && e.TCP.NoDelay == nil {
		e.TCP.NoDelay = new(true)
	}
	if e.UDP != nil && e.UDP.BufferSize == nil {
		e.UDP.BufferSize = new(uint32(size * 2))
	}
	_, _ = defaultNoDelay, defaultBuffer
}

// Ports ranges over a function (Go 1.23) and over an int (Go 1.22).
func Ports(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(min(i, 65535)) {
				return
			}
		}
	}
}

// Reset uses the Go 1.21 builtins.
func Reset(s Set[string], xs []int) int {
	clear(s)
	total := 0
	for p := range Ports(3) {
		total = max(total, p)
	}
	return total + len(xs)
}
