package v1

// Prose after a marker name, in the shapes of a provider API of a secrets operator:
// controller-gen and gengo read no marker on these lines (MG025, a warning).
type Provider struct {
	// +optional, default GET
	Method string `json:"method,omitempty"`

	// +required - the API URL. https://example.com:443/api/public/V3.
	URL string `json:"url"`

	// +optional - The recommended version is 3.1.
	Version string `json:"version,omitempty"`
}
