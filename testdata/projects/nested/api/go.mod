module example.com/nested/api

go 1.22.0
