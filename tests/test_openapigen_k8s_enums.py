"""Every enum property openapi-gen lists for the kubernetes/api packages it can process
has the same values in markergen's output (issue 18), EndpointSlice's `addressType`
(constants written `AddressType(v1.IPv4Protocol)`, from core/v1) included.

Opt-in, because it needs two checkouts the suite never fetches: set MARKERGEN_K8S_API to
a kubernetes/api checkout and MARKERGEN_APIMACHINERY to the kubernetes/apimachinery
checkout it requires; openapi-gen, go and Debian's kube-openapi sources must be
installed, as for tests/test_openapigen_parity.py. Without them it is skipped, with the
reason; the shapes it checks are also in testdata/openapigen, which that test compares
on every run. bench/bench_enum_parity.py prints the same comparison.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest
from helpers import REPO

sys.path.insert(0, str(REPO / "bench"))

API = os.environ.get("MARKERGEN_K8S_API", "")
APIMACHINERY = os.environ.get("MARKERGEN_APIMACHINERY", "")


def test_every_openapi_gen_enum_has_the_same_values() -> None:
    if not API or not APIMACHINERY:
        pytest.skip("set MARKERGEN_K8S_API and MARKERGEN_APIMACHINERY to run it")
    from test_openapigen_parity import GOCODE, _missing_tools

    reason = _missing_tools()
    if reason:
        pytest.skip(reason)
    from bench_enum_parity import ours, theirs
    from bench_openapigen import find_packages, run_openapi_gen

    api = Path(API)
    packages = find_packages(api)
    assert len(packages) == 59, packages
    with tempfile.TemporaryDirectory(prefix="k8s-enums-") as tmp:
        run_openapi_gen(api, Path(APIMACHINERY), GOCODE, packages, Path(tmp))
        generated = Path(tmp) / "gopath/src/k8s.io/zz_bench/openapi/openapi_generated.go"
        og = theirs(generated.read_text())
    mg = ours(api, packages)
    assert len(og) >= 38  # the definitions with enums at kubernetes/api 10b39a39b
    differ = {k: (og[k], mg.get(k)) for k in og if any(v not in mg.get(k, []) for v in og[k])}
    assert not differ
    for version in ("v1", "v1beta1"):
        key = f"k8sioapidiscovery{version}endpointslice"
        assert og[key] == mg[key] == [["FQDN", "IPv4", "IPv6"]]
