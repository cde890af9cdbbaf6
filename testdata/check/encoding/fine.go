package encoding

// Near miss: this file is UTF-8 (Größe) and is read.
type Other struct {
	Value int32 `json:"value"`
}
