module example.com/servershapes

go 1.24
