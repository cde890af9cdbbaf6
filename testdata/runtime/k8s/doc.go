// The package runs validation-gen, as validation-gen's output_tests declare: an unset
// enum field without a requiredness tag is its Go zero value, and is checked.
//
// +k8s:validation-gen=TypeMeta
// +k8s:validation-gen-nolint
package api
