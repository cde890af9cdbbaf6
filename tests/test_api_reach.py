"""Zero-config reads the packages the API types reach (issue 39,
testdata/projects/sharedapi): the `+groupName` packages and the project's packages they
import, transitively; the same packages from the repository's top and from the module's
directory; a package of shared API types is read, internal code is not."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from helpers import TESTDATA, run_cli

from markergen.golang.packages import api_reach_patterns

READ = {"example.com/sharedapi/operator/api/v1", "example.com/sharedapi/operator/pkg/apis/shared"}


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "sharedapi"
    shutil.copytree(TESTDATA / "projects" / "sharedapi", root)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def test_the_same_packages_from_the_top_and_from_the_module(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    for where in (repo, repo / "operator"):
        dump = run_cli(["dump"], where)
        assert dump.code == 0, dump.stderr
        model = json.loads(dump.stdout)
        assert {p["import_path"] for p in model["packages"]} == READ, where
        check = run_cli(["check", "--no-cache"], where)
        assert check.code == 0, check.stderr
        # the shared package's union and enum; not internal/controller's Phase enum
        assert "2 packages of example.com/sharedapi/operator (1 union, 1 enum)" in check.stderr


def test_the_patterns_name_each_package_reached(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    assert api_reach_patterns(repo) == ("./operator/api/v1", "./operator/pkg/apis/shared")
    assert api_reach_patterns(repo / "operator") == ("./api/v1", "./pkg/apis/shared")
    # without a package that declares a group: None (markergen reads ./...)
    (repo / "operator" / "api" / "v1" / "doc.go").write_text("package v1\n", encoding="utf-8")
    assert api_reach_patterns(repo / "operator") is None


def test_an_import_of_another_module_or_vendor_is_not_followed(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    types = repo / "operator" / "api" / "v1" / "widget_types.go"
    types.write_text(
        types.read_text(encoding="utf-8").replace(
            'import "example.com/sharedapi/operator/pkg/apis/shared"',
            'import (\n\t"example.com/sharedapi/operator/pkg/apis/shared"\n'
            '\t_ "k8s.io/apimachinery/pkg/apis/meta/v1"\n'
            '\tx "example.com/sharedapi/operator/vendor/y"\n)\n\nvar _ = x.Y',
        ),
        encoding="utf-8",
    )
    assert api_reach_patterns(repo / "operator") == ("./api/v1", "./pkg/apis/shared")
