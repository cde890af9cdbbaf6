"""`markergen crd` and validation-gen's mode unions (`+k8s:modeDiscriminator` /
`+k8s:ifMode`): the rules written are proved before writing, and evaluated here with a
real CEL engine on objects whose verdict the runtime (validation-gen's semantics) gives;
they must agree. A bool mode discriminator gets no rule, with an info."""

from __future__ import annotations

from typing import Any

import pytest
from crd_support import PatchedGo, patch_go, rules_of, spec_schema

from markergen.accept.celeval import CelEvaluator
from markergen.runtime import validate

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
def patched(tmp_path_factory: pytest.TempPathFactory) -> PatchedGo:
    return patch_go(tmp_path_factory.mktemp("crd"), GO, CRD)


def test_rules_say_required_and_forbidden_per_mode(
    patched: PatchedGo,
) -> None:
    crd, diags = patched.crd, patched.diagnostics
    rules = rules_of(spec_schema(crd))
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
def test_cel_verdict_is_validation_gens(patched: PatchedGo, obj: dict[str, Any]) -> None:
    crd = patched.crd
    runtime_ok = validate(patched.table, "com.example.k8s.v1.Spec", obj) == []
    evaluator = CelEvaluator()
    assert all(evaluator.passes(r, obj) for r in rules_of(spec_schema(crd))) == runtime_ok
