"""A union member with a CRD default (testdata/projects/defaulted): the API server sets the
default before the union's rules run, so markergen's proof must too. Found on a real
project by `markergen crd --server`; judged here by the real CRD API server."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import kubeserver
import yaml
from helpers import TESTDATA, run_cli

PROJECT = TESTDATA / "projects" / "defaulted"
CRD = "config/crd/bases/faults.example.com_injectors.yaml"
SAMPLE = "config/samples/faults_v1_injector.yaml"


def _crd(root: Path) -> dict[str, Any]:
    return yaml.safe_load((root / CRD).read_text())


def _abort_rules(crd: dict[str, Any]) -> list[str]:
    spec = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    abort = spec["properties"]["abort"]
    return [r["rule"] for r in abort.get("x-kubernetes-validations", [])]


def test_the_proof_applies_the_default_and_withholds_the_rule(
    tmp_path: Path, kube: kubeserver.Server
) -> None:
    proved = tmp_path / "proved"
    shutil.copytree(PROJECT, proved)
    res = run_cli(["crd", "--server", "off"], cwd=proved)
    assert res.code == 0, res.stderr
    assert "MG510" in res.stderr and f"Injector at {SAMPLE}:1" in res.stderr
    assert "at most one of httpStatus, grpcStatus, percentage" in res.stderr

    # The same project without its sample: nothing to prove against, the rule is written.
    unproved = tmp_path / "unproved"
    shutil.copytree(PROJECT, unproved)
    (unproved / SAMPLE).unlink()
    res = run_cli(["crd", "--server", "off"], cwd=unproved)
    assert res.code == 0 and "MG510" not in res.stderr, res.stderr
    withheld = [r for r in _abort_rules(_crd(unproved)) if r not in _abort_rules(_crd(proved))]
    assert withheld, "the run without the sample writes the rule the proof withheld"

    sample = yaml.safe_load((PROJECT / SAMPLE).read_text())
    # The server's word: with the rule, the project's sample is rejected (the default makes
    # two members set); without it, as markergen wrote the CRD, it is accepted.
    with kube.installed(_crd(unproved)) as with_rule:
        verdict = with_rule.dry_run(sample)
        assert not verdict.accepted, "the server applies percentage's default before the rule"
        assert "spec.abort" in verdict.message
    with kube.installed(_crd(proved)) as written:
        verdict = written.dry_run(sample)
        assert verdict.accepted, verdict.message
        assert verdict.stored is not None
        assert verdict.stored["spec"]["abort"] == {"httpStatus": 418, "percentage": 100}
