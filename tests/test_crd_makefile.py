"""The make reader (`markergen.project.makefile`) and what `find_crd_outputs` makes of its
commands: make's variable flavours and functions, includes, sub-makes, `cd`, scripts,
and the copies, moves and removals that decide where the CRDs end up."""

from __future__ import annotations

import os
from pathlib import Path

from markergen.project.makefile import read_commands
from markergen.project.outputs import find_crd_outputs


def _tree(root: Path, files: dict[str, str], dirs: tuple[str, ...] = ()) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if name.endswith(".sh"):
            path.chmod(0o755)
    for d in dirs:
        (root / d).mkdir(parents=True, exist_ok=True)
    return root


def _echoed(root: Path) -> list[str]:
    """The words after `echo cp` of every command (a recipe that prints its variables)."""
    return [
        " ".join(c.words[2:]) for c in read_commands(root).commands if c.words[:2] == ("echo", "cp")
    ]


def test_variable_flavours_are_expanded_as_make_does(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "Makefile": (
                "LAZY = $(LATER)/x\n"
                "NOW := $(LATER)/x\n"
                "LATER = late\n"
                "SET ?= first\n"
                "SET ?= second\n"
                "LIST := a\n"
                "LIST += b\n"
                "POSIX ::= $(SET)\n"
                "override OVR = o # a comment\n"
                "define BLOCK\n"
                "multi\n"
                "endef\n"
                "SUB := $(LIST:%=%.yaml)\n"
                "show:\n"
                "\techo cp $(LAZY) [$(NOW)] ${SET} $(LIST) $(POSIX) $(OVR) $(BLOCK) $(SUB) $@\n"
                "\techo cp $(notdir a/b.yaml) $(subst a,z,abc) $(patsubst %.go,%.o,x.go)"
                " $(addprefix p/,q r) $(if $(SET),yes,no) $(if $(NONE),yes,no) $(UNKNOWN)\n"
            )
        },
    )
    # `:=` expands when set, before LATER exists: make would give "/x"; an unknown
    # variable is kept as written so that a path using it is reported, never guessed.
    assert _echoed(tmp_path) == [
        "late/x [$(LATER)/x] first a b first o multi a.yaml b.yaml show",
        "b.yaml zbc x.o p/q p/r yes no $(UNKNOWN)",
    ]


def test_paths_from_the_directory_make_runs_in(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "Makefile": (
                "ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))\n"
                "show:\n\techo cp $(shell pwd) $(CURDIR) $(ROOT)\n"
            )
        },
    )
    root = str(tmp_path)
    assert _echoed(tmp_path) == [f"{root} {root} {root}"]


def test_includes_with_globs_and_variables_and_a_missing_optional_one(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "Makefile": "MK := tools/make\ninclude $(MK)/*.mk\n-include nothing.mk\nsinclude none.mk\n",
            "tools/make/a.mk": "A := from-a\n",
            "tools/make/b.mk": "show:\n\techo cp $(A)\n",
        },
    )
    read = read_commands(tmp_path)
    assert [" ".join(c.words) for c in read.commands] == ["echo cp from-a"]
    assert [c.where for c in read.commands] == ["tools/make/b.mk:2"]
    assert [p.name for p in read.files] == ["Makefile", "a.mk", "b.mk"]


def test_sub_makes_with_a_file_a_directory_and_variables(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "Makefile": (
                "_run:\n\t@$(MAKE) --warn-undefined-variables -f tools/common.mk $(MAKECMDGOALS)\n"
                "api:\n\t+make -C api OUT=generated manifests\n"
            ),
            "tools/common.mk": "include tools/gen.mk\n",
            "tools/gen.mk": "gen:\n\tcontroller-gen crd output:crd:dir=charts/crds\n",
            "api/Makefile": "OUT ?= ignored\nmanifests:\n\tcontroller-gen crd output:crd:dir=$(OUT)\n",
        },
        dirs=("charts/crds", "api/generated"),
    )
    targets = find_crd_outputs(tmp_path)
    assert [(o.directory.as_posix(), o.source) for o in targets.outputs] == [
        ("charts/crds", "tools/gen.mk:2"),
        ("api/generated", "api/Makefile:3"),
    ]


