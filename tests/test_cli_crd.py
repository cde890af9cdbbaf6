"""`markergen crd` through the command line on the example kubebuilder project:
discovery without arguments, and the CRD warnings MG503 and MG505 (bad and good)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from crd_support import CRD_NAME, copy_example
from helpers import TESTDATA, run_cli

CRD_DIR = Path("config") / "crd" / "bases"
METHOD = (
    "                  method:\n"
    "                    description: method selects the delivery mechanism.\n"
    "                    type: string\n"
)


def test_kubebuilder_project_needs_no_arguments(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    assert run_cli(["check"], project).code == 0
    assert run_cli(["generate"], project).code == 0
    assert sorted(p.name for p in (project / "openapi").iterdir()) == [
        "openapi-v2.json", "openapi-v3.json", "unions_table.json", "unions_table.py",
    ]  # fmt: skip
    crd = project / CRD_DIR / CRD_NAME
    before = crd.read_text()
    res = run_cli(["crd"], project)
    assert res.code == 0, res.stderr
    assert "x-kubernetes-validations" in crd.read_text() and crd.read_text() != before
    assert run_cli(["crd", "--verify"], project).code == 0  # idempotent


def test_mg503_crd_enum_differs_from_go_and_is_kept(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    crd = project / CRD_DIR / CRD_NAME
    text = crd.read_text()
    assert METHOD in text
    wrong = METHOD.replace(
        "                    type: string\n",
        "                    enum:\n                    - Email\n                    type: string\n",
    )
    crd.write_text(text.replace(METHOD, wrong))
    res = run_cli(["crd"], project)
    assert res.code == 0, res.stderr  # a warning
    assert "MG503" in res.stderr and "method" in res.stderr
    assert wrong in crd.read_text()  # the CRD's enum is kept as written


def test_mg503_near_miss_enum_equal_to_go(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    crd = project / CRD_DIR / CRD_NAME
    text = crd.read_text()
    same = METHOD.replace(
        "                    type: string\n",
        "                    enum:\n                    - Email\n                    - Manual\n"
        "                    - Webhook\n                    type: string\n",
    )
    crd.write_text(text.replace(METHOD, same))
    res = run_cli(["crd"], project)
    assert res.code == 0, res.stderr
    assert "MG503" not in res.stderr


def test_mg505_non_v1_crd_is_left_untouched(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    crd = project / CRD_DIR / CRD_NAME
    old = crd.read_text().replace(
        "apiVersion: apiextensions.k8s.io/v1\n", "apiVersion: apiextensions.k8s.io/v1beta1\n", 1
    )
    crd.write_text(old)
    res = run_cli(["crd"], project)
    assert res.code == 0, res.stderr
    assert "MG505" in res.stderr and CRD_NAME in res.stderr
    assert crd.read_text() == old


def test_mg505_near_miss_v1_crd_is_patched(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    res = run_cli(["crd"], project)
    assert res.code == 0 and "MG505" not in res.stderr


def test_crd_without_arguments_patches_where_the_makefile_writes(tmp_path: Path) -> None:
    """The issue-22 project: controller-gen writes the CRDs twice (an included .mk file),
    the second copy Helm-wrapped. `markergen crd` names the directories, patches both
    copies (the template lines byte for byte), and writes no rule that rejects the
    project's own example: its two `+union` structs are documentation (MG360), which
    `check` reports once and `crd` neither enforces nor reports again per file."""
    project = tmp_path / "gameserver"
    shutil.copytree(TESTDATA / "projects" / "gameserver", project)
    helm = sorted((project / "charts" / "gameserver" / "templates" / "crds").glob("*.yaml"))
    assert helm
    before = {p: p.read_text() for p in helm}
    res = run_cli(["crd"], project)
    assert res.code == 0, res.stderr
    assert "using config/crd/bases (from tools/make/gen.mk:" in res.stderr
    assert "using charts/gameserver/templates/crds (from tools/make/gen.mk:" in res.stderr
    assert "MG5" not in res.stderr
    for path, text in before.items():
        after = path.read_text()
        first, last = text.splitlines()[0], text.splitlines()[-1]
        assert first.startswith("{{") and last.startswith("{{")
        assert after.splitlines()[0] == first and after.splitlines()[-1] == last
    assert any(p.read_text() != text for p, text in before.items())  # the Helm copy too
    res = run_cli(["check", "--format", "json"], project)
    assert res.code == 0, res.stderr
    assert sorted(d["code"] for d in json.loads(res.stdout)) == ["MG360", "MG360"]


def test_a_project_without_crds_is_told_so_as_a_user_error(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    shutil.rmtree(project / CRD_DIR)
    (project / "Makefile").unlink()
    res = run_cli(["crd"], project)
    assert res.code == 2, res.stderr
    assert "no CRD files given and none found" in res.stderr
    assert "internal error" not in res.stderr
    missing = run_cli(["crd", "nowhere.yaml"], project)
    assert missing.code == 2 and "nowhere.yaml: no such file" in missing.stderr
    assert "internal error" not in missing.stderr
