"""Union shapes no fixture project has, judged by the real API server as in
tests/test_apiserver_unions.py: a `+nullable` member (the server keeps its null), and
validation-gen unions whose members are Go values (`""` and `0` are unset) with a
required and an optional discriminator. The CRD is written here as controller-gen writes
it for the Go; `markergen crd` patches it in memory."""

from __future__ import annotations

from pathlib import Path

import kubeserver
import pytest
import test_crd_k8s_modes
import unionspace
from crd_support import patch_go, rules_of

GO = """// +groupName=edge.example.com
package v1

// +enum
type Kind string

const (
	KindA Kind = "A"
	KindB Kind = "B"
)

// Nullable is a union whose member a is +nullable: the server keeps a null there.
type Nullable struct {
	// +unionDiscriminator
	// +optional
	Kind Kind `json:"kind,omitempty"`
	// +unionMember
	// +optional
	// +nullable
	A *Sub `json:"a,omitempty"`
	// +unionMember
	// +optional
	B *Sub `json:"b,omitempty"`
}

// +k8s:enum
type Mode string

const (
	ModeX Mode = "X"
	ModeY Mode = "Y"
)

// Values is a validation-gen union of value members and a required discriminator.
type Values struct {
	// +k8s:unionDiscriminator
	// +k8s:required
	Mode Mode `json:"mode"`
	// +k8s:unionMember
	// +k8s:optional
	// +optional
	X string `json:"x,omitempty"`
	// +k8s:unionMember
	// +k8s:optional
	// +optional
	Y int32 `json:"y,omitempty"`
}

// Optional is a validation-gen union whose discriminator is optional.
type Optional struct {
	// +k8s:unionDiscriminator
	// +k8s:optional
	// +optional
	Mode Mode `json:"mode,omitempty"`
	// +k8s:unionMember
	// +k8s:optional
	// +optional
	X *string `json:"x,omitempty"`
	// +k8s:unionMember
	// +k8s:optional
	// +optional
	Y *int32 `json:"y,omitempty"`
}

type Sub struct {
	// +optional
	V string `json:"v,omitempty"`
}

// +kubebuilder:object:root=true
type Thing struct {
	Spec     Nullable `json:"spec"`
	Values   Values   `json:"values"`
	Optional Optional `json:"optional"`
}
"""

CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.edge.example.com
spec:
  group: edge.example.com
  names:
    kind: Thing
    listKind: ThingList
    plural: things
    singular: thing
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion:
            type: string
          kind:
            type: string
          metadata:
            type: object
          spec:
            type: object
            properties:
              kind:
                type: string
                enum: [A, B]
              a:
                type: object
                nullable: true
                properties:
                  v:
                    type: string
              b:
                type: object
                properties:
                  v:
                    type: string
          values:
            type: object
            properties:
              mode:
                type: string
                enum: [X, "Y"]
              x:
                type: string
              "y":
                type: integer
                format: int32
            required:
            - mode
          optional:
            type: object
            properties:
              mode:
                type: string
                enum: [X, "Y"]
              x:
                type: string
              "y":
                type: integer
                format: int32
        required:
        - optional
        - spec
        - values
"""


# What the server and the runtime are known to judge differently here.
# - An optional `+k8s:enum` discriminator set to "": unset for validation-gen (the
#   runtime's reading of a field with a requiredness tag, kept for k8s.io/api's packages
#   that validation-gen serves from another package), while the CRD's enum rejects ""
#   present. The runtime table cannot tell a CRD-served package from such a package.
# - A bool mode discriminator: `markergen crd` writes no rule for it and says so (MG506);
#   the server accepts what the runtime rejects.
def _empty_optional_k8s_discriminator(j: unionspace.Judged, node: str, d: str) -> bool:
    return j.obj[node].get(d) == ""


KNOWN = "Thing/v1:optional:Optional.mode"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> unionspace.Project:
    root = tmp_path_factory.mktemp("edges")
    patched = patch_go(root, GO, CRD)
    assert not [d for d in patched.diagnostics if d.severity.name == "ERROR"]
    schema = patched.crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]
    for node in ("spec", "values", "optional"):
        assert rules_of(schema[node]), f"markergen crd wrote no rule on {node}"
    crd = unionspace.CRD(("crd.yaml",), patched.crd)
    return unionspace.Project("edges", root, (crd,), Path("-"), patched.table, "", "")


def test_server_and_runtime_agree_on_the_edge_unions(
    kube: kubeserver.Server, project: unionspace.Project
) -> None:
    sites = unionspace.sites(project)
    assert len(sites) == 3
    judged: list[unionspace.Judged] = []
    with kube.installed(project.crds[0].value) as handle:
        for site in sites:
            judged += [unionspace.judge(project, handle, site, label, overlay)
                       for label, overlay in unionspace.exhaustive(site, project.table)]  # fmt: skip
    # the shapes this file is about were sent
    labels = {(j.site, j.label) for j in judged}
    assert ("Thing/v1:spec:Nullable.kind", "a=null") in labels
    assert ("Thing/v1:values:Values.mode", "mode='X'+x=''") in labels
    assert ("Thing/v1:values:Values.mode", "mode='Y'+y=0") in labels
    bad = [j for j in judged if j.disagreement() is not None]
    print(f"edges: {len(sites)} sites, {len(judged)} objects, {len(bad)} disagreements")
    known = [j for j in bad if j.site == KNOWN]
    assert known and all(_empty_optional_k8s_discriminator(j, "optional", "mode") for j in known), (
        "\n".join(j.describe() for j in known)
    )
    rest = [j for j in bad if j.site != KNOWN]
    assert not rest, f"{len(rest)} of {len(judged)}:\n" + "\n".join(j.describe() for j in rest)


def test_server_and_runtime_agree_on_mode_unions(kube: kubeserver.Server, tmp_path: Path) -> None:
    """validation-gen's mode unions (`+k8s:modeDiscriminator` / `+k8s:ifMode`) of
    tests/test_crd_k8s_modes.py, whose rules that file evaluates with a CEL engine."""
    patched = patch_go(tmp_path, test_crd_k8s_modes.GO, test_crd_k8s_modes.CRD)
    crd = unionspace.CRD(("crd.yaml",), patched.crd)
    project = unionspace.Project("modes", tmp_path, (crd,), Path("-"), patched.table, "", "")
    sites = unionspace.sites(project)
    judged: list[unionspace.Judged] = []
    with kube.installed(patched.crd) as handle:
        for site in sites:
            judged += [unionspace.judge(project, handle, site, label, overlay)
                       for label, overlay in unionspace.exhaustive(site, project.table)]  # fmt: skip
    bad = [j for j in judged if j.disagreement() is not None]
    print(f"modes: {len(sites)} sites, {len(judged)} objects, {len(bad)} disagreements")
    assert "MG506" in {d.code for d in patched.diagnostics}
    unruled = [j for j in bad if j.site == "Thing/v1:spec:Spec.on"]
    assert unruled and all(j.server.accepted for j in unruled), unruled[0].describe()
    empty = [j for j in bad if j.site == "Thing/v1:spec:Spec.kind"]
    assert empty and all(_empty_optional_k8s_discriminator(j, "spec", "kind") for j in empty)
    bad = [j for j in bad if j not in unruled and j not in empty]
    assert not bad, f"{len(bad)} of {len(judged)}:\n" + "\n".join(j.describe() for j in bad)