def test_cd_moves_the_commands_after_it_in_one_recipe_line(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "Makefile": (
                "DOCKER := test/docker\n"
                "m:\n"
                "\tcd $(DOCKER); controller-gen \\\n"
                "\t\tpaths=./api/... crd output:crd:dir=./config/crd/bases\n"
                "\t(cd api && controller-gen crd paths=./... output:crd:dir=../crds) ;"
                " controller-gen crd paths=./x/... output:crd:dir=top\n"
            )
        },
        dirs=("test/docker/config/crd/bases", "crds", "top"),
    )
    targets = find_crd_outputs(tmp_path)
    assert [(o.directory.as_posix(), o.source) for o in targets.outputs] == [
        ("test/docker/config/crd/bases", "Makefile:3"),
        ("crds", "Makefile:5"),
        ("top", "Makefile:5"),
    ]
    assert targets.types == ("./test/docker/api/...", "./api/...", "./x/...")


def test_a_script_run_by_a_recipe_is_read_with_its_variables(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "Makefile": "gen:\n\thack/gen.sh\n\tbash ./hack/copy.sh\n",
            "hack/lib.sh": 'ROOT=$(cd $(dirname "${BASH_SOURCE[0]}")/.. && pwd)\nOUT="${ROOT}/deploy"\n',
            "hack/gen.sh": (
                "#!/usr/bin/env bash\n"
                'source "$(dirname "${BASH_SOURCE}")/lib.sh"\n'
                'go run sigs.k8s.io/controller-tools/cmd/controller-gen crd paths="./apis/..." \\\n'
                '  output:crd:artifacts:config="${OUT}/bases"\n'
            ),
            "hack/copy.sh": (
                'SCRIPT_ROOT="$(dirname "$0")/.."\ncp -r "${SCRIPT_ROOT}/deploy/bases" chart/\n'
            ),
        },
        dirs=("deploy/bases", "chart/bases"),
    )
    targets = find_crd_outputs(tmp_path)
    assert [(o.directory.as_posix(), o.source, o.how) for o in targets.outputs] == [
        ("deploy/bases", "hack/gen.sh:3", "controller-gen"),
        ("chart/bases", "hack/copy.sh:2", "copy of deploy/bases (hack/gen.sh:3)"),
    ]
    assert targets.types == ("./apis/...",)


def test_copies_moves_and_removals_decide_where_the_crds_end_up(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "Makefile": (
                "m:\n"
                "\tcontroller-gen crd output:crd:artifacts:config=tmp/crd/bases\n"
                "\tcp -r tmp/crd/bases helm/a/\n"  # helm/a/bases exists: copied inside
                "\trsync -a tmp/crd/bases/ helm/b\n"  # trailing slash: the contents
                "\tcp tmp/crd/bases/*.yaml helm/c/\n"
                "\tcp -R tmp/crd helm/d\n"  # a directory above the output
                "\tmv helm/c helm/e\n"
                "\trm -rf tmp/*\n"
            )
        },
        dirs=("helm/a/bases", "helm/b", "helm/d/bases", "helm/e"),
    )
    targets = find_crd_outputs(tmp_path)
    assert [(o.directory.as_posix(), o.source) for o in targets.outputs] == [
        ("helm/a/bases", "Makefile:3"),
        ("helm/b", "Makefile:4"),
        ("helm/d/bases", "Makefile:6"),
        ("helm/e", "Makefile:7"),
    ]
    assert targets.notes == (
        "Makefile:2: tmp/crd/bases is removed by Makefile:8; not used",
        "Makefile:5: helm/c is removed by Makefile:7; not used",
    )


def test_controller_gen_default_output_and_no_output(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "Makefile": (
                "m:\n\tcontroller-gen crd paths=./api/...\n"
                "\tcontroller-gen crd paths=./other/... output:none\n"
            )
        },
        dirs=("config/crd",),
    )
    targets = find_crd_outputs(tmp_path)
    assert [(o.directory.as_posix(), o.how) for o in targets.outputs] == [
        ("config/crd", "controller-gen's default output")
    ]


