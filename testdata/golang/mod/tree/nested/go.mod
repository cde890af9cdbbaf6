// A nested module: "./..." patterns above it do not descend into it.
module "example.com/nested"

go 1.21
