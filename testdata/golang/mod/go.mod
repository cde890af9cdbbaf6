module example.com/golang

go 1.21