def test_outputs_under_vendor_are_never_used(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {"Makefile": "m:\n\tcontroller-gen crd output:crd:dir=vendor/x.io/api/crds\n"},
        dirs=("vendor/x.io/api/crds", "config/crd/bases"),
    )
    targets = find_crd_outputs(tmp_path)
    assert [o.directory.as_posix() for o in targets.outputs] == ["config/crd/bases"]
    assert "under vendor/" in targets.notes[0]


def test_loops_of_sub_makes_and_scripts_end(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "Makefile": "a:\n\t$(MAKE) -f other.mk\n\t./loop.sh\n",
            "other.mk": "b:\n\t$(MAKE) -f Makefile\n",
            "loop.sh": "#!/bin/sh\n./loop.sh\nmake\n",
        },
    )
    read = read_commands(tmp_path)
    assert len(read.commands) == 5


def test_nothing_outside_the_root_is_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.mk"
    outside.write_text("x:\n\tcontroller-gen crd output:crd:dir=/etc\n", encoding="utf-8")
    root = _tree(
        tmp_path / "p",
        {"Makefile": f"include {os.path.relpath(outside, tmp_path / 'p')}\nm:\n\t$(MAKE) -C ..\n"},
    )
    read = read_commands(root)
    assert [p.name for p in read.files] == ["Makefile"]


def test_go_generate_directives_plus_options_and_import_paths(tmp_path: Path) -> None:
    """`go generate ./hack/...` runs each `//go:generate` line in its package directory;
    controller-gen takes `+crd:...` options and import paths of the module in `paths=`."""
    _tree(
        tmp_path,
        {
            "go.mod": "module example.com/gw/v2\n",
            "Makefile": (
                'CRD_OPTIONS ?= "+crd:allowDangerousTypes=true"\n'
                "gen:\n\tGO111MODULE=on go generate ./hack/...\n"
                "\tcontroller-gen $(CRD_OPTIONS) paths=./api/... output:crd:dir=chart/crds\n"
            ),
            "hack/generate.go": "package hack\n\n//go:generate ./generate.sh\n",
            "hack/generate.sh": (
                "#!/bin/bash\n"
                'readonly ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE}")"/.. && pwd)"\n'
                "readonly APIS_PKG=example.com/gw/v2\n"
                'go run sigs.k8s.io/controller-tools/cmd/controller-gen crd paths="${APIS_PKG}/api/v1" \\\n'
                "    output:crd:artifacts:config=${ROOT_DIR}/install/crds/\n"
            ),
        },
        dirs=("install/crds", "chart/crds"),
    )
    targets = find_crd_outputs(tmp_path)
    assert [(o.directory.as_posix(), o.source) for o in targets.outputs] == [
        ("install/crds", "hack/generate.sh:4"),
        ("chart/crds", "Makefile:4"),
    ]
    assert targets.types == ("./api/v1", "./api/...")


def test_a_program_that_writes_the_crds_elsewhere_before_the_first_directory_goes(
    tmp_path: Path,
) -> None:
    """controller-gen writes hack/crd/bases, a Go program copies the files into the chart
    (markergen cannot follow its code) and the scratch directory is removed: the chart
    directory it names, which holds CRD files, is where they end up."""
    crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
    _tree(
        tmp_path,
        {
            "Makefile": (
                "CRD_MANIFESTS_PATH = charts/manager/crds\n"
                "manifests:\n"
                '\t$(CONTROLLER_GEN) crd paths="./api/..." output:crd:artifacts:config=hack/crd/bases\n'
                '\tgo run ./hack/generate.go --crd-dir="./hack/crd" --charts-crd-dir=$(CRD_MANIFESTS_PATH)'
                " --docs=docs\n"
                "\trm -rf hack/crd/bases\n"
            ),
            "charts/manager/crds/x.yaml": crd,
            "docs/readme.md": "no CRD here\n",
        },
    )
    targets = find_crd_outputs(tmp_path)
    assert [(o.directory.as_posix(), o.source, o.how) for o in targets.outputs] == [
        ("charts/manager/crds", "Makefile:4", "written from hack/crd/bases by go run ./hack/generate.go")
    ]
