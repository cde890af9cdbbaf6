// Package shared holds fields that several kinds of the relay API inline.
// +kubebuilder:object:generate=true
package shared

// SourceFields are the places a payload may come from. Kinds inline them and say with
// their own controller-gen marker how many may be set.
type SourceFields struct {
	// configMap reads the payload from a key of a ConfigMap.
	// +optional
	ConfigMap *KeyRef `json:"configMap,omitempty"`

	// secret reads the payload from a key of a Secret.
	// +optional
	Secret *KeyRef `json:"secret,omitempty"`
}

// KeyRef names a key of an object in the relay's namespace.
type KeyRef struct {
	// name of the object.
	Name string `json:"name"`

	// key in the object's data.
	Key string `json:"key"`
}
