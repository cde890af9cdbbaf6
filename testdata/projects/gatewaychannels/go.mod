module example.com/gatewaychannels

go 1.24
