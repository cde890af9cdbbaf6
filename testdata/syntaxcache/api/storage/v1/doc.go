// Package v1 is the v1 version of the storage API.
// +groupName=storage.example.com
package v1
