"""`markergen check` with CRDs reads each CRD file's YAML once for both of its CRD checks
(markergen.crd.checkfind): MG511 (union rules that reject a kept object) and MG520/MG521
(enums and defaults against the CRDs'), with the findings the two separate passes give."""

from __future__ import annotations

import collections
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTDATA

# SAMPLE: a kept object the union rules of `publishing` would reject (MG511)
from test_crd_samples import OPENSHIFT, SAMPLE, TECH

import markergen.crd.enumcheck as enumcheck
import markergen.yamlio as yamlio
from markergen.crd.checkfind import crd_findings
from markergen.crd.files import crd_files
from markergen.pipeline import load_model

ENUMS = TESTDATA / "projects" / "enumcrd"


def _enums(tmp_path: Path) -> tuple[Path, list[Path]]:
    root = tmp_path / "enums"
    shutil.copytree(ENUMS, root)
    crd = root / "config" / "crd" / "bases" / "enums.example.com_proxies-stale.yaml"
    # a CRD enum narrower than the Go one: an MG520
    crd.write_text(crd.read_text().replace("- Syntax", "- InsecureSyntax"))
    return root, [root / "config" / "crd" / "bases"]


def _openshift(tmp_path: Path) -> tuple[Path, list[Path]]:
    root = tmp_path / "openshift"
    shutil.copytree(OPENSHIFT, root)
    (root / "examples").mkdir()
    (root / "examples" / "widget.yaml").write_text(SAMPLE, encoding="utf-8")
    return root, [(root / TECH).parent]


@pytest.mark.parametrize("project", [_enums, _openshift])
def test_one_reading_gives_both_passes_findings(tmp_path: Path, project: Any) -> None:
    root, dirs = project(tmp_path)
    model = load_model(["./..."], root)
    separate = crd_findings(dirs, model, root, enums=False) + enumcheck.findings(
        enumcheck.compare_files(model, crd_files(dirs), root)
    )
    assert {d.code for d in separate} & {"MG511", "MG520", "MG521"}
    assert crd_findings(dirs, model, root) == separate


def test_check_parses_each_crd_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, dirs = _openshift(tmp_path)
    model = load_model(["./..."], root)
    loads: collections.Counter[str] = collections.Counter()
    real = yamlio.load_documents

    def counting(text: str) -> Any:
        loads[text] += 1
        return real(text)

    # every rule parses CRD text through the run's YamlReader, which composes here
    monkeypatch.setattr(yamlio, "load_documents", counting)
    findings = crd_findings(dirs, model, root)
    assert [d.code for d in findings] == ["MG511", "MG520"]
    crds = [t for t in loads if "CustomResourceDefinition" in t]
    assert len(crds) == len(crd_files(dirs)) > 1
    assert all(loads[t] == 1 for t in crds), loads.values()
