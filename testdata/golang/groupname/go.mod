module example.com/groupname

go 1.22
