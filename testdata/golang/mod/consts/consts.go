// Package consts has const declarations for Go's implicit repetition and iota, untyped
// constants, several names in one spec, and string literal forms.
package consts

// Phase is an enum.
// +enum
type Phase string

// A single typed constant outside a block.
const Pending Phase = "Pending"

// Untyped single constant.
const Version = "v1"

const (
	// Running is typed.
	Running Phase = "Running"
	// Done repeats Running's type and value (Go's implicit repetition).
	Done
	Failed Phase = "Failed" // trailing comment
	// Unknown is untyped in a block of Phase values.
	Unknown = "Unknown"
)

type Level int

const (
	Low Level = iota
	Medium
	High
	_
	Max
)

const (
	First, Second Phase = "first", "second"
	Third, Fourth
)

// Escapes in string literals.
const (
	Quote     = "a\"b"
	Newline   = "line\nbreak"
	Unicode   = "caf\u00e9"
	Hex       = "\x41BC"
	Octal     = "\101BC"
	BigU      = "\U0001F600"
	Raw       = `raw\n "quoted"`
	NotString = 1 << 3
)
