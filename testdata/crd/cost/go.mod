module example.com/routing

go 1.22.0
