"""The real API server on the rules `markergen crd` writes into each release channel's
CRD (testdata/projects/gatewaychannels): the standard CRD enforces the union of the
standard channel (two members), the experimental one the whole union (an `auth` member
and a `Deny` value that selects no member). Every filter a channel's union allows is
accepted by that channel's patched CRD, every violation rejected."""

from __future__ import annotations

import shutil
from typing import Any

import kubeserver
import pytest
import yaml
from helpers import TESTDATA, run_cli

CRD = "routes.example.io_routes-handwritten.yaml"


@pytest.fixture(scope="module")
def patched(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    root = tmp_path_factory.mktemp("channels") / "p"
    shutil.copytree(TESTDATA / "projects" / "gatewaychannels", root)
    run = run_cli(["crd"], root)
    assert run.code == 0, run.stderr
    return {
        channel: yaml.safe_load((root / "config" / "crd" / channel / CRD).read_text("utf-8"))
        for channel in ("standard", "experimental")
    }


def _route(*filters: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "routes.example.io/v1",
        "kind": "Route",
        "spec": {"filters": list(filters)},
    }


HEADER = {"name": "x-a"}
MIRROR = {"backend": "b"}
AUTH = {"url": "https://auth"}

# (filter, accepted by standard, accepted by experimental)
CASES: list[tuple[dict[str, Any], bool, bool]] = [
    ({"type": "Header", "header": HEADER}, True, True),
    ({"type": "Mirror", "mirror": MIRROR}, True, True),
    ({"type": "Header"}, False, False),
    ({"type": "Mirror", "header": HEADER}, False, False),
    ({"type": "Header", "header": HEADER, "mirror": MIRROR}, False, False),
    ({"type": "Deny"}, False, True),
    ({"type": "Deny", "header": HEADER}, False, False),
    ({"type": "Auth", "auth": AUTH}, False, True),
    ({"type": "Auth"}, False, False),
    ({"type": "Header", "header": HEADER, "auth": AUTH}, False, False),
]


@pytest.mark.parametrize("channel", ["standard", "experimental"])
def test_each_channel_crd_enforces_its_channels_union(
    kube: kubeserver.Server, patched: dict[str, dict[str, Any]], channel: str
) -> None:
    with kube.installed(patched[channel]) as crd:
        for filt, standard, experimental in CASES:
            verdict = crd.dry_run(_route(filt))
            want = standard if channel == "standard" else experimental
            assert verdict.accepted == want, (channel, filt, verdict.message)
