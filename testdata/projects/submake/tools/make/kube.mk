CRD_ROOT = charts/guestbook/crds
GENERATED_CRDS ::= $(CRD_ROOT)/generated

.PHONY: manifests
manifests: ## Generate CustomResourceDefinition objects.
	@mkdir -p $(GENERATED_CRDS)
	$(GO_TOOL) controller-gen crd:allowDangerousTypes=true \
		paths="./api/..." \
		output:crd:artifacts:config=$(GENERATED_CRDS)

.PHONY: generate
generate:
	$(GO_TOOL) controller-gen object paths="{$(ROOT_DIR)/api/...}"
