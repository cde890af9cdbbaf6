module a.example/shop

go 1.22
