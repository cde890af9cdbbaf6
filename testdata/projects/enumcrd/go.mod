module example.com/enumcrd

go 1.24
