// Package v1 is the v1 version of the network API.
// +groupName=network.example.com
package v1
