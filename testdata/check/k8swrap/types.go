package k8swrap

// validation-gen's path wrappers around union tags, and the misuse it refuses
// (MG115-MG119, MG330-MG333). Every shape here is one validation-gen's own tests use or
// one it reports as an error at generation time.

type Task struct {
	Name  string `json:"name"`
	State string `json:"state"`
}

type Sub struct {
	D  string `json:"d"`
	M1 *int   `json:"m1,omitempty"`
	M2 *int   `json:"m2,omitempty"`
}

type Inner struct {
	Deep Sub `json:"deep"`
}

type Holder struct {
	// list items as union members: fine
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:item(name: "succeeded")=+k8s:unionMember
	// +k8s:item(name: "failed")=+k8s:unionMember
	Tasks []Task `json:"tasks"`

	// a subfield union: fine
	// +k8s:subfield(d)=+k8s:unionDiscriminator
	// +k8s:subfield(m1)=+k8s:unionMember
	// +k8s:subfield(m2)=+k8s:unionMember
	Pick Sub `json:"pick"`

	// each list item's subfields: fine
	// +k8s:eachVal=+k8s:subfield(m1)=+k8s:zeroOrOneOfMember
	// +k8s:eachVal=+k8s:subfield(m2)=+k8s:zeroOrOneOfMember
	Each []Sub `json:"each"`

	// want "MG115" "lists of structs only"
	// +k8s:item(name: "a")=+k8s:unionMember
	NotAList *Sub `json:"notAList,omitempty"`

	// want "MG116" "no `.k8s:listType=map`"
	// +k8s:item(name: "a")=+k8s:zeroOrOneOfMember
	NoKeys []Task `json:"noKeys"`

	// +k8s:listType=map
	// +k8s:listMapKey=name
	// want "MG116" "not the list-map keys"
	// +k8s:item(state: "a")=+k8s:zeroOrOneOfMember
	// +k8s:item(name: "b")=+k8s:zeroOrOneOfMember
	WrongKey []Task `json:"wrongKey"`

	// want "MG117" "has no field 'm3'"
	// +k8s:subfield(m3)=+k8s:zeroOrOneOfMember
	// +k8s:subfield(m2)=+k8s:zeroOrOneOfMember(union: "z")
	Typo Sub `json:"typo"`

	// want "MG118" "eachKey"
	// +k8s:eachKey=+k8s:zeroOrOneOfMember
	ByKey map[string]string `json:"byKey,omitempty"`

	// want "MG118" "a list or map value is no field"
	// +k8s:eachVal=+k8s:zeroOrOneOfMember
	Vals []Sub `json:"vals"`

	// +k8s:listType=map
	// +k8s:listMapKey=name
	// want "MG118" "not a discriminator"
	// +k8s:item(name: "a")=+k8s:unionDiscriminator
	// +k8s:item(name: "b")=+k8s:unionMember
	ItemDisc []Task `json:"itemDisc"`

	// want "MG118" "on a type declaration only"
	// +k8s:eachVal=+k8s:enum
	Modes []string `json:"modes,omitempty"`

	// want "MG119" "nested"
	// +k8s:subfield(deep)=+k8s:subfield(m1)=+k8s:zeroOrOneOfMember
	Nested Inner `json:"nested"`

	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:item(name: "a")=+k8s:zeroOrOneOfMember
	// want "MG332" "twice"
	// +k8s:item(name: "a")=+k8s:zeroOrOneOfMember
	Twice []Task `json:"twice"`
}

type Direct struct {
	// want "MG330" "struct value"
	// +k8s:unionMember
	Value Sub `json:"value"`
	// +k8s:unionMember
	Other *Sub `json:"other,omitempty"`
}

type Counted struct {
	// want "MG331" "string type only"
	// +k8s:unionDiscriminator
	Kind int32 `json:"kind"`
	// +k8s:unionMember
	A *int32 `json:"a,omitempty"`
}

type Named struct {
	// want "MG333" "union 'modes', which has no members"
	// +k8s:unionDiscriminator(union: "modes")
	Mode string `json:"mode"`
	// +k8s:unionMember(union: "mode")
	Fast *int32 `json:"fast,omitempty"`
	// +k8s:unionMember(union: "mode")
	Slow *int32 `json:"slow,omitempty"`
}
