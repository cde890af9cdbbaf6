"""The project's own API server: the envtest binaries (kube-apiserver and etcd) that
setup-envtest put on the machine for the project's controller tests.

`assets.find` locates them the way the project's `make test` does, without downloading
anything; `controlplane.ControlPlane` starts them on loopback in a temporary directory
and answers what the server decides about a CRD and an object. A leaf: it imports
nothing of markergen, so the CRD patcher and the tests can both use it.
"""
