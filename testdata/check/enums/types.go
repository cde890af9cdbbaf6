package enums

// An integer enum: markergen reads it (values 1, 2, 4), openapi-gen ignores the marker.
// +enum
type Priority int32 // want "MG021" "type Priority, whose underlying type is int32"

const (
	PriorityLow Priority = 1 << iota
	PriorityMid
	PriorityHigh
)

// +enum
type Level Priority // want "MG021" "Level" "MG102"

// want "MG101" "type Tags, whose underlying type is .]string"
// +enum
type Tags []string

// Near miss: a string type with a value.
// +enum
type Text string

const (
	TextA Text = "A"
)

// Near miss: string underneath through another named type.
// +enum
type Name Text

const (
	NameX Name = "x"
)

// want "MG101" "struct type Settings"
// +enum
type Settings struct {
	A string `json:"a"`
}

// Near miss: no enum marker, no values needed.
type Plain int

// +enum
type Empty string // want "MG102" "enum type Empty has no constants"

// The values are typed with another type: still no constant of type Loose.
// +enum
type Loose string // want "MG102"

const (
	LooseA = "a" // want "MG103" "constant LooseA"
	LooseB Text  = "b"
)

// +enum
type Union2Type string

const (
	Alpha Union2Type = "ALPHA"
	Beta             = "BETA" // want "MG103" "Beta = \"BETA\" is untyped"
)

// Near miss for MG103: implicit repetition makes Second typed.
// +enum
type Repeated string

const (
	First Repeated = "same"
	Second
)

// Near miss for MG103: an untyped constant in a block without enum constants.
const (
	Untyped = "free"
)

// Near miss for MG103: the enum's values are its +kubebuilder:validation:Enum list, so
// the untyped constants sharing the block (annotation keys, as cluster-api's
// MachineDeploymentRolloutStrategyType block holds) cannot be missing values.
// +kubebuilder:validation:Enum=RollingUpdate;OnDelete
type RolloutStrategyType string

const (
	RollingUpdateStrategy RolloutStrategyType = "RollingUpdate"
	OnDeleteStrategy      RolloutStrategyType = "OnDelete"

	RevisionAnnotation = "example.com/revision"
)
