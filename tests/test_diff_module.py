"""`markergen diff` across a Go module renamed between the two sides
(testdata/diff/modulerename: `a.example/shop` -> `b.example/shop`, same packages).
Packages pair by their path inside the module, so the changes inside show and no
package is reported removed or added."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from helpers import TESTDATA

from markergen.diff import run_diff

RENAME = TESTDATA / "diff" / "modulerename"
INSIDE = {
    ("member-removed", "cash", "example.b.shop.api.v1.Payment"),
    ("enum-value-removed", "type", "example.b.shop.api.v1.Payment"),
    ("enum-value-removed", "priority", "example.b.shop.api.v1.Order"),
}


def _changes(base: str, head: str | None, cwd: Path) -> set[tuple[str, str | None, str]]:
    return {(c.kind, c.field, c.type) for c in run_diff(base, head, cwd).changes}


def test_renamed_module_pairs_packages_by_their_path_inside_it() -> None:
    got = _changes(str(RENAME / "base"), str(RENAME / "head"), RENAME)
    assert got == INSIDE


def test_renamed_module_between_two_revisions(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(RENAME / "base", repo)

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
            cwd=repo,
            check=True,
            capture_output=True,
        )

    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-qm", "base")
    shutil.rmtree(repo / "api")
    # copyfile, not copy2: a kept mtime of a same-size go.mod hides the edit from git
    shutil.copytree(RENAME / "head", repo, dirs_exist_ok=True, copy_function=shutil.copyfile)
    git("add", "-A")
    git("commit", "-qm", "module moves")
    assert _changes("HEAD~1", "HEAD", repo) == INSIDE
    # the other way round: the same packages, the member comes back
    back = _changes("HEAD", "HEAD~1", repo)
    assert ("member-added", "cash", "example.a.shop.api.v1.Payment") in back
    assert not any(k.startswith("package-") for k, _, _ in back)
