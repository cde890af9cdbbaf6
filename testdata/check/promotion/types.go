// Package promotion holds controller-gen union markers that name fields promoted from
// embedded structs, resolved as encoding/json resolves them (markergen/model/lookup.py).
package promotion

// FooFields are alternatives several types share.
type FooFields struct {
	// +optional
	A *string `json:"a,omitempty"`
	// +optional
	B *string `json:"b,omitempty"`
}

// OnlyInlined holds nothing but FooFields: the union's members are both promoted.
// +kubebuilder:validation:ExactlyOneOf=a;b
type OnlyInlined struct {
	FooFields `json:",inline"`
}

// Untagged embeds FooFields without a tag: encoding/json promotes its fields too.
// +kubebuilder:validation:AtMostOneOf=a;b
type Untagged struct {
	FooFields
}

// SharedPlusOne inlines the shared fields and adds one.
// +kubebuilder:validation:ExactlyOneOf=a;b;c
type SharedPlusOne struct {
	FooFields `json:",inline"`

	// +optional
	C *string `json:"c,omitempty"`
}

// PointerEmbed embeds a pointer to the shared fields.
// +kubebuilder:validation:AtLeastOneOf=a;b
type PointerEmbed struct {
	*FooFields `json:",inline"`
}

// Nested embeds FooFields under a JSON name: a nested object, nothing is promoted.
// want "MG341" "names 'a', which is no JSON field of Nested"
// +kubebuilder:validation:ExactlyOneOf=a;foo
type Nested struct {
	// +optional
	*FooFields `json:"foo,omitempty"`
}

// Skipped embeds FooFields with json:"-": none of its fields is in the JSON.
// want "MG341" "names 'b', which is no JSON field of Skipped"
// +kubebuilder:validation:AtMostOneOf=b;d
type Skipped struct {
	FooFields `json:"-"`

	// +optional
	D *string `json:"d,omitempty"`
}

// Left and Right both have a field named "name".
type Left struct {
	// +optional
	Name *string `json:"name,omitempty"`
	// +optional
	L *string `json:"l,omitempty"`
}

// Right is Left's twin.
type Right struct {
	// +optional
	Name *string `json:"name,omitempty"`
	// +optional
	R *string `json:"r,omitempty"`
}

// Tie inlines both at the same depth, both tagged: encoding/json drops "name".
// want "MG341" "Tie.Left.Name and Tie.Right.Name are named 'name' at the same depth"
// +kubebuilder:validation:ExactlyOneOf=name;l;r
type Tie struct {
	Left  `json:",inline"`
	Right `json:",inline"`
}

// Tagged has a tagged "Name"; Untag's field is named "Name" by its Go name.
type Tagged struct {
	// +optional
	Name *string `json:"Name,omitempty"`
}

// Untag has no json tag on its field.
type Untag struct {
	// +optional
	Name *string
	// +optional
	Other *string `json:"other,omitempty"`
}

// TaggedWins inlines both at the same depth: the tagged field wins.
// +kubebuilder:validation:ExactlyOneOf=Name;other
type TaggedWins struct {
	Untag  `json:",inline"`
	Tagged `json:",inline"`
}

// Deep has a "mode" one level down.
type Deep struct {
	// +optional
	Mode *string `json:"mode,omitempty"`
	// +optional
	X *string `json:"x,omitempty"`
}

// Shadow's own "mode" hides Deep's (the shallowest field wins).
// +kubebuilder:validation:AtMostOneOf=mode;x
type Shadow struct {
	Deep `json:",inline"`

	// +optional
	Mode *string `json:"mode,omitempty"`
}

// Wrapper adds a level: its fields are at depth 2 in Deeper.
type Wrapper struct {
	Deep `json:",inline"`
	// +optional
	W *string `json:"w,omitempty"`
}

// Deeper reaches Deep's fields through Wrapper.
// +kubebuilder:validation:ExactlyOneOf=x;w
type Deeper struct {
	Wrapper `json:",inline"`
}

// Loop embeds a pointer to itself: each struct is explored once.
// +kubebuilder:validation:AtMostOneOf=v;u
type Loop struct {
	*Loop `json:",inline"`

	// +optional
	V *string `json:"v,omitempty"`
	// +optional
	U *string `json:"u,omitempty"`
}

// GoNames names the promoted fields by their Go names.
// want "MG341" "names 'A', which is no JSON field of GoNames"
// +kubebuilder:validation:ExactlyOneOf=A;b
type GoNames struct {
	FooFields `json:",inline"`
}

// Nothing close: the hint removes the marker rather than leave it empty.
// want "MG341" "names 'zzz', which is no JSON field of NothingClose"
// +kubebuilder:validation:ExactlyOneOf=zzz
type NothingClose struct {
	FooFields `json:",inline"`
}

// P1 and P2 both embed FooFields.
type P1 struct {
	FooFields `json:",inline"`
}

// P2 is P1's twin.
type P2 struct {
	FooFields `json:",inline"`
}

// Twice reaches FooFields twice at depth 2: encoding/json drops a and b.
type Twice struct {
	P1 `json:",inline"`
	P2 `json:",inline"`

	// +optional
	T *string `json:"t,omitempty"`
}

// Label is no struct: embedded, it is one field named after its type.
type Label string

// WithLabel embeds a non-struct type.
type WithLabel struct {
	Label `json:",inline"`
}

type hidden struct {
	// +optional
	H *string `json:"h,omitempty"`
}

// HasHidden embeds an unexported struct: its exported fields are promoted.
// +kubebuilder:validation:ExactlyOneOf=h;k
type HasHidden struct {
	hidden

	// +optional
	K *string `json:"k,omitempty"`
}
