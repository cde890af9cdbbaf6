// Package v1 is the v1 version of the apps API.
// +groupName=apps.example.com
package v1
