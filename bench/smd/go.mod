module smdbench

go 1.19
