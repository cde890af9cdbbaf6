/*
Copyright 2026 The Gameserver Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
*/

package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// HealthCheckType is the kind of probe.
// +kubebuilder:validation:Enum=HTTP;TCP;Exec
type HealthCheckType string

const (
	// HTTPHealthCheckType probes an HTTP endpoint.
	HTTPHealthCheckType HealthCheckType = "HTTP"
	// TCPHealthCheckType opens a TCP connection to the game port.
	TCPHealthCheckType HealthCheckType = "TCP"
	// ExecHealthCheckType runs a command in the game server.
	ExecHealthCheckType HealthCheckType = "Exec"
)

// HealthCheck probes a game server. Timeout, interval and failureThreshold
// apply to every type of probe.
// +union
// +kubebuilder:validation:XValidation:rule="self.type == 'HTTP' ? has(self.http) : !has(self.http)",message="http is set exactly when type is HTTP"
// +kubebuilder:validation:XValidation:rule="self.type == 'Exec' ? has(self.exec) : !has(self.exec)",message="exec is set exactly when type is Exec"
type HealthCheck struct {
	// type is the kind of probe.
	// +unionDiscriminator
	Type HealthCheckType `json:"type"`

	// timeout is how long one probe may take.
	// +kubebuilder:default="1s"
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`

	// interval is the time between two probes.
	// +kubebuilder:default="5s"
	// +optional
	Interval *metav1.Duration `json:"interval,omitempty"`

	// failureThreshold is how many probes in a row must fail.
	// +kubebuilder:validation:Minimum=1
	// +optional
	FailureThreshold *uint32 `json:"failureThreshold,omitempty"`

	// http is the endpoint of an HTTP probe.
	// +optional
	HTTP *HTTPHealthCheck `json:"http,omitempty"`

	// exec is the command of an Exec probe.
	// +optional
	Exec *ExecHealthCheck `json:"exec,omitempty"`
}

// HTTPHealthCheck is an HTTP probe.
type HTTPHealthCheck struct {
	// path is the URL path to request.
	Path string `json:"path"`

	// port is the port to connect to.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port int32 `json:"port"`
}

// ExecHealthCheck is a command probe.
type ExecHealthCheck struct {
	// command is run in the game server container.
	// +kubebuilder:validation:MinItems=1
	Command []string `json:"command"`
}
