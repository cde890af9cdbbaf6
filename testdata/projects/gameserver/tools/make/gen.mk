# Code and manifest generation. controller-gen writes the CRDs twice: once for
# kustomize (config/crd/bases) and once for the Helm chart, where every file is
# wrapped in an `if .Values.crds.install` block so that users can skip the CRDs.

LOCALBIN ?= $(shell pwd)/bin
CONTROLLER_TOOLS_VERSION ?= v0.19.0
CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen

CRD_OPTIONS ?= crd
HELM_CRD_DIR := charts/gameserver/templates/crds

.PHONY: generate
generate: controller-gen ## Generate DeepCopy methods.
	$(CONTROLLER_GEN) object:headerFile="hack/boilerplate.go.txt" paths="./api/..."

.PHONY: manifests
manifests: controller-gen ## Generate the CRDs for kustomize and for the Helm chart.
	$(CONTROLLER_GEN) rbac:roleName=manager-role $(CRD_OPTIONS) webhook paths="./..." output:crd:artifacts:config=config/crd/bases
	$(CONTROLLER_GEN) $(CRD_OPTIONS) paths="./api/..." output:crd:artifacts:config=$(HELM_CRD_DIR)
	@for f in $(HELM_CRD_DIR)/*.yaml; do \
		{ echo '{{- if .Values.crds.install }}'; cat "$$f"; echo '{{- end }}'; } > "$$f.tmp" && mv "$$f.tmp" "$$f"; \
	done

$(LOCALBIN):
	mkdir -p $(LOCALBIN)

.PHONY: controller-gen
controller-gen: $(CONTROLLER_GEN) ## Download controller-gen locally if necessary.
$(CONTROLLER_GEN): $(LOCALBIN)
	test -s $(CONTROLLER_GEN) || GOBIN=$(LOCALBIN) go install sigs.k8s.io/controller-tools/cmd/controller-gen@$(CONTROLLER_TOOLS_VERSION)
