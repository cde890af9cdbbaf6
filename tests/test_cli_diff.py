"""`markergen diff` through the command line, on a real git repository."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from helpers import TESTDATA, run_cli

DIFF = TESTDATA / "diff"


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def test_breaking_change_against_a_revision_fails_the_check(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(DIFF / "base", repo)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    # The working tree gets the version that renames members.
    heads = sorted(p.name for p in (DIFF / "heads").iterdir())
    assert "member-renamed" in heads, heads
    shutil.rmtree(repo / "api")
    shutil.copytree(DIFF / "heads" / "member-renamed" / "api", repo / "api")

    res = run_cli(["diff", "HEAD", "--format", "json", "--fail-on", "breaking"], repo)
    assert res.code == 1, res.stderr
    report = json.loads(res.stdout)
    assert report["breaking"] >= 1
    assert any(c["kind"] == "member-renamed" for c in report["changes"])

    res = run_cli(["diff", "HEAD", "--format", "markdown"], repo)
    assert res.code == 0  # no --fail-on: the report alone
    assert res.stdout.splitlines()[0].startswith("**markergen**")
    assert "| " in res.stdout


def test_unknown_revision_is_exit_2_naming_the_side(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(DIFF / "base", repo)
    git(repo, "init", "-q")
    res = run_cli(["diff", "no-such-rev"], repo)
    assert res.code == 2
    assert "no-such-rev" in res.stderr and "Traceback" not in res.stderr


def test_bad_options_are_usage_errors(tmp_path: Path) -> None:
    res = run_cli(["diff", ".", ".", "--fail-on", "sometimes"], tmp_path)
    assert res.code == 2 and "sometimes" in res.stderr
