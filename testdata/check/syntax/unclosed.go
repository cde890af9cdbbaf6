package syntax

// An unclosed tag string makes the whole struct one region tree-sitter cannot parse;
// MG001 points at the field where it goes wrong, not at the struct.

type Unclosed struct {
	Name string `json:"name"`
	Mode string `json:"mode" // want "MG001" "cannot parse from .Mode string"
	Size int32
}
