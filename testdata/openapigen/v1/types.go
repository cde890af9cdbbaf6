// Package v1 holds Go types designed to compare markergen's OpenAPI v2 output with
// kube-openapi's openapi-gen, side by side (tests/test_openapigen_parity.py,
// docs/parity.md). It uses builtin types only: well-known types such as metav1.Time
// need apimachinery, which the side-by-side run does not have.
//
// The doc comment of Described is deliberately not in gofmt's (Go 1.19+) doc comment
// layout: hand-written indentation is what its description formatting is compared on.
package v1

import "example.com/parity/shared"

// Scalars has one field of each builtin type kube-openapi maps to a type and format.
type Scalars struct {
	Str   string  `json:"str"`
	Flag  bool    `json:"flag"`
	I     int     `json:"i"`
	I8    int8    `json:"i8"`
	I16   int16   `json:"i16"`
	I32   int32   `json:"i32"`
	I64   int64   `json:"i64"`
	U     uint    `json:"u"`
	U8    uint8   `json:"u8"`
	U16   uint16  `json:"u16"`
	U32   uint32  `json:"u32"`
	U64   uint64  `json:"u64"`
	F32   float32 `json:"f32"`
	F64   float64 `json:"f64"`
	B     byte    `json:"b"`
	Bytes []byte  `json:"bytes,omitempty"`

	// +optional
	OptStr *string `json:"optStr,omitempty"`
	// +optional
	OptInt *int64 `json:"optInt,omitempty"`
	Omit   string `json:"omit,omitempty"`

	// NoTag has no json tag, so its JSON name is its Go name.
	NoTag string

	// Skipped is never serialized.
	Skipped string `json:"-"`

	// AsString is written as a JSON string.
	AsString int64 `json:"asString,string"`

	// Plain is a named string type without +enum.
	Plain Plain `json:"plain"`
}

// Plain is a string type that is not an enum.
type Plain string

// Item is an element of lists and maps.
type Item struct {
	// Name of the item.
	Name string `json:"name"`
	// Port of the item.
	// +optional
	Port int32 `json:"port,omitempty"`
}

// Collections has slices, arrays, maps, pointers and references to other structs.
type Collections struct {
	// Names is a list of strings.
	Names []string `json:"names"`
	// +optional
	Items []Item `json:"items,omitempty"`
	// +optional
	ItemPtrs []*Item `json:"itemPtrs,omitempty"`
	// +optional
	Matrix [][]string `json:"matrix,omitempty"`
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// +optional
	ByName map[string]Item `json:"byName,omitempty"`
	// +optional
	Multi map[string][]string `json:"multi,omitempty"`
	// +optional
	Fixed [4]int32 `json:"fixed,omitempty"`
	// +optional
	Anything interface{} `json:"anything,omitempty"`

	// Single is a struct held by value.
	Single Item `json:"single"`
	// +optional
	SinglePtr *Item `json:"singlePtr,omitempty"`

	// Shared refers to a struct of another package.
	Shared shared.Thing `json:"shared"`
	// +optional
	SharedPtr *shared.Thing `json:"sharedPtr,omitempty"`
}

// Lists carries list and patch extensions (kep/002 "retainKeys" among them).
type Lists struct {
	// Ports is a list-map keyed by name and port.
	// +listType=map
	// +listMapKey=name
	// +listMapKey=port
	// +patchStrategy=merge
	// +patchMergeKey=name
	// +optional
	Ports []Item `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"name"`

	// Tags is a set.
	// +listType=set
	// +optional
	Tags []string `json:"tags,omitempty"`

	// Frozen is replaced as a whole.
	// +listType=atomic
	// +optional
	Frozen []string `json:"frozen,omitempty"`

	// Retained clears what a patch does not list.
	// +patchStrategy=retainKeys
	// +optional
	Retained *Item `json:"retained,omitempty" patchStrategy:"retainKeys"`

	// Both merges and retains keys.
	// +patchStrategy=merge,retainKeys
	// +patchMergeKey=name
	// +optional
	Both []Item `json:"both,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`

	// Atomic is a map replaced as a whole.
	// +mapType=atomic
	// +optional
	Atomic map[string]string `json:"atomic,omitempty"`
}

