#!/bin/bash
# Byte-identity net for a restructuring of `markergen crd` / `markergen check`: records,
# for a few corpus checkouts, `markergen check --format json` and `markergen crd` (stdout,
# stderr, exit code, and the unified diff of what crd wrote, run on a copy of the tree)
# into OUTDIR. Run it with the old and the new markergen, then `diff -r OLD NEW`.
#
#   bench/crd_check_identity.sh CHECKOUTS_ROOT OUTDIR [MARKERGEN] [PROJECT_DIR ...]
#
# CHECKOUTS_ROOT is /work/real-style (one directory per project, bench/corpus_projects.yaml
# `dir`); the default projects are openshift/api, Envoy Gateway and gateway-api. Every
# command runs with --no-cache in the project's root (their `workdir` is `.`).
set -u
ROOT=$(realpath "$1")
mkdir -p "$2"
OUT=$(realpath "$2")
MG=${3:-markergen}
case $MG in */*) MG=$(realpath "$MG") ;; esac
shift $(( $# < 3 ? $# : 3 ))
PROJECTS=("$@")
[ ${#PROJECTS[@]} -eq 0 ] && PROJECTS=(openshift+api envoyproxy+gateway kubernetes-sigs+gateway-api)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for p in "${PROJECTS[@]}"; do
  W=$WORK/$p
  mkdir -p "$W"
  (cd "$ROOT/$p" && tar --exclude=./.git --exclude=./.markergen-cache -cf - .) | (cd "$W" && tar -xf -)
  (cd "$W" && "$MG" check --format json --no-cache >"$OUT/$p.check.json" 2>"$OUT/$p.check.err"; echo $? >"$OUT/$p.check.rc")
  (cd "$W" && "$MG" crd --no-cache >"$OUT/$p.crd.out" 2>"$OUT/$p.crd.err"; echo $? >"$OUT/$p.crd.rc")
  # the diff's headers without their timestamps, and with the copy's path as the original's
  diff -ruN -x .git -x .markergen-cache "$ROOT/$p" "$W" \
    | sed -E "s#^(\+\+\+|---) ([^\t]*)\t.*#\1 \2#; s#$WORK/#COPY/#" >"$OUT/$p.crd.diff"
done
