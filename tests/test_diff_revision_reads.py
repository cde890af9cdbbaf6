"""`markergen diff` of two git revisions reads only the API packages and the CRDs of each
revision, never the rest of the tree: a struct of the project's internal code is no API
type, and a blob missing from the repository (a partial clone whose remote is gone, an
object deleted) outside those files does not stop the diff. Real repositories built in
tmp_path with git; no network (a partial clone of a local repository over file://)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import TESTDATA

from markergen.diff import DiffInputError, run_diff

PROJECT = TESTDATA / "diff" / "crdproject"
INTERNAL = "internal/controller/settings.go"
SETTINGS = """package controller

// Settings is the controller's own configuration: no API type.
// +kubebuilder:validation:ExactlyOneOf=fast;safe{more}
type Settings struct {{
	// +optional
	Fast *bool `json:"fast,omitempty"`
	// +optional
	Safe *bool `json:"safe,omitempty"`
{field}}}
"""
GO = "api/v1/widget_types.go"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _repo(tmp_path: Path) -> Path:
    """crdproject without PROJECT (so the API packages are found by `+groupName=`, with
    a Makefile marking the project), an internal package with a union-like struct; the
    head drops `Large` from the size enum (Go and CRD) and a member of the internal
    struct."""
    root = tmp_path / "origin"
    shutil.copytree(PROJECT, root)
    (root / "PROJECT").unlink()
    (root / "Makefile").write_text("manifests:\n\t@echo controller-gen runs here\n")
    (root / INTERNAL).parent.mkdir(parents=True)
    (root / INTERNAL).write_text(
        SETTINGS.format(
            more=";more",
            field='\t// +optional\n\tMore *bool `json:"more,omitempty"`\n',
        )
    )
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    (root / INTERNAL).write_text(SETTINGS.format(more="", field=""))
    for rel, old, new in (
        (GO, "Enum=Small;Medium;Large", "Enum=Small;Medium"),
        (
            "config/crd/bases/example.com_widgets.yaml",
            "                - Medium\n                - Large\n",
            "                - Medium\n",
        ),
    ):
        text = (root / rel).read_text()
        assert old in text
        (root / rel).write_text(text.replace(old, new))
    git(root, "commit", "-qam", "head")
    return root


def _changes(root: Path) -> list[dict[str, object]]:
    result = run_diff("HEAD~1", "HEAD", root, "json")
    changes: list[dict[str, object]] = json.loads(result.text)["changes"]
    return changes


EXPECTED = [("enum-value-removed", "size")]


def test_internal_structs_are_no_api_types(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    changes = _changes(root)
    assert [(c["kind"], c["field"]) for c in changes] == EXPECTED, changes
    assert not any("Settings" in str(c["type"]) for c in changes)


def _drop_object(root: Path, spec: str) -> None:
    """Delete the loose object of a revision's file (the commits are not packed)."""
    oid = git(root, "rev-parse", spec).strip()
    (root / ".git" / "objects" / oid[:2] / oid[2:]).unlink()
    with pytest.raises(subprocess.CalledProcessError):
        git(root, "cat-file", "-e", oid)


def test_a_missing_blob_outside_the_api_does_not_stop_the_diff(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _drop_object(root, "HEAD~1:" + INTERNAL)
    # what `git archive` of the whole tree did with it
    proc = subprocess.run(
        ["git", "-C", str(root), "archive", "HEAD~1"], capture_output=True, check=False
    )
    assert proc.returncode != 0
    assert [(c["kind"], c["field"]) for c in _changes(root)] == EXPECTED


def test_a_missing_blob_of_an_api_package_names_the_file(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _drop_object(root, "HEAD~1:" + GO)
    with pytest.raises(DiffInputError, match=rf"^base 'HEAD~1': {GO}: .*missing"):
        run_diff("HEAD~1", "HEAD", root, "json")


def test_a_partial_clone_without_its_remote(tmp_path: Path) -> None:
    origin = _repo(tmp_path)
    git(origin, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--filter=blob:none", f"file://{origin}", str(clone))
    # The checkout fetched the head's blobs; the base's API and CRD files are fetched
    # as a reviewer's earlier look at them would; the base's internal file never is.
    for rel in (GO, "config/crd/bases/example.com_widgets.yaml"):
        git(clone, "cat-file", "-p", f"HEAD~1:{rel}")
    shutil.rmtree(origin)  # the remote is gone: nothing more can be fetched
    internal = git(clone, "rev-parse", "HEAD~1:" + INTERNAL).strip()
    missing = git(clone, "rev-list", "--objects", "--missing=print", "HEAD~1")
    assert f"?{internal}" in missing
    assert [(c["kind"], c["field"]) for c in _changes(clone)] == EXPECTED
