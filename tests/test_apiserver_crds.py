"""Every CRD `markergen crd` writes for the fixture projects is created on the real CRD API
server (tests/kubeserver.py): each must compile and fit the server's CEL cost budgets, as
must the fixtures' CRDs before patching. A refusal fails with the server's message.

Each fixture project is copied, `markergen crd` runs on the copy through the real command
line (as the existing tests run it: tests/test_cli_crd.py, tests/test_crd_*.py), and every
document of every CRD file in the copy is installed (Helm chart copies with their template
lines left out, as Helm renders them with the chart's CRDs enabled). A CRD that is the same
before and after, or repeated in several files, is installed once.
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kubeserver
import pytest
import yaml
from helpers import TESTDATA, run_cli

# A Helm action that fills its line (`{{- if .Values.crds.install }}`, `{{- end }}`).
_TEMPLATE_LINE = re.compile(r"^\s*\{\{.*\}\}\s*$")


@dataclass(frozen=True)
class Run:
    """One `markergen crd` run on a copy of a fixture project."""

    fixture: str  # under testdata/
    args: tuple[str, ...]

    @property
    def id(self) -> str:
        return " ".join((self.fixture, *self.args[1:]))


def _runs() -> list[Run]:
    runs = [
        Run("example", ("crd",)),
        Run("crd/cost", ("crd",)),
        # the openshift crd-manifests fixture has no Makefile: the tests name its directory
        Run("crd/openshift", ("crd", "ingress/v1/zz_generated.crd-manifests")),
    ]
    for project in sorted((TESTDATA / "projects").iterdir()):
        if (project / "go.mod").is_file():
            runs.append(Run(f"projects/{project.name}", ("crd",)))
    return runs


RUNS = _runs()


def _documents(path: Path) -> Iterator[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    text = "".join(line for line in lines if not _TEMPLATE_LINE.match(line))
    for doc in yaml.safe_load_all(text):
        if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
            yield doc


def _crds(root: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every CRD document under `root` by its canonical JSON: (the file that holds it, it)."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".yaml", ".yml") or not path.is_file():
            continue
        if ".markergen-cache" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "CustomResourceDefinition" not in text:
            continue
        for doc in _documents(path):
            key = json.dumps(doc, sort_keys=True)
            found.setdefault(key, (path.relative_to(root).as_posix(), doc))
    return found


def _rules(value: Any) -> int:
    """How many x-kubernetes-validations rules `value` holds."""
    if isinstance(value, dict):
        own = value.get("x-kubernetes-validations")
        return (len(own) if isinstance(own, list) else 0) + sum(
            _rules(v) for k, v in value.items() if k != "x-kubernetes-validations"
        )
    if isinstance(value, list):
        return sum(_rules(v) for v in value)
    return 0


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r.id)
def test_every_crd_markergen_writes_is_created_by_the_api_server(
    kube: kubeserver.Server, tmp_path: Path, run: Run
) -> None:
    project = tmp_path / "project"
    shutil.copytree(TESTDATA / run.fixture, project)
    before = _crds(project)
    result = run_cli(list(run.args), project)
    assert result.code == 0, result.stderr
    after = _crds(project)
    written = {k: v for k, v in after.items() if k not in before}
    # the run patched something: the CRDs it wrote hold rules the fixture's did not
    assert written, f"`markergen {' '.join(run.args)}` wrote no CRD:\n{result.stderr}"
    assert sum(_rules(doc) for _, doc in written.values()) > sum(
        _rules(before[k][1]) for k in before if k not in after
    ), result.stderr
    refused: list[str] = []
    for label, crds in (("written by markergen", written), ("before patching", before)):
        for file, doc in crds.values():
            try:
                with kube.installed(doc):
                    pass
            except kubeserver.CRDRefused as err:
                refused.append(f"{file} ({label}): {err.name}: {err.message}")
    assert not refused, "the API server refused:\n" + "\n".join(refused)


ESCAPED_GO = """// +groupName=esc.example.com
package v1

// Spec is a union whose fields CEL reaches only by escaped names.
type Spec struct {
	// +unionDiscriminator
	// +optional
	In string `json:"in,omitempty"`

	// +unionMember
	// +optional
	Dotted *string `json:"a.b,omitempty"`

	// +unionMember
	// +optional
	Slashed *string `json:"x/y,omitempty"`

	// +unionMember
	// +optional
	Under *string `json:"a__b,omitempty"`

	// +unionMember
	// +optional
	Return *string `json:"return,omitempty"`

	// +unionMember
	// +optional
	Dash *string `json:"if-not,omitempty"`
}

