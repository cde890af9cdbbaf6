module example.com/twobuilds

go 1.24
