#!/usr/bin/env bash
set -o errexit -o nounset -o pipefail

SCRIPT_ROOT=$(dirname "${BASH_SOURCE[0]}")/..
OUT_DIR="${SCRIPT_ROOT}/_output/crds"
CHART_CRDS="${SCRIPT_ROOT}/../helm/guestbook/crds"

cd "${SCRIPT_ROOT}"
go run sigs.k8s.io/controller-tools/cmd/controller-gen crd paths=./api/... output:crd:artifacts:config="${OUT_DIR}"

for f in "${OUT_DIR}"/*.yaml; do
  cp "$f" "${CHART_CRDS}/$(basename "$f")"
done
