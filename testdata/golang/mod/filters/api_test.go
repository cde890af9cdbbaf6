package filters

// InTest is in a _test.go file.
type InTest struct{}