// Pick is an undiscriminated union: at most one member.
type Pick struct {
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Namespace *string `json:"namespace,omitempty"`

	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Null *string `json:"null,omitempty"`

	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Label *string `json:"k8s.io/name,omitempty"`
}

// +kubebuilder:object:root=true
type Thing struct {
	Spec Spec `json:"spec,omitempty"`
	Pick Pick `json:"pick,omitempty"`
}
"""


def _escaped_crd() -> dict[str, Any]:
    def strings(*names: str) -> dict[str, Any]:
        return {"type": "object", "properties": {n: {"type": "string"} for n in names}}

    return _crd_of(
        "esc.example.com",
        {
            "spec": strings("in", "a.b", "x/y", "a__b", "return", "if-not"),
            "pick": strings("namespace", "null", "k8s.io/name"),
        },
    )


def test_rules_over_property_names_cel_must_escape_compile_and_enforce(
    kube: kubeserver.Server, tmp_path: Path
) -> None:
    """Reserved words (`in`, `return`, `namespace`, `null`), `.`, `/`, `-` and `__` in
    property names: the rules `markergen crd` writes reach them as the server escapes
    them, and the server enforces the unions through them."""
    doc = _patched_project(tmp_path, ESCAPED_GO, _escaped_crd())
    text = json.dumps(doc)
    for escaped in ("__in__", "a__dot__b", "x__slash__y", "a__underscores__b", "__return__",
                    "if__dash__not", "__namespace__", "__null__", "k8s__dot__io__slash__name"):  # fmt: skip
        assert f"self.{escaped}" in text, escaped
    with kube.installed(doc) as crd:
        verdicts = {
            name: crd.dry_run({"apiVersion": "esc.example.com/v1", **obj})
            for name, obj in {
                "each member with its value": {"spec": {"in": "Dotted", "a.b": "x"}},
                "slash": {"spec": {"in": "Slashed", "x/y": "x"}},
                "underscores": {"spec": {"in": "Under", "a__b": "x"}},
                "reserved": {"spec": {"in": "Return", "return": "x"}},
                "dash": {"spec": {"in": "Dash", "if-not": "x"}},
                "one of pick": {"pick": {"k8s.io/name": "x"}},
                "selected member missing": {"spec": {"in": "Dotted"}},
                "other member set": {"spec": {"in": "Slashed", "x/y": "y", "a.b": "x"}},
                "two of pick": {"pick": {"k8s.io/name": "x", "null": "y"}},
            }.items()
        }
    accepted = {name for name, v in verdicts.items() if v.accepted}
    assert accepted == {
        "each member with its value", "slash", "underscores", "reserved", "dash", "one of pick"
    }, {n: v.message for n, v in verdicts.items()}  # fmt: skip
    assert verdicts["selected member missing"].fields() == {"spec.a.b"}
    assert verdicts["other member set"].fields() == {"spec.a.b"}
    assert verdicts["two of pick"].fields() == {"pick"}


@pytest.mark.parametrize("module", ["test_crd_k8s_modes", "test_crd_k8s_wrapped"])
def test_crds_of_the_validation_gen_tests_are_created_by_the_api_server(
    kube: kubeserver.Server, tmp_path: Path, module: str
) -> None:
    """The Go and CRD the validation-gen tests patch in memory (mode unions, wrapped
    types), through the command line as a user runs it, then created on the server."""
    source = importlib.import_module(module)
    (tmp_path / "go.mod").write_text("module example.com/k8s\n\ngo 1.24\n")
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1" / "types.go").write_text(source.GO)
    crd_file = tmp_path / "crd.yaml"
    crd_file.write_text(source.CRD)
    result = run_cli(["crd", "--types", "./...", "crd.yaml"], tmp_path)
    assert result.code == 0, result.stderr
    (doc,) = _documents(crd_file)
    assert _rules(doc) > 0, result.stderr
    try:
        with kube.installed(doc):
            pass
    except kubeserver.CRDRefused as err:
        pytest.fail(f"the API server refused {module}'s CRD: {err.message}")


TYPED_GO = """// +groupName=typed.example.com
package v1

// Mode selects where data is kept.
// +enum
type Mode int32

