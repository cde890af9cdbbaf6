package v1

type Pod struct {
	Name string `json:"name"`
}
