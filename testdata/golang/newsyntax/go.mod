module example.com/newsyntax

go 1.26