const (
	ModeDisk Mode = iota + 1
	ModeNet
)

// Ratio selects a scale.
// +enum
type Ratio float64

const (
	RatioHalf  Ratio = 0.5
	RatioWhole Ratio = 1
)

type Disk struct {
	Size int32 `json:"size,omitempty"`
}

type Store struct {
	// +unionDiscriminator
	// +optional
	Mode Mode `json:"mode,omitempty"`
	// +unionMember=1
	// +optional
	Disk *Disk `json:"disk,omitempty"`
	// +unionMember=2
	// +optional
	Net *Disk `json:"net,omitempty"`
}

type Scale struct {
	// +unionDiscriminator
	// +optional
	Ratio Ratio `json:"ratio,omitempty"`
	// +unionMember=0.5
	// +optional
	Half *Disk `json:"half,omitempty"`
	// +unionMember=1.0
	// +optional
	Whole *Disk `json:"whole,omitempty"`
}

// +kubebuilder:object:root=true
type Thing struct {
	Store Store `json:"store,omitempty"`
	Scale Scale `json:"scale,omitempty"`
}
"""


def test_rules_over_integer_and_number_discriminators_compile_and_enforce(
    kube: kubeserver.Server, tmp_path: Path
) -> None:
    """`self.mode == 1` on an integer, `self.ratio == 0.5` on a number: the server
    compiles them and compares JSON numbers as markergen's runtime does (1 is 1.0)."""
    disk = {"type": "object", "properties": {"size": {"type": "integer", "format": "int32"}}}
    crd = _crd_of(
        "typed.example.com",
        {
            "store": {
                "type": "object",
                "properties": {"mode": {"type": "integer", "format": "int32"}, "disk": disk, "net": disk},
            },
            "scale": {
                "type": "object",
                "properties": {"ratio": {"type": "number"}, "half": disk, "whole": disk},
            },
        },
    )  # fmt: skip
    doc = _patched_project(tmp_path, TYPED_GO, crd)
    assert _rules(doc) == 8
    cases = {
        "int selected": ({"store": {"mode": 1, "disk": {}}}, None),
        "int other member": ({"store": {"mode": 1, "net": {}}}, {"store.disk", "store.net"}),
        "int missing": ({"store": {"mode": 2}}, {"store.net"}),
        "number as integer": ({"scale": {"ratio": 1, "whole": {}}}, None),
        "number selected": ({"scale": {"ratio": 0.5, "half": {}}}, None),
        "number other member": ({"scale": {"ratio": 1.0, "half": {}}}, {"scale.half", "scale.whole"}),
        "number missing": ({"scale": {"ratio": 0.5}}, {"scale.half"}),
    }  # fmt: skip
    with kube.installed(doc) as installed:
        for name, (obj, fields) in cases.items():
            v = installed.dry_run({"apiVersion": "typed.example.com/v1", **obj})
            assert v.accepted == (fields is None), (name, v.message)
            assert fields is None or v.fields() == fields, (name, v.message)


def _crd_of(group: str, props: dict[str, Any]) -> dict[str, Any]:
    """A one-version CRD of kind Thing whose root has `props` besides the type's own."""
    root = {
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object"},
            **props,
        },
    }
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"things.{group}"},
        "spec": {
            "group": group,
            "names": {"kind": "Thing", "listKind": "ThingList", "plural": "things", "singular": "thing"},
            "scope": "Namespaced",
            "versions": [
                {"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": root}}
            ],
        },
    }  # fmt: skip


def _patched_project(tmp_path: Path, go: str, crd: dict[str, Any]) -> dict[str, Any]:
    """`markergen crd` on a project of package api/v1 (`go`) and config/crd/bases (`crd`):
    the CRD it writes."""
    (tmp_path / "go.mod").write_text("module example.com/m\n\ngo 1.24\n")
    (tmp_path / "api" / "v1").mkdir(parents=True)
    (tmp_path / "api" / "v1" / "types.go").write_text(go)
    bases = tmp_path / "config" / "crd" / "bases"
    bases.mkdir(parents=True)
    crd_file = bases / f"{crd['spec']['group']}_things.yaml"
    crd_file.write_text(yaml.safe_dump(crd))
    result = run_cli(["crd", "config/crd/bases"], tmp_path)
    assert result.code == 0, result.stderr
    (doc,) = _documents(crd_file)
    return doc
