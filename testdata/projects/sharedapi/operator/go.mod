module example.com/sharedapi/operator

go 1.24
