#!/bin/sh
# Run both atheris harnesses for a fixed budget; seeds: the testdata Go files.
# Usage: fuzz/run.sh [seconds per harness]   (default 120)
# Needs atheris (pip install atheris); pytest does not.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
py="${PYTHON:-$repo/.venv/bin/python}"
budget="${1:-120}"
work=$(mktemp -d)
mkdir -p "$work/go" "$work/markers" "$here/findings"
find "$repo/testdata" -name '*.go' -exec cp {} "$work/go/" \; 2>/dev/null || true
grep -rhoE '\+[A-Za-z0-9:]+[^ ]*' "$repo/testdata" --include='*.go' | sort -u | head -500 \
  | awk -v d="$work/markers" '{ f = d "/m" NR; printf "%s", substr($0, 2) > f; close(f) }'
for h in markers frontend; do
  echo "== fuzz_$h for ${budget}s"
  "$py" "$here/fuzz_$h.py" -max_total_time="$budget" -rss_limit_mb=2048 -timeout=20 \
     -artifact_prefix="$here/findings/$h-" "$work/$( [ $h = markers ] && echo markers || echo go )" \
     2>&1 | grep -E '^Done|crash-|Uncaught|Traceback|deadly signal' || true
done
rm -rf "$work"
