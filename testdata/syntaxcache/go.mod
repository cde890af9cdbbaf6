module example.com/fileedits

go 1.22
