"""Where `markergen crd` with no path looks: the controller-gen runs of the Makefile and
the `*.mk` files it includes (`output:crd:artifacts:config`, `output:crd:dir`,
`output:dir` with the crd generator, `paths=`), else config/crd/bases."""

from __future__ import annotations

from pathlib import Path

from markergen.project.outputs import CrdOutput, find_crd_outputs

MAKEFILE = """\
include tools/make/*.mk
-include missing.mk

.PHONY: manifests
manifests: controller-gen
\t$(MAKE) gen-crds
"""

GEN_MK = """\
CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen
HELM_CRDS := charts/app/templates/crds
TYPES = ./api/...

# The chart's copy is wrapped in {{- if .Values.crds.enabled }} by the next step.
gen-crds:
\t$(CONTROLLER_GEN) crd:crdVersions=v1 paths="$(TYPES)" \\
\t\toutput:crd:artifacts:config=config/crd/bases
\t$(CONTROLLER_GEN) crd paths="$(TYPES)" output:crd:dir=$(HELM_CRDS)
\t$(CONTROLLER_GEN) rbac:roleName=manager output:dir=config/rbac
\t$(CONTROLLER_GEN) crd paths=./other/... output:crd:artifacts:config=$(UNKNOWN)/crds
"""


def _project(tmp_path: Path) -> Path:
    (tmp_path / "Makefile").write_text(MAKEFILE, encoding="utf-8")
    (tmp_path / "tools" / "make").mkdir(parents=True)
    (tmp_path / "tools" / "make" / "gen.mk").write_text(GEN_MK, encoding="utf-8")
    for d in ("config/crd/bases", "charts/app/templates/crds", "config/rbac"):
        (tmp_path / d).mkdir(parents=True)
    return tmp_path


def test_outputs_of_included_mk_files_with_variables_and_continuations(tmp_path: Path) -> None:
    targets = find_crd_outputs(_project(tmp_path))
    assert targets.outputs == (
        CrdOutput(Path("config/crd/bases"), "tools/make/gen.mk:7"),
        CrdOutput(Path("charts/app/templates/crds"), "tools/make/gen.mk:9"),
    )
    # the rbac run has no crd generator; ./other/... comes from the run whose dir is unknown
    assert targets.types == ("./api/...", "./other/...")
    (note,) = targets.notes
    assert note.startswith("tools/make/gen.mk:11:") and "$(UNKNOWN)/crds" in note


def test_output_dir_counts_only_with_the_crd_generator(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(
        "m:\n\tcontroller-gen crd:maxDescLen=0 paths=./apis/... output:dir=deploy/crds\n",
        encoding="utf-8",
    )
    (tmp_path / "deploy" / "crds").mkdir(parents=True)
    targets = find_crd_outputs(tmp_path)
    assert targets.dirs == (Path("deploy/crds"),)
    assert targets.types == ("./apis/...",)


def test_missing_output_dir_is_a_note_and_the_default_applies(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(
        "m:\n\tcontroller-gen crd output:crd:artifacts:config=gone\n", encoding="utf-8"
    )
    (tmp_path / "config" / "crd" / "bases").mkdir(parents=True)
    targets = find_crd_outputs(tmp_path)
    assert targets.outputs == (
        CrdOutput(Path("config/crd/bases"), "default", "kubebuilder's layout"),
    )
    assert targets.notes == (
        "Makefile:2: CRD output gone does not exist (run `make manifests` first)",
    )


def test_no_makefile_and_no_default_finds_nothing(tmp_path: Path) -> None:
    targets = find_crd_outputs(tmp_path)
    assert targets.outputs == () and targets.types == () and targets.notes == ()


def test_paths_in_braces_with_spaces_after_the_commas(tmp_path: Path) -> None:
    """`paths="{./api/..., ./pkg/...}"` (a leader-worker-set project): two patterns."""
    (tmp_path / "Makefile").write_text(
        'm:\n\tcontroller-gen crd paths="{./api/..., ./pkg/...}" output:dir=deploy/crds\n',
        encoding="utf-8",
    )
    (tmp_path / "deploy" / "crds").mkdir(parents=True)
    assert find_crd_outputs(tmp_path).types == ("./api/...", "./pkg/...")
