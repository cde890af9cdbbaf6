"""`markergen crd` through the command line on the example kubebuilder project:
discovery without arguments, and the CRD warnings MG503 and MG505 (bad and good)."""

from __future__ import annotations

from pathlib import Path

from crd_support import CRD_NAME, copy_example
from helpers import run_cli

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
