package api

// Lists and maps of a `+k8s:enum` type: validation-gen calls the type's validation for
// each item (EachSliceVal) and each map value (EachMapVal); written for
// tests/test_k8s_enum_items.py.

// +k8s:enum
type Color string

const (
	ColorRed   Color = "red"
	ColorGreen Color = "green"
	// +k8s:enumExclude
	ColorOld Color = "old"
)

type Palette struct {
	// an atomic list: every item is checked, on update too
	// +optional
	Colors []Color `json:"colors,omitempty"`

	// a set: an item the old list holds is not checked again
	// +k8s:listType=set
	// +optional
	Favorites []Color `json:"favorites,omitempty"`

	// a map: a value unchanged under its key is not checked again
	// +optional
	ByName map[string]Color `json:"byName,omitempty"`

	// a list of plain strings: nothing to check
	// +optional
	Names []string `json:"names,omitempty"`
}
