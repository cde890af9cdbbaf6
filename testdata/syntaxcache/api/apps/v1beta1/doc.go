// Package v1beta1 is the v1beta1 version of the apps API.
// +groupName=apps.example.com
package v1beta1