// Described shows how descriptions are formatted.
//
// A second paragraph that is
// wrapped over two lines, with "quotes" and `backticks`.
//
// Example:
//	indented with a tab
//	  and more
//
//   indented with spaces
// TODO: a one-line TODO is dropped.
// +k8s:openapi-gen=true
// ---
// Everything after the three dashes is dropped.
type Described struct {
	// Text has a paragraph.
	//
	// And a second one.
	// +optional
	Text string `json:"text,omitempty"`

	// Req says +required but has omitempty.
	// +required
	Req string `json:"req,omitempty"`

	// Opt says +optional without omitempty.
	// +optional
	Opt string `json:"opt"`

	// NotTODO mentions TODO in the middle of a line, which stays.
	NotTODO string `json:"notTODO"`

	Undocumented string `json:"undocumented"`
}

// Phase is the phase of something.
// +enum
type Phase string

const (
	// PhasePending means that it has not started.
	PhasePending Phase = "Pending"
	// PhaseRunning means that it runs,
	// explained over two lines.
	PhaseRunning Phase = "Running"
	// PhaseStillRunning repeats the value "Running".
	PhaseStillRunning Phase = "Running"
	// PhaseFailed means that it failed.
	PhaseFailed  Phase = "Failed"
	PhaseUnknown Phase = "Unknown"
)

// Enums holds enum-typed fields.
type Enums struct {
	// Phase is a direct enum.
	Phase Phase `json:"phase"`
	// PhasePtr is an enum through a pointer.
	// +optional
	PhasePtr *Phase `json:"phasePtr,omitempty"`
	// Phases is a list of enum values.
	// +optional
	Phases []Phase `json:"phases,omitempty"`
	// ByName maps names to enum values.
	// +optional
	ByName map[string]Phase `json:"byName,omitempty"`
	// Priority is an integer enum.
	Priority Priority `json:"priority"`
}

// Priority is an enum of an integer type: markergen lists its values as numbers,
// openapi-gen reads +enum on string types only.
// +enum
type Priority int32

const (
	// PriorityLow is the first value of an iota block.
	PriorityLow Priority = iota + 1
	// PriorityHigh repeats the expression implicitly.
	PriorityHigh
)

// Source is a kep2019 struct union (kep/000 "Go tags"): every field but the
// discriminator is a member.
// +union
type Source struct {
	// Kind says which source is set.
	// +unionDiscriminator
	// +optional
	Kind string `json:"kind,omitempty"`
	// +optional
	Git *GitSource `json:"git,omitempty"`
	// +optional
	HTTP *HTTPSource `json:"http,omitempty"`
}

// GitSource is a member of Source.
type GitSource struct {
	URL string `json:"url"`
}

// HTTPSource is a member of Source.
type HTTPSource struct {
	URL string `json:"url"`
}

// Build inlines the Source union and has a +unionDeprecated member-union of its own.
type Build struct {
	Name string `json:"name"`

	Source `json:",inline"`

	// Strategy says which strategy is set.
	// +unionDiscriminator
	// +optional
	Strategy string `json:"strategy,omitempty"`
	// +unionDeprecated
	// +optional
	Docker *Item `json:"docker,omitempty"`
	// +unionDeprecated
	// +optional
	Custom *Item `json:"custom,omitempty"`
}

// Undiscriminated is a +unionDeprecated member-union without a discriminator.
type Undiscriminated struct {
	// +unionDeprecated
	// +optional
	First *Item `json:"first,omitempty"`
	// +unionDeprecated
	// +optional
	Second *Item `json:"second,omitempty"`
}

// PointerInline embeds the Source union through a pointer.
type PointerInline struct {
	Name string `json:"name"`

	*Source `json:",inline"`
}

// EmbeddedNoTag embeds a struct without a json tag.
type EmbeddedNoTag struct {
	Item
}

// ThingCopy is a defined type whose underlying type is a struct of another package
// (as k8s.io/api/admissionregistration/v1alpha1.MatchCondition is).
type ThingCopy shared.Thing

// UsesCopy refers to ThingCopy.
type UsesCopy struct {
	// +optional
	Copy *ThingCopy `json:"copy,omitempty"`
}
