"""`markergen crd --server` and `check --server` with a project's envtest binaries.

The binaries are the real kube-apiserver of Kubernetes v1.37.2 and the real etcd
(harness/envtest, built with Go), laid out where setup-envtest puts them for a kubebuilder
project's `make test` (`bin/k8s/<version>-<os>-<arch>/`) or named by KUBEBUILDER_ASSETS.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubeserver
import pytest
import yaml
from helpers import TESTDATA, run_cli

from markergen.crd.run import plan_files
from markergen.crd.serverproof import ServerStep, judge
from markergen.envtest import assets
from markergen.envtest.controlplane import ControlPlane
from markergen.pipeline import with_model
from markergen.project.samples import SampleObject

VERSION = "1.37.2"
GOOD = """\
apiVersion: webapp.example.com/v1
kind: Guestbook
metadata:
  name: sample
spec:
  delivery:
    method: Email
    email:
      address: guests@example.com
  storage:
    backend: S3
    s3:
      name: entries
"""


def _platform_dir() -> str:
    goos, goarch = assets._platform()
    return f"{VERSION}-{goos}-{goarch}"


@pytest.fixture(scope="session")
def envtest_bin() -> Path:
    """A directory with the real kube-apiserver and etcd, as setup-envtest leaves one."""
    try:
        kubeserver.go()
    except kubeserver.Unavailable as err:
        pytest.skip(str(err))
    apiserver, etcd = kubeserver.build("kube-apiserver"), kubeserver.build("etcd")
    directory = kubeserver.BIN / "envtest" / "k8s" / _platform_dir()
    directory.mkdir(parents=True, exist_ok=True)
    for built, name in ((apiserver, "kube-apiserver"), (etcd, "etcd")):
        target = directory / name
        if not target.exists() or target.stat().st_mtime < built.stat().st_mtime:
            shutil.copy2(built, target)
    return directory


@pytest.fixture
def project(tmp_path: Path, envtest_bin: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example project with one kept sample and the envtest binaries under bin/k8s/,
    the version named by the Makefile as a kubebuilder Makefile does."""
    root = tmp_path / "guestbook"
    shutil.copytree(TESTDATA / "example", root)
    (root / "config" / "samples").mkdir()
    (root / "config" / "samples" / "webapp_v1_guestbook.yaml").write_text(GOOD)
    makefile = root / "Makefile"
    makefile.write_text(f"ENVTEST_K8S_VERSION ?= {VERSION}\n" + makefile.read_text())
    store = root / "bin" / "k8s" / _platform_dir()
    store.mkdir(parents=True)
    for name in ("kube-apiserver", "etcd"):
        (store / name).symlink_to(envtest_bin / name)
    monkeypatch.delenv("KUBEBUILDER_ASSETS", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "no-setup-envtest"))
    return root


def _crd_text(root: Path) -> str:
    return (root / "config/crd/bases/webapp.example.com_guestbooks.yaml").read_text()


# --- finding the binaries (no server) -------------------------------------------------


def _fake_store(base: Path, version: str) -> Path:
    goos, goarch = assets._platform()
    d = base / "k8s" / f"{version}-{goos}-{goarch}"
    d.mkdir(parents=True)
    for name in ("kube-apiserver", "etcd"):
        (d / name).write_text("#!/bin/sh\n")
        (d / name).chmod(0o755)
    return d


