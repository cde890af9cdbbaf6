module example.com/rootfind

go 1.24
