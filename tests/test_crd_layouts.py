"""`markergen crd` with no argument on the project layouts that hid the CRDs from a
line-by-line reading of the Makefile (testdata/projects/): a top Makefile that only
starts a sub-make, controller-gen output copied elsewhere and deleted, openshift's
crd-manifest-merge generator with its payload copy, and an API in a nested module.
The layouts share one Guestbook API and CRD (testdata/projects/_layout, linked in).
Each run is the real command line in a copy of the fixture: the right directories are
named with their line, the project's CRDs get their rules, and no vendored or foreign
CRD changes by a byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import TESTDATA, run_cli

PROJECTS = TESTDATA / "projects"
GUESTBOOKS = "webapp.example.com_guestbooks.yaml"
RULE = "x-kubernetes-validations"


def _copy(tmp_path: Path, name: str) -> Path:
    dest = tmp_path / name
    shutil.copytree(PROJECTS / name, dest)
    return dest


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".markergen-cache" not in p.parts
    }


def _changed(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    return sorted(k for k in after if before.get(k) != after[k])


# (fixture, lines `markergen: using ...` must print, files that must change)
LAYOUTS = [
    (
        "submake",
        ["using charts/guestbook/crds/generated (from tools/make/kube.mk:7)"],
        [f"charts/guestbook/crds/generated/{GUESTBOOKS}"],
    ),
    (
        "copydelete",
        [
            "using charts/guestbook/crds (from Makefile:11: copy of hack/crd/bases (Makefile:9))",
            "note: Makefile:9: hack/crd/bases is removed by Makefile:13; not used",
            "1 CRD file(s) of group monitoring.coreos.com left alone",
        ],
        [f"charts/guestbook/crds/{GUESTBOOKS}"],
    ),
    (
        "openshift",
        [
            "using webapp/v1/zz_generated.crd-manifests (from hack/update-codegen-crds.sh:7: "
            "openshift crd-manifest-merge)",
            # `for f in ${crd_globs}; do cp "$f" ...`: the loop's one glob is the source
            "using payload-manifests/crds (from hack/update-payload-crds.sh:12: "
            "copy of webapp/v1/zz_generated.crd-manifests (hack/update-codegen-crds.sh:7))",
            "vendor/github.com/openshift/api/config/v1/zz_generated.crd-manifests is under "
            "vendor/ (another project's); not used",
            "1 CRD file(s) of group config.openshift.io left alone",
            "1 CRD file(s) of group monitoring.coreos.com left alone",
        ],
        [
            "payload-manifests/crds/0000_10_webapp_01_guestbooks.crd.yaml",
            "webapp/v1/zz_generated.crd-manifests/0000_10_webapp_01_guestbooks.crd.yaml",
        ],
    ),
    (
        "nested",
        ["using config/crd/bases (from Makefile:7)"],
        [f"config/crd/bases/{GUESTBOOKS}"],
    ),
]


@pytest.mark.parametrize(("name", "said", "patched"), LAYOUTS, ids=[n for n, _, _ in LAYOUTS])
def test_zero_config_crd_finds_the_layouts_crds_and_touches_nothing_else(
    tmp_path: Path, name: str, said: list[str], patched: list[str]
) -> None:
    root = _copy(tmp_path, name)
    before = _files(root)
    result = run_cli(["crd"], root)
    assert result.code == 0, result.stderr
    for text in said:
        assert text in result.stderr, result.stderr
    # one note per foreign group, and only those (a schema property named `group` is
    # no CRD group)
    notes = [line for line in result.stderr.splitlines() if "left alone: no input" in line]
    assert len(notes) == sum("left alone" in text for text in said), result.stderr
    after = _files(root)
    assert _changed(before, after) == patched
    for path in patched:
        assert RULE in after[path].decode()
    # Only inserted lines: every original line is still there, in order.
    for path in patched:
        old, new = before[path].decode().splitlines(), after[path].decode().splitlines()
        it = iter(new)
        assert all(line in it for line in old)
    # `markergen crd --verify` agrees that the patched tree is up to date.
    verify = run_cli(["crd", "--verify"], root)
    assert verify.code == 0, verify.stderr
    assert "CRDs are up to date" in verify.stderr


def test_vendored_crds_stay_untouched_even_when_a_vendored_make_file_regenerates_them(
    tmp_path: Path,
) -> None:
    root = _copy(tmp_path, "openshift")
    vendored = {k: v for k, v in _files(root).items() if k.startswith(("vendor/", "manifests/"))}
    assert any(RULE not in v.decode() for v in vendored.values())
    run_cli(["crd"], root)
    assert {k: v for k, v in _files(root).items() if k in vendored} == vendored


def test_foreign_crds_are_patched_when_named_on_the_command_line(tmp_path: Path) -> None:
    """The group filter applies only to what markergen found by itself."""
    root = _copy(tmp_path, "copydelete")
    named = root / "charts" / "guestbook" / "crds" / GUESTBOOKS
    result = run_cli(["crd", str(named)], root)
    assert result.code == 0, result.stderr
    assert "left alone" not in result.stderr


def test_a_crd_run_alone_leaves_a_cache_git_ignores(tmp_path: Path) -> None:
    root = _copy(tmp_path, "submake")
    assert not (root / ".markergen-cache").exists()
    assert run_cli(["crd"], root).code == 0
    ignore = root / ".markergen-cache" / ".gitignore"
    assert ignore.read_text(encoding="utf-8").splitlines()[-1] == "*"


def test_zero_config_reads_the_api_of_a_nested_module(tmp_path: Path) -> None:
    """api/ has its own go.mod: `./...` at the root stops there (as for the go command),
    so without markergen reading it on its own the root module's 1 package has no
    union and check says nothing. Zero-config reads the packages the API types reach
    (issue 39): api/v1, not the root module's cmd/manager, which no API type reaches."""
    root = _copy(tmp_path, "nested")
    dump = run_cli(["dump"], root)
    assert dump.code == 0, dump.stderr
    model = json.loads(dump.stdout)
    paths = {p["import_path"] for p in model["packages"]}
    assert paths == {"example.com/nested/api/v1"}
    # the module's one union (Delivery); the root module's package declares none
    assert sum(len(s["unions"]) for s in model["structs"].values()) == 1
    generate = run_cli(["generate"], root)
    assert generate.code == 0, generate.stderr
    table = json.loads((root / "openapi" / "unions_table.json").read_text(encoding="utf-8"))
    assert "com.example.nested.api.v1.Delivery" in table["types"]
