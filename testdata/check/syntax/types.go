package syntax

type Broken struct {
	Name string `json:"name"`
	Size int32 = 3 // want "MG001"
}

// Near miss: the rest of the file is read.
type Fine struct {
	Name string `json:"name"`
}
