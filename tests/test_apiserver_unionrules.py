"""The real API server on testdata/projects/unionrules: openshift's union style (`+union`
on the struct, `+unionMember` with its own `+optional` line, requiredness in
`+kubebuilder:validation:XValidation` rules) read as the server reads the project's CRD.

`ScanSettings` has no rule that reads its member `walk`: the project's CRD accepts
`{mode: Walk}` with `walk` left out, and so must the CRD `markergen crd` patches and
markergen's runtime (`markergen validate` with the table of `markergen generate`).
`TokenSettings` has a rule that asks for `issued` when `mode` is Issued: the server
rejects `{mode: Issued}` and the runtime rejects it too (the markers' reading stands).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import kubeserver
import pytest
import yaml
from helpers import TESTDATA, run_cli

CRD = Path("config/crd/bases/metrics.example.com_collectors.yaml")
SAMPLES = Path("config/samples/metrics_v1_collector.yaml")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "unionrules"
    shutil.copytree(TESTDATA / "projects" / "unionrules", root)
    return root


def _load(path: Path) -> dict[str, Any]:
    value = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def _collector(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "metrics.example.com/v1",
        "kind": "Collector",
        "metadata": {"name": name},
        "spec": spec,
    }


def _runtime_accepts(root: Path, table: Path, obj: dict[str, Any], tmp: Path) -> bool:
    path = tmp / f"{obj['metadata']['name']}.yaml"
    path.write_text(yaml.safe_dump(obj), encoding="utf-8")
    result = run_cli(["validate", "--table", str(table), str(path)], root)
    assert result.code in (0, 1), result.stderr
    return result.code == 0


# Objects outside the kept samples: (name, spec, whether the patched CRD accepts it).
OTHERS = [
    ("issued-without-audience", {"tokens": {"mode": "Issued"}}, False),
    ("none-with-issued", {"tokens": {"mode": "None", "issued": {"audience": "a"}}}, False),
    ("off-with-walk", {"scan": {"mode": "Off", "walk": {"intervalMinutes": 5}}}, False),
    ("walk-bare", {"scan": {"mode": "Walk"}}, True),
]


def test_the_kept_objects_pass_the_projects_crd_the_patched_crd_and_the_runtime(
    kube: kubeserver.Server, project: Path, tmp_path: Path
) -> None:
    original = _load(project / CRD)
    assert run_cli(["crd"], project).code == 0
    patched = _load(project / CRD)
    assert patched != original  # markergen wrote the rule that forbids walk outside Walk
    assert run_cli(["generate", "--out-dir", "gen"], project).code == 0
    table = project / "gen" / "unions_table.json"
    kept = list(yaml.safe_load_all((project / SAMPLES).read_text(encoding="utf-8")))
    assert [o["metadata"]["name"] for o in kept] == ["walk-with-defaults", "walk-tuned", "quiet"]
    with kube.installed(original) as before, kube.installed(patched) as after:
        for obj in kept:
            name = obj["metadata"]["name"]
            assert before.dry_run(obj).accepted, name
            verdict = after.dry_run(obj)
            assert verdict.accepted, (name, verdict.message)
            assert _runtime_accepts(project, table, obj, tmp_path), name
        for name, spec, accepted in OTHERS:
            obj = _collector(name, spec)
            verdict = after.dry_run(obj)
            assert verdict.accepted == accepted, (name, verdict.message)
            assert _runtime_accepts(project, table, obj, tmp_path) == accepted, name
