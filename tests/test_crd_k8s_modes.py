"""`markergen crd` and validation-gen's mode unions (`+k8s:modeDiscriminator` /
`+k8s:ifMode`): the rules written are proved before writing, and evaluated here with a
real CEL engine on objects whose verdict the runtime (validation-gen's semantics) gives;
they must agree. A bool mode discriminator gets no rule, with an info."""

from __future__ import annotations

from typing import Any

import pytest

from markergen.crd.celeval import CelEvaluator
from markergen.crd.patch import patch_text
from markergen.crd.yamlio import load_documents
from markergen.diagnostics import Diagnostic
from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.model import Model
from markergen.pipeline import load_model
from markergen.runtime import Table, validate

GO = """// +groupName=k8s.example.com
package v1

// +k8s:enum
type Kind string

const (
	KindFast  Kind = "Fast"
	KindSlow  Kind = "Slow"
	KindOther Kind = "Other"
)

type Spec struct {
	// +k8s:modeDiscriminator
	// +k8s:optional
	// +optional
	Kind Kind `json:"kind,omitempty"`

	// +k8s:ifMode("Fast")=+k8s:required
	// +optional
	Fast *int32 `json:"fast,omitempty"`

	// +k8s:ifMode("Fast")=+k8s:optional
	// +k8s:ifMode("Slow")=+k8s:optional
	// +optional
	Shared []string `json:"shared,omitempty"`

	// +k8s:ifMode("Slow")=+k8s:required
	// +k8s:ifMode("Other")=+k8s:forbidden
	// +optional
	Slow *string `json:"slow,omitempty"`

	// +k8s:modeDiscriminator(modality: "On")
	// +optional
	On bool `json:"on,omitempty"`

	// +k8s:ifMode(modality: "On", mode: "true")=+k8s:required
	// +optional
	Settings *string `json:"settings,omitempty"`
}

// +kubebuilder:object:root=true
type Thing struct {
	Spec Spec `json:"spec"`
}
"""

CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.k8s.example.com
spec:
  group: k8s.example.com
  names:
    kind: Thing
    plural: things
  scope: Namespaced
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              kind:
                type: string
                enum:
                - Fast
                - Other
                - Slow
              fast:
                type: integer
              shared:
                type: array
                maxItems: 4
                items:
                  type: string
              slow:
                type: string
              "on":
                type: boolean
              settings:
                type: string
    served: true
    storage: true
"""


@pytest.fixture(scope="module")
def patched(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Model, dict[str, Any], list[Diagnostic]]:
    root = tmp_path_factory.mktemp("crd")
    (root / "go.mod").write_text("module example.com/k8s\n\ngo 1.24\n")
    (root / "v1").mkdir()
    (root / "v1" / "types.go").write_text(GO)
    model = load_model(["./..."], root)
    text, diags = patch_text(model, CRD, "crd.yaml")
    (doc,) = load_documents(text)
    return model, doc.value, diags


def _spec(crd: dict[str, Any]) -> dict[str, Any]:
    node: dict[str, Any] = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    return node["properties"]["spec"]  # type: ignore[no-any-return]


def _rules(node: dict[str, Any]) -> list[str]:
    return [r["rule"] for r in node.get("x-kubernetes-validations", [])]


def test_rules_say_required_and_forbidden_per_mode(
    patched: tuple[Model, dict[str, Any], list[Diagnostic]],
) -> None:
    _, crd, diags = patched
    rules = _rules(_spec(crd))
    assert 'has(self.fast) || !(has(self.kind) && self.kind == "Fast")' in rules
    assert (
        '!(has(self.shared) && size(self.shared) > 0) || (has(self.kind) && self.kind == "Fast")'
        ' || (has(self.kind) && self.kind == "Slow")'
    ) in rules
    assert not any("self.on" in r or "self.settings" in r for r in rules)
    infos = [d for d in diags if d.code == "MG506"]
    assert [d.severity.value for d in infos] == ["info"] and "is a bool" in infos[0].message


OBJECTS: list[dict[str, Any]] = [
    {},
    {"kind": "Fast", "fast": 1},
    {"kind": "Fast"},
    {"kind": "Fast", "fast": 1, "shared": ["a"]},
    {"kind": "Fast", "fast": 1, "slow": "s"},
    {"kind": "Slow", "slow": "s", "shared": ["a"]},
    {"kind": "Slow", "shared": []},
    {"kind": "Other", "slow": "s"},
    {"kind": "Other", "shared": ["a"]},
    {"kind": "Other"},
    {"fast": 1},
    {"shared": ["a"]},
]


@pytest.mark.parametrize("obj", OBJECTS, ids=[str(o) for o in OBJECTS])
def test_cel_verdict_is_validation_gens(
    patched: tuple[Model, dict[str, Any], list[Diagnostic]], obj: dict[str, Any]
) -> None:
    model, crd, _ = patched
    table = Table.from_dict(build_table(model, EmitOptions()))
    runtime_ok = validate(table, "com.example.k8s.v1.Spec", obj) == []
    evaluator = CelEvaluator()
    assert all(evaluator.passes(r, obj) for r in _rules(_spec(crd))) == runtime_ok
