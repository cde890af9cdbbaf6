// Package types has the type expressions, aliases, embedded fields, struct tags and
// comment placements the Go front end must read.
package types

import (
	"encoding/json"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	_ "embed"
	. "strings"
)

// Target is embedded through a pointer with json:",inline".
type Target struct {
	// +unionDiscriminator
	Kind string `json:"kind"`
}

// Holder embeds in every way.
type Holder struct {
	metav1.TypeMeta `json:",inline"`
	*metav1.ObjectMeta
	*Target `json:",inline"`
	Target2
	// Named has two names in one declaration.
	A, B int `json:"a"`
}

// Target2 is embedded by value with no tag.
type Target2 struct{}

// Name is an alias.
type Name = string

// Grouped declarations.
type (
	// Grouped1 has its own doc.
	Grouped1 string

	Grouped2 = Grouped1 // an alias in a group
)

// LoneGroupDoc is the doc of a group of one spec.
type (
	Lone int
)

// Exprs has one field of every type expression kind.
type Exprs struct {
	Ident     string                       `json:"ident"`
	Qual      metav1.Time                  `json:"qual"`
	Ptr       *int64                       `json:"ptr,omitempty"`
	Slice     []*Target                    `json:"slice"`
	Array     [4]byte                      `json:"array"`
	Map       map[string][]metav1.Time     `json:"map"`
	Inline    struct{ X, Y int }           `json:"inline"`
	Iface     interface{ M() }             `json:"-"`
	Fn        func(int) error              `json:"-,"`
	Ch        <-chan int                   `json:"ch,string"`
	Gen       List[string]                 `json:"gen"`
	GenQual   json.Number                  `json:"genQual"`
	Paren     (int)                        `json:"paren"`
	Raw       json.RawMessage              `json:"raw,omitempty,inline"`
	Bad       int                          `json:"bad'name,omitempty"`
	Quoted    int                          "json:\"quoted\" yaml:\"q\""
}

// List is generic.
type List[T any] struct {
	Items []T `json:"items"`
}

// Tags has odd spacing between tag pairs.
type Tags struct {
	Spaces int `json:"spaces,omitempty"    protobuf:"varint,1,opt,name=spaces"`
	Tabs   int `json:"tabs"	patchStrategy:"retainKeys"`
	Broken int `json:"ok" bad`
	Empty  int `json:""`
	None   int
	Dup    int `json:"first" json:"second"`
}

// Größe has non-ASCII text before a comment: the column counts characters.
type Größe struct {
	Wert string `json:"wért"` // +optional after non-ASCII
	/* block
	   +inBlock */
	Other int
}

var _ = ToUpper

// Placement of comments relative to fields.
type Placement struct {
	X int // X's trailing comment
	// Y's doc
	Y int
	// a comment separated by a blank line is no doc

	Z int
}
