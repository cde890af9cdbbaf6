module example.com/helmcopy/operator

go 1.24
