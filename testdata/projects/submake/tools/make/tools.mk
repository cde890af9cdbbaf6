GO_TOOL ?= go tool -modfile=$(ROOT_DIR)/tools/go.mod
