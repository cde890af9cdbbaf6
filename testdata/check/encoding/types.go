package encoding

type Size struct {
	Value int32 `json:"value"` // Größe // want "MG002" "not valid UTF-8"
}
