package main

import _ "example.com/sharedapi/operator/internal/controller"

func main() {}
