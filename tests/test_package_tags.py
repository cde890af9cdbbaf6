"""Package tags are read from every comment block above the package clause, as gengo
and controller-gen read them: kubernetes/api and openshift/api put `+groupName=` in a
block of its own, separated from the doc comment by a blank line."""

from __future__ import annotations

from helpers import TESTDATA

from markergen.model import Package
from markergen.pipeline import load_model

ROOT = TESTDATA / "golang" / "groupname"


def packages() -> dict[str, Package]:
    model = load_model(["./..."], ROOT)
    return {p.import_path.removeprefix("example.com/groupname/"): p for p in model.packages}


def test_group_name_in_a_block_of_its_own_is_read() -> None:
    assert packages()["apps/v1"].group_name == "apps.example.com"


def test_empty_group_name_is_the_core_group_not_an_error() -> None:
    core = packages()["core/v1"]
    assert core.group_name == ""
    model = load_model(["./..."], ROOT)
    assert [d.code for d in model.diagnostics] == []


def test_package_level_optional_default_is_read_from_the_separate_block() -> None:
    # `+kubebuilder:validation:Optional` in that block makes every field optional.
    names = {m.name for m in packages()["apps/v1"].markers}
    assert "kubebuilder:validation:Optional" in names
