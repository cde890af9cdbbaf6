"""Issue 39 item 5: a project that keeps the same CRD in two places (openshift/api's
`zz_generated.crd-manifests/` and `payload-manifests/crds/`) gets each MG508 once per
union, at the first copy, from `crd` and from `check`'s reading of the CRDs; the union
is still left unwritten in both copies. The fleetnet fixture's Collector union disagrees
with its hand-written rule (tests/test_crd_proof.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers import TESTDATA, run_cli

from markergen.crd.checkfind import crd_findings
from markergen.pipeline import load_model

CRD = Path("config/crd/bases/net.example.com_uplinks.yaml")
COPY = Path("payload/crds/net.example.com_uplinks.yaml")


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "fleetnet"
    shutil.copytree(TESTDATA / "projects" / "fleetnet", root)
    (root / COPY).parent.mkdir(parents=True)
    shutil.copy(root / CRD, root / COPY)
    return root


def test_crd_reports_the_disagreement_once_for_two_copies(tmp_path: Path) -> None:
    root = _project(tmp_path)
    before = (root / COPY).read_text()
    res = run_cli(["crd", str(CRD.parent), str(COPY.parent)], root)
    assert res.code == 0, res.stderr
    found = [line for line in res.stderr.splitlines() if "MG508" in line]
    assert len(found) == 1, res.stderr
    assert found[0].startswith(CRD.as_posix() + ":") and "Collector.policy" in found[0]
    # both copies were patched alike, and neither got the union's rules
    assert (root / CRD).read_text() == (root / COPY).read_text() != before
    assert "(union Collector.policy)" not in (root / COPY).read_text()


def test_check_reads_both_copies_and_reports_it_once(tmp_path: Path) -> None:
    root = _project(tmp_path)
    model = load_model(["./api/..."], root)
    one = crd_findings([root / CRD.parent], model, root, enums=False)
    both = crd_findings([root / CRD.parent, root / COPY.parent], model, root, enums=False)
    assert [d.code for d in one].count("MG508") == 1
    assert [d for d in both if d.code == "MG508"] == [d for d in one if d.code == "MG508"]
