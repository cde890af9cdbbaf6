// Package lineendings is written three times: with LF, with CRLF line endings, and
// with a UTF-8 byte order mark. All three must give the same records.
package lineendings

// Kind is an enum.
// +enum
type Kind string

const (
	// KindA is "A".
	KindA Kind = "A" // trailing
	KindB Kind = `B`
)

/* Spec has a block comment
   +k8s:required
*/
type Spec struct {
	// +unionDiscriminator
	Kind Kind `json:"kind"`

	// Raw string tags keep their content.
	Value *string `json:"value,omitempty"` // +optional
}
