"""`markergen validate` and `normalize` take the type from the object's own `apiVersion`
and `kind`: a `--type` that is ambiguous in the table (two groups with a kind named
Build, testdata/runtime/twobuilds) names one type for an object that says which, and
without `--type` the object's apiVersion and kind are enough."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import TESTDATA, run_cli

BUILD = "apiVersion: build.example.io/v1\nkind: Build\nspec:\n  type: Git\n  binary: {}\n"
CONFIG = "apiVersion: config.example.io/v1\nkind: Build\nspec:\n  mode: None\n"
BAD_CONFIG = "apiVersion: config.example.io/v1\nkind: Build\nspec:\n  mode: Proxy\n"
BUILD_ERRORS = (
    'spec.git: Required value: must be set when type is "Git"\n'
    'spec.binary: Forbidden: may only be set when type is "Binary"\n'
)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("twobuilds") / "p"
    shutil.copytree(TESTDATA / "runtime" / "twobuilds", root)
    assert run_cli(["generate"], root).code == 0
    return root


def _write(root: Path, name: str, text: str) -> str:
    (root / name).write_text(text, encoding="utf-8")
    return name


@pytest.mark.parametrize("type_args", [["--type", "Build"], []], ids=["type-Build", "no-type"])
def test_the_objects_apiversion_and_kind_pick_the_type(project: Path, type_args: list[str]) -> None:
    build = run_cli(["validate", *type_args, _write(project, "b.yaml", BUILD)], project)
    assert (build.code, build.stdout) == (1, BUILD_ERRORS), build.stderr
    # the other Build: its union has other fields, so a wrong pick would show
    config = run_cli(["validate", *type_args, _write(project, "c.yaml", CONFIG)], project)
    assert (config.code, config.stdout) == (0, ""), config.stderr
    bad = run_cli(["validate", *type_args, _write(project, "bad.yaml", BAD_CONFIG)], project)
    assert bad.code == 1 and "spec.proxy: Required value" in bad.stdout, bad.stdout


def test_each_document_of_a_stream_is_its_own_type(project: Path) -> None:
    stream = _write(project, "s.yaml", CONFIG + "---\n" + BUILD + "---\n" + BAD_CONFIG)
    run = run_cli(["validate", stream], project)
    assert run.code == 1
    assert run.stdout.splitlines() == [
        f"s.yaml:6: {line}" for line in BUILD_ERRORS.splitlines()
    ] + ['s.yaml:12: spec.proxy: Required value: must be set when mode is "Proxy"']


def test_still_ambiguous_without_apiversion_and_kind(project: Path) -> None:
    bare = _write(project, "n.yaml", "spec:\n  type: Git\n")
    run = run_cli(["validate", "--type", "Build", bare], project)
    assert run.code == 2
    assert "type 'Build' is ambiguous" in run.stderr
    assert "com.example.twobuilds.build.v1.Build" in run.stderr
    none = run_cli(["validate", bare], project)
    assert none.code == 2
    assert "n.yaml: the object has no apiVersion and kind; give --type" in none.stderr
    assert "Traceback" not in none.stderr + run.stderr


def test_a_kind_the_table_lacks_names_itself(project: Path) -> None:
    other = _write(project, "o.yaml", "apiVersion: apps/v1\nkind: Deployment\nspec: {}\n")
    run = run_cli(["validate", other], project)
    assert run.code == 2
    assert "no type for kind 'Deployment' (apps/v1); give --type" in run.stderr


def test_normalize_takes_the_type_from_the_object_too(project: Path) -> None:
    build = _write(project, "b.yaml", BUILD)
    for args in (["normalize", build], ["normalize", "--type", "Build", build]):
        run = run_cli(args, project)
        assert run.code == 0, run.stderr
        assert "kind: Build" in run.stdout
