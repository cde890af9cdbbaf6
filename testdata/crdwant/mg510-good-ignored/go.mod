module example.com/relay

go 1.26.0

require k8s.io/apimachinery v0.35.0
