"""Layouts nobody here had looked at (issue 39): a Go module in a sub-directory whose
codegen script runs controller-gen into a scratch `_output/crds` and copies each file to
`../helm/<chart>/crds/` (testdata/projects/helmcopy), and make files whose other targets
(`clean`) remove what the generation writes. Each run is the real command line in a
copy of the fixture made a git repository."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from helpers import TESTDATA, run_cli

from markergen.project.outputs import find_crd_outputs

GUESTBOOKS = "webapp.example.com_guestbooks.yaml"
RULE = "x-kubernetes-validations"


def _repo(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(TESTDATA / "projects" / name, root)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def test_zero_config_crd_follows_the_copy_to_the_chart_outside_the_module(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path, "helmcopy")
    module = repo / "operator"
    chart = repo / "helm" / "guestbook" / "crds" / GUESTBOOKS
    before = chart.read_text(encoding="utf-8")
    assert RULE not in before
    run = run_cli(["crd"], module)
    assert run.code == 0, run.stderr
    assert (
        "markergen: using ../helm/guestbook/crds (from hack/update-codegen.sh:12: "
        "copy of _output/crds (hack/update-codegen.sh:9))" in run.stderr
    ), run.stderr
    assert f"markergen: patched ../helm/guestbook/crds/{GUESTBOOKS}" in run.stderr
    after = chart.read_text(encoding="utf-8")
    assert RULE in after
    it = iter(after.splitlines())
    assert all(line in it for line in before.splitlines())  # lines inserted only
    verify = run_cli(["crd", "--verify"], module)
    assert verify.code == 0 and "CRDs are up to date" in verify.stderr, verify.stderr


def test_a_clean_target_does_not_remove_the_generated_output(tmp_path: Path) -> None:
    """After `make codegen` the scratch output exists: it is patched beside the chart's
    copy; `clean`'s `rm -rf $(OUT_DIR)` is no step of the generation."""
    repo = _repo(tmp_path, "helmcopy")
    module = repo / "operator"
    scratch = module / "_output" / "crds"
    scratch.mkdir(parents=True)
    shutil.copy(repo / "helm" / "guestbook" / "crds" / GUESTBOOKS, scratch / GUESTBOOKS)
    targets = find_crd_outputs(module)
    assert [o.directory.as_posix() for o in targets.outputs] == [
        "_output/crds",
        "../helm/guestbook/crds",
    ]
    assert not any("removed" in note for note in targets.notes), targets.notes
    run = run_cli(["crd"], module)
    assert run.code == 0, run.stderr
    assert RULE in (scratch / GUESTBOOKS).read_text(encoding="utf-8")


def _makefile(root: Path, text: str) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "Makefile").write_text(text.replace("    ", "\t"), encoding="utf-8")
    for d in ("out", "chart/crds"):
        (root / d).mkdir(parents=True, exist_ok=True)


GEN = "controller-gen crd paths=./api/... output:crd:artifacts:config=out\n"


def test_only_the_targets_the_generation_runs_count(tmp_path: Path) -> None:
    """`clean` removes the output and `dist` moves it away, but neither runs with the
    generation; `helm`, which depends on `manifests`, copies it after."""
    _makefile(
        tmp_path,
        "manifests:\n    " + GEN + "helm: manifests\n    cp -r out/* chart/crds/\n"
        "clean:\n    rm -rf out\n"
        "dist:\n    mv out dist/\n",
    )
    targets = find_crd_outputs(tmp_path)
    assert [(o.directory.as_posix(), o.source) for o in targets.outputs] == [
        ("out", "Makefile:2"),
        ("chart/crds", "Makefile:4"),
    ]
    assert targets.notes == ()


def test_a_removal_the_generation_runs_still_counts(tmp_path: Path) -> None:
    """The same `rm -rf` as a step after the copy, in the generating target's recipe (or
    a target depending on it), takes the scratch directory away."""
    _makefile(
        tmp_path,
        "manifests:\n    " + GEN + "    cp out/*.yaml chart/crds/\n    rm -rf out\n"
        "clean:\n    rm -rf chart\n",
    )
    targets = find_crd_outputs(tmp_path)
    assert [o.directory.as_posix() for o in targets.outputs] == ["chart/crds"]
    assert targets.notes == ("Makefile:2: out is removed by Makefile:4; not used",)


def test_a_clean_prerequisite_runs_before_the_generation(tmp_path: Path) -> None:
    """`all: clean manifests`: make runs clean first, so the output is written after its
    removal and stays."""
    _makefile(
        tmp_path,
        "all: clean manifests\nclean:\n    rm -rf out\nmanifests:\n    " + GEN,
    )
    targets = find_crd_outputs(tmp_path)
    assert [o.directory.as_posix() for o in targets.outputs] == ["out"]
    assert targets.notes == ()


def test_a_sub_make_runs_the_goals_it_is_given(tmp_path: Path) -> None:
    _makefile(tmp_path, "manifests:\n    " + GEN + "    $(MAKE) -C chart sync\n")
    (tmp_path / "chart" / "Makefile").write_text(
        "sync:\n\tcp ../out/*.yaml crds/\nreset:\n\trm -rf crds ../out\n", encoding="utf-8"
    )
    targets = find_crd_outputs(tmp_path)
    assert [o.directory.as_posix() for o in targets.outputs] == ["out", "chart/crds"]
    assert targets.notes == ()


def test_a_copy_out_of_the_repository_is_not_followed(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    _makefile(repo / "module", "manifests:\n    " + GEN + "    cp out/*.yaml ../../elsewhere/\n")
    (tmp_path / "elsewhere").mkdir()
    targets = find_crd_outputs(repo / "module")
    assert [o.directory.as_posix() for o in targets.outputs] == ["out"]
