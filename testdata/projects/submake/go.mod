module example.com/submake

go 1.22.0
