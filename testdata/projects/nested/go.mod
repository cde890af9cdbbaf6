module example.com/nested

go 1.22.0

require example.com/nested/api v0.0.0

replace example.com/nested/api => ./api
