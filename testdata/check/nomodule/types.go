package nomodule // want "MG006" "no go.mod"

type Widget struct {
	Name string `json:"name"`
}
