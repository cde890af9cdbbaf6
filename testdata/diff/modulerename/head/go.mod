module b.example/shop

go 1.22
