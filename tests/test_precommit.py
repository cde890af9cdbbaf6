"""docs/ci.md's one setup: the Makefile target, the pre-commit hooks and the workflow run
the same checks, and the pre-commit configurations work as written: docs/ci.md's
`repo: local` one with the markergen of this test run, and the hooks markergen's
repository ships (`.pre-commit-hooks.yaml`) from a local clone with a tag, installed by
pre-commit itself. Each passes on the example project with current outputs and fails,
naming the hook, when a CRD lost its union rules.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from helpers import REPO, TESTDATA
from test_wheels import _copy_checkout

CI_MD = REPO / "docs" / "ci.md"
HOOK_KEYS = ("id", "entry", "files", "pass_filenames", "require_serial")
CRD = Path("config/crd/bases/webapp.example.com_guestbooks.yaml")


def _ci_md() -> str:
    return CI_MD.read_text(encoding="utf-8")


def _documented_config() -> str:
    return _ci_md().split("```yaml\n# .pre-commit-config.yaml\n", 1)[1].split("\n```", 1)[0]


def _shipped_hooks() -> list[dict[str, Any]]:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert isinstance(hooks, list)
    return hooks


def _make_target(text: str) -> list[str]:
    recipe = text.split("\nverify-unions:", 1)[1].split("\n\n", 1)[0]
    return [line.strip().replace("$(MARKERGEN)", "markergen")
            for line in recipe.splitlines()[1:] if line.startswith("\t")]  # fmt: skip


def test_one_set_of_checks_everywhere() -> None:
    documented = yaml.safe_load(_documented_config())
    (repo,) = documented["repos"]
    local = [{k: h[k] for k in HOOK_KEYS} for h in repo["hooks"]]
    shipped = [{k: h[k] for k in HOOK_KEYS} for h in _shipped_hooks()]
    assert local == shipped
    entries = [h["entry"] for h in shipped]
    assert entries == ["markergen check", "markergen generate --verify", "markergen crd --verify"]
    make_md = _ci_md().split("```make\n", 1)[1].split("```", 1)[0]
    assert _make_target(make_md) == entries
    example = (TESTDATA / "example" / "Makefile").read_text(encoding="utf-8")
    assert _make_target(example) == entries
    workflow = yaml.safe_load(
        _ci_md().split("```yaml\n# .github/workflows/api.yaml\n", 1)[1].split("\n```", 1)[0]
    )
    runs = [s.get("run", "").replace(" --format github", "")
            for s in workflow["jobs"]["markergen"]["steps"]]  # fmt: skip
    assert [r for r in runs if r in entries] == entries
    # The filter lets through every file the checks read, the CRDs included.
    paths = workflow[True]["pull_request"]["paths"]  # YAML 1.1 reads `on:` as true
    assert {"**.go", "markergen.yaml", "openapi/**", "config/crd/**"} <= set(paths)
    # kubebuilder.md sends readers to the one setup instead of giving its own.
    kubebuilder = (REPO / "docs" / "kubebuilder.md").read_text(encoding="utf-8")
    assert "repo: local" not in kubebuilder and "verify-unions:" not in kubebuilder
    assert "docs/ci.md" in kubebuilder.split("## pre-commit and CI", 1)[1]


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c",
         "init.defaultBranch=main", *args],
        cwd=cwd, check=True, capture_output=True, text=True, timeout=120,
    ).stdout  # fmt: skip


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRE_COMMIT", "GIT_"))}
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    # markergen of this test run for `language: system`, pre-commit from the same venv.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def _project(tmp_path: Path, config: str) -> Path:
    """The example project with its outputs current (as `make generate manifests`
    leaves it), committed in a git repository with the given pre-commit config."""
    project = tmp_path / "project"
    shutil.copytree(TESTDATA / "example", project)
    env = _env(tmp_path)
    for command in (["generate", "-q"], ["crd", "-q"]):
        subprocess.run([sys.executable, "-m", "markergen", *command], cwd=project, env=env,
                       check=True, capture_output=True, timeout=300)  # fmt: skip
    (project / ".pre-commit-config.yaml").write_text(config)
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "project")
    return project


def _pre_commit(project: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
        cwd=project, env=_env(tmp_path), capture_output=True, text=True, timeout=900,
        check=False,
    )  # fmt: skip


def _hook_lines(output: str) -> dict[str, str]:
    return dict(re.findall(r"^(markergen [^.\n]*?)\.{2,}(Passed|Failed)$", output, re.M))


def _stale_crd(project: Path) -> None:
    # controller-gen rewrote the CRD and `markergen crd` did not run after it.
    shutil.copy2(TESTDATA / "example" / CRD, project / CRD)


def _passes_then_catches_a_stale_crd(project: Path, tmp_path: Path) -> None:
    ok = _pre_commit(project, tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert _hook_lines(ok.stdout) == {
        "markergen check": "Passed",
        "markergen generate --verify": "Passed",
        "markergen crd --verify": "Passed",
    }, ok.stdout
    _stale_crd(project)
    stale = _pre_commit(project, tmp_path)
    assert stale.returncode == 1, stale.stdout + stale.stderr
    assert _hook_lines(stale.stdout)["markergen crd --verify"] == "Failed", stale.stdout
    assert _hook_lines(stale.stdout)["markergen check"] == "Passed"
    assert "x-kubernetes-validations" in stale.stdout  # the diff of what crd would add


def test_the_documented_local_hooks_as_written(tmp_path: Path) -> None:
    project = _project(tmp_path, _documented_config() + "\n")
    _passes_then_catches_a_stale_crd(project, tmp_path)


def test_the_shipped_hooks_from_a_clone_with_a_tag(tmp_path: Path) -> None:
    # markergen's repository as a team would name it: a git URL (here a local clone of
    # this checkout, uncommitted work included) and a tag of it. pre-commit clones it and
    # installs markergen from it into its own environment.
    source = tmp_path / "markergen"
    _copy_checkout(source)
    _git(source, "init", "-q")
    _git(source, "add", "-A")
    _git(source, "commit", "-q", "-m", "markergen")
    _git(source, "tag", "v0.1.0")
    hooks = "".join(f"      - id: {h['id']}\n" for h in _shipped_hooks())
    config = f"repos:\n  - repo: {source}\n    rev: v0.1.0\n    hooks:\n{hooks}"
    project = _project(tmp_path, config)
    _passes_then_catches_a_stale_crd(project, tmp_path)
