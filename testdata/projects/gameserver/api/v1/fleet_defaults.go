/*
Copyright 2026 The Gameserver Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
*/

package v1

import (
	"iter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const defaultFailureThreshold = 3

// Defaults written with Go 1.26 new(expr).
var (
	defaultPaused  = new(false)
	defaultTimeout = new(metav1.Duration{Duration: time.Second})
)

// Default fills in what the API server's defaults do not.
func (f *Fleet) Default() {
	if f.Spec.Paused == nil {
		f.Spec.Paused = new(*defaultPaused)
	}
	if hc := f.Spec.HealthCheck; hc != nil {
		if hc.FailureThreshold == nil {
			hc.FailureThreshold = new(uint32(defaultFailureThreshold))
		}
		if hc.Timeout == nil {
			hc.Timeout = new(*defaultTimeout)
		}
	}
	if f.Spec.Replicas == nil {
		f.Spec.Replicas = new(int32(min(1, max(0, len(f.Name)))))
	}
}

// Backends yields the probe settings of a health check (range over func).
func (h *HealthCheck) Backends() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		if h.HTTP != nil && !yield("http", h.HTTP) {
			return
		}
		if h.Exec != nil {
			yield("exec", h.Exec)
		}
	}
}

// Settings is a generic type alias (Go 1.24).
type Settings[V any] = map[string]V

// Describe lists the settings of a health check.
func (h *HealthCheck) Describe() Settings[any] {
	out := Settings[any]{}
	for name, backend := range h.Backends() {
		out[name] = backend
	}
	clear(out)
	return out
}
