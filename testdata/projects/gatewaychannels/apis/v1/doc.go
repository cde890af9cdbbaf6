// Package v1 is the routes API.
// +groupName=routes.example.io
package v1
