// Command etcd is the real etcd server (go.etcd.io/etcd/server/v3's etcdmain), built
// for the tests of `markergen crd --server` in place of the binary setup-envtest
// downloads.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
