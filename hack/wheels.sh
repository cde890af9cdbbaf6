#!/usr/bin/env bash
# hack/wheels.sh DIR: build the two wheels markergen installs from, markergen and
# markergen-runtime, into DIR (older markergen wheels there are removed first), for a
# machine without this checkout (docs/ci.md):
#
#   pip install DIR/*.whl
#
# The tool's wheel names its runtime by version (MARKERGEN_RUNTIME_PIN=1,
# hack/hatch_metadata.py), so pip takes it from the wheel beside it; the other
# dependencies come from the index pip uses.
set -euo pipefail
out="${1:?usage: hack/wheels.sh DIR}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
mkdir -p "$out"
rm -f "$out"/markergen-*.whl "$out"/markergen_runtime-*.whl
MARKERGEN_RUNTIME_PIN=1 "$python" -m pip wheel --no-deps -q -w "$out" "$repo" "$repo/runtime"
ls "$out"/markergen-*.whl "$out"/markergen_runtime-*.whl
