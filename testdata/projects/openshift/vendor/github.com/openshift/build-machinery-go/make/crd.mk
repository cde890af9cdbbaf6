# A vendored make library: it regenerates the vendored API's CRDs into ./manifests.
CONTROLLER_GEN ?= go run sigs.k8s.io/controller-tools/cmd/controller-gen

update-vendored-crds:
	$(CONTROLLER_GEN) crd paths=./vendor/github.com/openshift/api/config/v1 output:crd:artifacts:config=./vendor/github.com/openshift/api/config/v1/zz_generated.crd-manifests
	$(CONTROLLER_GEN) crd paths=./vendor/github.com/openshift/api/config/v1 output:crd:artifacts:config=./manifests
