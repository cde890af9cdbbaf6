ROOT_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)
include tools/make/tools.mk
include tools/make/kube.mk
