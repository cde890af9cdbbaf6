module example.com/app

go 1.22.0

require example.com/dep v0.0.0

replace example.com/dep => ../dep
