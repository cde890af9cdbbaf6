/* License block
   over two lines */

// +groupName=example.com

// Package comments holds the comment shapes go/parser groups (doc, trailing, blocks,
// blank lines, non-ASCII columns); the front end reads them from the bytes.
package comments

import "fmt" // trailing on an import

// extra doc, one blank line above the doc

// Thing is a thing. Größe: ünïcode before // in a doc.
//
//   +union
type Thing struct { // trailing on the struct line
	// Ä doc with ümlauts.
	A string `json:"a"` // trailing A
	// doc of B: the trailing comment above is a group of its own
	B int `json:"b"` /* block trailing */
	/* block doc of C */
	C int `json:"c"`

	// blank line between this and D: no doc

	D int `json:"d"`
	E, F int `json:"e"` // two names, one trailing
	/* multi
	   line block doc */
	G *Thing `json:"g"`
	H int /* code follows */; I int `json:"i"`
	// tail comment with nothing after
}

/* block doc of Small */ type Small int

type (
	// Grouped one.
	One string // trailing one
	// Grouped two.

	// doc of Two after a blank line
	Two int
)

// Const doc.
const (
	// Red doc.
	Red One = "red" // trailing red
	/* Green doc */ Green One = "green"
	Blue One = "blue" /* blue */ // and line
)

// +k8s:unionMember
func (t *Thing) MarshalJSON() ([]byte, error) { return nil, nil }

// Plain doc, no marker.
func helper() { fmt.Println() }

var (
	// +k8s:enum
	x = 1
	y = 2 // y
)

// closing comment
/* and a block */
