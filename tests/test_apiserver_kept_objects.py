"""The real API server on testdata/projects/keptdocs: markergen's reading of "the CRD
accepts this object today" (markergen.accept.admit) is the server's on every kept object
and negative case; the patched CRD accepts every kept object the CRD accepted (the
proof), and rejects every negative case the CRD rejected, and the one it let through
(TLS without its configuration)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import kubeserver
import pytest
import yaml
from helpers import TESTDATA, run_cli

from markergen.accept.admit import crd_version_schema, rejection
from markergen.accept.celeval import CelEvaluator
from markergen.project.samples import SampleObject, load_samples

CRD = Path("config/crd/bases/net.example.com_tunnels-handwritten.yaml")
GROUPS = ["net.example.com"]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("kept") / "keptdocs"
    shutil.copytree(TESTDATA / "projects" / "keptdocs", root)
    return root


def _crd(path: Path) -> dict[str, Any]:
    value = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def _objects(root: Path) -> list[tuple[SampleObject, bool]]:
    """The kept objects, and the negative cases (the project's `hack/invalid-examples/`)."""
    kept = [(o, False) for o in load_samples(root, GROUPS)]
    invalid = sorted((root / "hack" / "invalid-examples").rglob("*.yaml"))
    negatives = [(p.relative_to(root).as_posix(), _crd(p)) for p in invalid]
    return kept + [(SampleObject(f, 1, GROUPS[0], "v1", v["kind"], v), True) for f, v in negatives]


def test_markergens_reading_of_today_is_the_servers(kube: kubeserver.Server, project: Path) -> None:
    crd = _crd(project / CRD)
    schema = crd_version_schema(crd, "v1")
    assert schema is not None
    objects = _objects(project)
    assert len(objects) == 6
    with kube.installed(crd) as handle:
        for obj, _ in objects:
            verdict = handle.dry_run(obj.value)
            ours = rejection(obj.value, schema, CelEvaluator())
            assert verdict.accepted == (ours is None), (obj.file, obj.line, ours, verdict.message)


def test_the_patched_crd_keeps_the_proof_and_the_negative_cases(
    kube: kubeserver.Server, project: Path
) -> None:
    original = _crd(project / CRD)
    objects = _objects(project)
    with kube.installed(original) as handle:
        before = {(o.file, o.line): handle.dry_run(o.value).accepted for o, _ in objects}
    assert run_cli(["crd"], project).code == 0
    patched = _crd(project / CRD)
    assert patched != original
    with kube.installed(patched) as handle:
        for obj, negative in objects:
            after = handle.dry_run(obj.value)
            if negative:
                assert not after.accepted, (obj.file, obj.line)
            elif before[(obj.file, obj.line)]:
                assert after.accepted, (obj.file, obj.line, after.message)
    # the negative case the CRD let through is the one markergen's rule now rejects
    let_through = [o.file for o, negative in objects if negative and before[(o.file, o.line)]]
    assert let_through == ["hack/invalid-examples/tunnel/tls-without-config.yaml"]
