package v1

// Prose after a marker name, in the shapes of a provider API of a secrets operator:
// controller-gen and gengo read no marker on these lines (MG025, a warning).
type Provider struct {
	// want "MG025" "is not marked"
	// +optional, default GET
	Method string `json:"method,omitempty"`

	// want "MG025" "Provider.URL is not marked"
	// +required - the API URL. https://example.com:443/api/public/V3.
	URL string `json:"url"`

	// want "MG025"
	// +optional - The recommended version is 3.1.
	Version string `json:"version,omitempty"`
}
