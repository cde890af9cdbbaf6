package external

import (
	shared "example.com/shared/kinds"
)

type Shape struct {
	// want "MG104" "not among the inputs"
	// +unionDiscriminator
	// +required
	Type shared.ShapeType `json:"type"`

	// +unionMember
	// +optional
	Circle *int32 `json:"circle,omitempty"`
}
