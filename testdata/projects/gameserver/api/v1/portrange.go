/*
Copyright 2026 The Gameserver Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
*/

package v1

import (
	"encoding/json"
	"fmt"
)

// PortRange is a range of host ports, written "7000-7999" in JSON.
// +kubebuilder:validation:Type=string
// +kubebuilder:validation:Pattern=`^[0-9]+-[0-9]+$`
type PortRange struct {
	First int32 `json:"-"`
	Last  int32 `json:"-"`
}

// MarshalJSON writes the range as "first-last".
func (r PortRange) MarshalJSON() ([]byte, error) {
	return json.Marshal(fmt.Sprintf("%d-%d", r.First, r.Last))
}

// UnmarshalJSON reads a range written "first-last".
func (r *PortRange) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	_, err := fmt.Sscanf(s, "%d-%d", &r.First, &r.Last)
	return err
}

// Ports lists every port of the range.
func (r PortRange) Ports() []int32 {
	ports := make([]int32, 0, max(0, int(r.Last-r.First)+1))
	for i := range int(r.Last-r.First) + 1 {
		ports = append(ports, r.First+int32(i))
	}
	return ports
}
