"""Issue 39 item 5: make conditionals are evaluated with the variables known where they
stand, as make does, instead of every branch counting. The recipes print what they would
copy (`echo cp ...`), so the commands read show which branches were taken; each case is
also run through GNU make itself when it is installed, as the reference."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from markergen.project.makefile import read_commands
from markergen.project.outputs import find_crd_outputs


def _echoed(root: Path) -> list[str]:
    return [
        " ".join(c.words[2:]) for c in read_commands(root).commands if c.words[:2] == ("echo", "cp")
    ]


def _make_says(root: Path) -> list[str] | None:
    """What GNU make prints for `make -n all` (the `echo cp` lines), or None without make."""
    make = shutil.which("make")
    if make is None:
        return None
    res = subprocess.run(
        [make, "-s", "-n", "all"], cwd=root, capture_output=True, text=True, check=True, env={}
    )
    return [line.removeprefix("echo cp ") for line in res.stdout.splitlines() if "echo cp" in line]


CASES = {
    "ifeq-taken": (
        "MODE = helm\nifeq ($(MODE),helm)\nOUT = charts/crds\nelse\nOUT = config/crd\nendif\n",
        ["a charts/crds"],
    ),
    "ifneq-quoted": (
        'MODE := kustomize\nifneq "$(MODE)" "helm"\nOUT = config/crd\nelse\nOUT = charts\nendif\n',
        ["a config/crd"],
    ),
    "else-if-chain": (
        "CHANNEL ?= experimental\n"
        "ifeq ($(CHANNEL),standard)\nOUT = std\n"
        "else ifeq ($(CHANNEL),experimental)\nOUT = exp\n"
        "else\nOUT = other\nendif\n",
        ["a exp"],
    ),
    "ifdef-undefined-and-empty": (
        "EMPTY =\nifdef EMPTY\nOUT = wrong\nelse ifdef NEVER_SET\nOUT = wrong2\n"
        "else\nOUT = right\nendif\n",
        ["a right"],
    ),
    "ifndef-nested": (
        "A = 1\nifndef B\n  ifeq ($(A),1)\n  OUT = nested\n  endif\nelse\nOUT = outer\nendif\n",
        ["a nested"],
    ),
    "recipe-lines-in-a-branch": (
        "OUT = x\nTOOL = cg\n",
        ["a x"],
    ),
}

RECIPE = "all:\n\techo cp a $(OUT)\n"
BRANCHED_RECIPE = "all:\nifeq ($(TOOL),cg)\n\techo cp a $(OUT)\nelse\n\techo cp b $(OUT)\nendif\n"


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_branch_make_takes_is_the_one_read(tmp_path: Path, case: str) -> None:
    text, expected = CASES[case]
    recipe = BRANCHED_RECIPE if case == "recipe-lines-in-a-branch" else RECIPE
    (tmp_path / "Makefile").write_text(text + recipe)
    assert _echoed(tmp_path) == expected
    reference = _make_says(tmp_path)
    if reference is not None:
        assert reference == expected


def test_an_unknown_condition_counts_every_branch(tmp_path: Path) -> None:
    # markergen does not run `go env`: either branch may be the one, so both count
    (tmp_path / "Makefile").write_text(
        "ifeq ($(shell go env GOOS),linux)\nOUT = linux\nelse\nOUT = other\nendif\n"
        "all:\n\techo cp a $(OUT)\n"
    )
    assert _echoed(tmp_path) == ["a other"]  # the later assignment wins, as before


def test_an_output_in_a_branch_not_taken_is_not_found(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(
        "USE_HELM = false\n"
        "manifests:\n"
        "\tcontroller-gen crd paths=./... output:crd:artifacts:config=config/crd/bases\n"
        "ifeq ($(USE_HELM),true)\n"
        "\tcp config/crd/bases/*.yaml charts/app/crds/\n"
        "endif\n"
    )
    (tmp_path / "config" / "crd" / "bases").mkdir(parents=True)
    (tmp_path / "charts" / "app" / "crds").mkdir(parents=True)
    assert [o.directory.as_posix() for o in find_crd_outputs(tmp_path).outputs] == [
        "config/crd/bases"
    ]
    text = (tmp_path / "Makefile").read_text().replace("USE_HELM = false", "USE_HELM = true")
    (tmp_path / "Makefile").write_text(text)
    dirs = sorted(o.directory.as_posix() for o in find_crd_outputs(tmp_path).outputs)
    assert "charts/app/crds" in dirs, dirs
