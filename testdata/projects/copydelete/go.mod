module example.com/copydelete

go 1.22.0
