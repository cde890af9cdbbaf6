module example.com/openshiftapi

go 1.22.0