def test_assets_are_found_as_make_test_finds_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "p"
    root.mkdir()
    monkeypatch.delenv("KUBEBUILDER_ASSETS", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert assets.find(root) is None
    # setup-envtest's own data directory, newest version
    _fake_store(tmp_path / "xdg" / "kubebuilder-envtest", "1.30.0")
    newest = _fake_store(tmp_path / "xdg" / "kubebuilder-envtest", "1.31.4")
    found = assets.find(root)
    assert found is not None and found.directory == newest and found.version == "1.31.4"
    assert "setup-envtest" in found.found_by
    # the project's bin/k8s, at the Makefile's version rather than the newest
    _fake_store(root / "bin", "1.33.0")
    pinned = _fake_store(root / "bin", "1.32.1")
    (root / "Makefile").write_text("ENVTEST_K8S_VERSION ?= 1.32.1\n")
    found = assets.find(root)
    assert found is not None and found.directory == pinned and "make test" in found.found_by
    # KUBEBUILDER_ASSETS wins over both
    chosen = _fake_store(tmp_path / "assets", "1.29.0")
    monkeypatch.setenv("KUBEBUILDER_ASSETS", str(chosen))
    found = assets.find(root)
    assert (
        found is not None and found.directory == chosen and found.found_by == "KUBEBUILDER_ASSETS"
    )
    # a directory given by the setting, which must hold both binaries
    assert assets.find(root, str(pinned)) is not None
    (pinned / "etcd").unlink()
    assert assets.find(root, str(pinned)) is None


def test_a_server_directory_without_binaries_is_a_clear_error(tmp_path: Path) -> None:
    root = tmp_path / "guestbook"
    shutil.copytree(TESTDATA / "example", root)
    (root / "markergen.yaml").write_text(f"server: {tmp_path / 'nothing'}\n")
    res = run_cli(["crd"], cwd=root)
    assert res.code == 2, res.stderr
    assert "holds no kube-apiserver and etcd" in res.stderr and "Traceback" not in res.stderr


# --- with the real kube-apiserver and etcd ----------------------------------------------


def test_crd_uses_the_projects_envtest_server(project: Path, tmp_path: Path) -> None:
    off = tmp_path / "off"
    shutil.copytree(project, off, symlinks=True)
    res = run_cli(["crd"], cwd=project)
    assert res.code == 0, res.stderr
    line = next(x for x in res.stderr.splitlines() if "envtest binaries" in x)
    assert f"Kubernetes {VERSION}" in line and "bin/k8s, as `make test` uses it" in line
    m = re.search(r"(\d+) CRD\(s\) created, (\d+) kept object\(s\) dry-run in [\d.]+ s", line)
    assert m is not None, line
    assert int(m[1]) >= 1 and int(m[2]) == 1
    # the server agreed with markergen's own proof: the same CRD, byte for byte
    res_off = run_cli(["crd", "--server", "off"], cwd=off)
    assert res_off.code == 0, res_off.stderr
    assert "envtest" not in res_off.stderr
    assert (
        _crd_text(project)
        == _crd_text(off)
        != (TESTDATA / "example/config/crd/bases/webapp.example.com_guestbooks.yaml").read_text()
    )


def test_without_binaries_nothing_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "guestbook"
    shutil.copytree(TESTDATA / "example", root)
    monkeypatch.delenv("KUBEBUILDER_ASSETS", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    auto = run_cli(["crd"], cwd=root, env={"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert auto.code == 0 and "envtest" not in auto.stderr
    other = tmp_path / "other"
    shutil.copytree(TESTDATA / "example", other)
    off = run_cli(["crd", "--server", "off"], cwd=other)
    assert off.code == 0
    assert _crd_text(root) == _crd_text(other)


def test_check_server_reports_the_same_as_check(project: Path) -> None:
    plain = run_cli(["check", "--format", "json"], cwd=project)
    served = run_cli(["check", "--server", "--format", "json"], cwd=project)
    assert served.code == plain.code == 0, served.stderr
    assert served.stdout == plain.stdout
    assert "envtest binaries" in served.stderr and "envtest" not in plain.stderr


# --- the server's verdicts reach the patcher ---------------------------------------------


@pytest.fixture
def plane(envtest_bin: Path) -> Iterator[ControlPlane]:
    found = assets.find(Path("."), str(envtest_bin))
    assert found is not None
    with ControlPlane(found) as cp:
        yield cp


def _patch_with(root: Path, step: ServerStep) -> tuple[dict[Path, str], list[Any]]:
    files = sorted((root / "config/crd/bases").glob("*.yaml"))
    cwd = Path.cwd()
    os.chdir(root)
    try:
        outputs, found = with_model(
            ["./api/..."],
            root,
            False,
            lambda model: plan_files(files, model, root=root, server=step),
        )
    finally:
        os.chdir(cwd)
    return outputs, [f.for_crd() for f in found]


def test_a_crd_the_server_refuses_is_not_written(project: Path, plane: ControlPlane) -> None:
    """A CRD whose rules the server cannot compile: here markergen's rules, made
    uncompilable on their way to the server (as a markergen bug would make them), so
    the server's real refusal is what the patcher acts on."""

    def broken(changed: Any, originals: Any, display: Any, samples: Any) -> Any:
        bad = {p: t.replace("has(self.email)", "has(self.nosuchfield)") for p, t in changed.items()}
        return judge(plane.client, bad, originals, display, samples)

    step = ServerStep("the API server of the test", broken)
    outputs, diagnostics = _patch_with(project, step)
    assert outputs == {}  # the file is left as it was
    refusals = [d for d in diagnostics if d.code == "MG515"]
    assert refusals, [str(d) for d in diagnostics]
    first = refusals[0]
    assert first.pos.file.endswith("api/v1/union_types.go")  # at the union's marker
    assert "undefined field 'nosuchfield'" in first.message
    assert step.verdicts is not None and step.verdicts.refused


def test_an_object_the_server_rejects_withholds_the_rule(
    project: Path, plane: ControlPlane
) -> None:
    """An object the project keeps that markergen's rules reject on the server: fed to
    the server alone here, so the rule is withheld on the server's word."""
    value = yaml.safe_load(GOOD)
    value["spec"]["delivery"] = {"method": "Email"}  # the selected member left unset
    extra = SampleObject(
        "config/samples/extra.yaml", 1, "webapp.example.com", "v1", "Guestbook", value
    )

    def with_extra(changed: Any, originals: Any, display: Any, samples: Any) -> Any:
        return judge(plane.client, changed, originals, display, [*samples, extra])

    step = ServerStep("the API server of the test", with_extra)
    outputs, diagnostics = _patch_with(project, step)
    withheld = [d for d in diagnostics if d.code == "MG510"]
    assert len(withheld) == 1, [str(d) for d in diagnostics]
    message = withheld[0].message
    assert "Guestbook at config/samples/extra.yaml:1" in message
    assert "the API server of the test rejects" in message and "it says:" in message
    assert withheld[0].pos.file.endswith("api/v1/union_types.go")
    # the CRD is still written, without that one rule, and the server accepts it
    (text,) = outputs.values()
    rule = re.search(r"`([^`]*\(union [^`]*\))`", message)
    assert rule is not None and rule[1] not in text
    crd = next(d for d in yaml.safe_load_all(text) if d)
    handle = plane.client.install(crd)
    try:
        assert handle.dry_run(value).accepted
        assert handle.dry_run(yaml.safe_load(GOOD)).accepted
    finally:
        handle.delete()
