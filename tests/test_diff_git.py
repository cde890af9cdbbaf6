"""`markergen diff` on git revisions of a real repository made in tmp_path. A revision is
read from git (ls-tree, cat-file); the working tree, the index and HEAD must stay untouched."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import TESTDATA

from markergen.diff import DiffInputError, run_diff

DIFF = TESTDATA / "diff"
PAYMENT = "com.example.shop.api.v1.Payment"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def put(src: Path, dest: Path) -> None:
    """Replace dest's content (but .git) with src's."""
    for child in dest.iterdir():
        if child.name != ".git":
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    shutil.copytree(src, dest, dirs_exist_ok=True)


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    put(DIFF / "base", r)
    commit(r, "base")
    git(r, "tag", "v1")
    put(DIFF / "heads" / "removed", r)
    commit(r, "remove cash")
    return r


def state(repo: Path) -> tuple[str, str, str]:
    index = hashlib.sha256((repo / ".git" / "index").read_bytes()).hexdigest()
    # --no-optional-locks: a plain `git status` may itself rewrite the index to refresh
    # racily-clean entries (files changed in the second the index was written), which
    # would make this probe, not markergen, change the index.
    status = git(repo, "--no-optional-locks", "status", "--porcelain")
    return status, git(repo, "rev-parse", "HEAD"), index


def kinds(base: str, head: str | None, cwd: Path) -> set[tuple[str, str | None]]:
    return {(c.kind, c.field) for c in run_diff(base, head, cwd).changes}


REMOVED = {
    ("member-removed", "cash"),
    ("enum-value-removed", "type"),
    ("enum-value-removed", "priority"),
}


def test_two_revisions(repo: Path) -> None:
    before = state(repo)
    assert kinds("v1", "main", repo) == REMOVED
    assert kinds("HEAD~1", "HEAD", repo) == REMOVED
    assert state(repo) == before


def test_head_defaults_to_the_working_tree_with_uncommitted_changes(repo: Path) -> None:
    put(DIFF / "heads" / "member-added", repo)  # not committed, not staged
    before = state(repo)
    # v1 -> working tree: voucher added; main -> working tree: cash comes back.
    assert kinds("v1", None, repo) == {("member-added", "voucher")}
    assert ("member-added", "cash") in kinds("main", None, repo)
    assert state(repo) == before
    assert "voucher" in (repo / "api" / "v1" / "types.go").read_text()


def test_from_a_subdirectory_the_module_is_found_in_the_revision(repo: Path) -> None:
    # cwd below the module root: import paths still come from go.mod.
    sub = repo / "api"
    result = run_diff("main~1", "HEAD", sub, "json")
    assert {(c.type, c.kind, c.field) for c in result.changes} >= {
        (PAYMENT, "member-removed", "cash")
    }


def test_a_name_that_is_both_a_path_and_a_revision_is_refused(repo: Path) -> None:
    # In api/, "v1" is the directory api/v1 and the tag v1.
    with pytest.raises(DiffInputError, match=r"^base 'v1': both a path and a git revision"):
        run_diff("v1", "HEAD", repo / "api")
    assert kinds("v1^{commit}", "HEAD", repo / "api") == REMOVED
    assert kinds("./v1", "HEAD", repo / "api") == set()  # the directory is the working tree


def test_revision_and_path_of_a_generated_document(repo: Path, tmp_path: Path) -> None:
    doc = (DIFF / "documents" / "base-openapi-v3.json").read_text()
    (repo / "openapi").mkdir()
    (repo / "openapi" / "openapi-v3.json").write_text(doc)
    commit(repo, "generated")
    (repo / "openapi" / "openapi-v3.json").write_text(doc.replace('"Slow"', '"Slower"'))
    got = kinds("HEAD:openapi/openapi-v3.json", "openapi/openapi-v3.json", repo)
    assert got == {("enum-value-removed", "mode"), ("enum-value-added", "mode")}


def test_config_inputs_choose_the_packages(repo: Path) -> None:
    # hack/ has a union too; markergen.yaml limits the inputs to ./api/..., so a
    # change there is not reported, while without the config it is.
    (repo / "hack").mkdir()
    (repo / "hack" / "tools.go").write_text(
        "package hack\n\ntype Tool struct {\n\t// +k8s:zeroOrOneOfMember\n\t// +optional\n"
        '\tA *string `json:"a,omitempty"`\n\t// +k8s:zeroOrOneOfMember\n\t// +optional\n'
        '\tB *string `json:"b,omitempty"`\n}\n'
    )
    commit(repo, "hack")
    (repo / "hack" / "tools.go").write_text("package hack\n\ntype Tool struct{ X int }\n")
    assert ("union-removed", None) in kinds("HEAD", None, repo)
    (repo / "markergen.yaml").write_text("inputs: [./api/...]\n")
    git(repo, "add", "markergen.yaml")
    # Commit the config only: the hack/ change stays in the working tree.
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "cfg")
    assert git(repo, "status", "--porcelain").strip() == "M hack/tools.go"
    assert kinds("HEAD", None, repo) == set()


def test_unknown_revision_names_the_side(repo: Path) -> None:
    with pytest.raises(DiffInputError) as err:
        run_diff("no-such-rev", None, repo)
    assert str(err.value).startswith("base 'no-such-rev': ")
    assert "git revision" in str(err.value)
    with pytest.raises(DiffInputError, match=r"^head 'v9': "):
        run_diff("v1", "v9", repo)


def test_outside_a_repository(tmp_path: Path) -> None:
    with pytest.raises(DiffInputError, match=r"^base 'main': neither a file"):
        run_diff("main", None, tmp_path)


def test_revision_without_go_files_is_an_input_error(repo: Path) -> None:
    for child in (repo / "api").iterdir():
        shutil.rmtree(child)
    (repo / "README.md").write_text("empty\n")
    commit(repo, "drop api")
    with pytest.raises(DiffInputError, match=r"^head 'HEAD': cannot read Go inputs"):
        run_diff("v1", "HEAD", repo)
