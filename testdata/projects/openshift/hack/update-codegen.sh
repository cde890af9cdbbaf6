#!/usr/bin/env bash

source "$(dirname "${BASH_SOURCE}")/lib/init.sh"

CODEGEN="${CODEGEN:-${TOOLS_OUTPUT}/codegen}"
codegen_args=()
if [ -n "${GENERATOR:-}" ]; then
  codegen_args+=("${GENERATOR}")
fi
codegen_args+=(--base-dir "${SCRIPT_ROOT}" -v 1)
"${CODEGEN}" "${codegen_args[@]}" ${EXTRA_ARGS:-}
