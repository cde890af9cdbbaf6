module example.com/keptdocs

go 1.24
