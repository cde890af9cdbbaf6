#!/usr/bin/env bash

source "$(dirname "${BASH_SOURCE}")/lib/init.sh"

crd_globs="\
    webapp/v1/zz_generated.crd-manifests/*.crd*yaml
    "

if [ "$0" = "$BASH_SOURCE" ] ; then
    rm -rf "${SCRIPT_ROOT}/payload-manifests/crds/"0000_10_*
    for f in ${crd_globs}; do
        cp "$f" "${SCRIPT_ROOT}/payload-manifests/crds/"
    done
fi
