"""`markergen crd` and the k8s unions: validation-gen's semantics in CEL, for unions of a
struct's fields, under a field (`+k8s:subfield`), in each list item (`+k8s:eachVal`) and
of list items (`+k8s:item`); and no rule, with an info, where validation-gen's verdict
cannot be written (a feature-gated union, an unbounded list).

Every rule written is evaluated here with a real CEL engine on objects whose verdict the
runtime (validation-gen's semantics) gives, and they must agree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from crd_support import PatchedGo, patch_go, rules_of, spec_schema

from markergen.accept.celeval import CelEvaluator
from markergen.crd.run import patch_text
from markergen.runtime import validate

GO = """// +groupName=k8s.example.com
package v1

type Spec struct {
	// +k8s:unionMember
	// +optional
	Name string `json:"name,omitempty"`
	// +k8s:unionMember
	// +optional
	Count int32 `json:"count,omitempty"`

	// +k8s:subfield(kind)=+k8s:unionDiscriminator
	// +k8s:subfield(fast)=+k8s:unionMember(memberName: "Fast")
	// +k8s:subfield(slow)=+k8s:unionMember(memberName: "Slow")
	Speed Speed `json:"speed"`

	// +k8s:eachVal=+k8s:subfield(allow)=+k8s:zeroOrOneOfMember
	// +k8s:eachVal=+k8s:subfield(deny)=+k8s:zeroOrOneOfMember
	// +kubebuilder:validation:MaxItems=16
	Rules []Rule `json:"rules,omitempty"`

	// +listType=map
	// +listMapKey=name
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:item(name: "a")=+k8s:zeroOrOneOfMember
	// +k8s:item(name: "b")=+k8s:zeroOrOneOfMember
	// +kubebuilder:validation:MaxItems=8
	Steps []Step `json:"steps,omitempty"`

	// +listType=map
	// +listMapKey=name
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:item(name: "a")=+k8s:zeroOrOneOfMember
	// +k8s:item(name: "b")=+k8s:zeroOrOneOfMember
	Unbounded []Step `json:"unbounded,omitempty"`

	// +k8s:ifEnabled(Extra)=+k8s:zeroOrOneOfMember(union: "g")
	// +optional
	X *string `json:"x,omitempty"`
	// +k8s:ifEnabled(Extra)=+k8s:zeroOrOneOfMember(union: "g")
	// +optional
	Y *string `json:"y,omitempty"`
}

type Speed struct {
	Kind string `json:"kind,omitempty"`
	Fast *int32 `json:"fast,omitempty"`
	Slow []string `json:"slow,omitempty"`
}

type Rule struct {
	Allow bool   `json:"allow,omitempty"`
	Deny  string `json:"deny,omitempty"`
}

type Step struct {
	Name string `json:"name"`
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
              name:
                type: string
              count:
                type: integer
              speed:
                type: object
                properties:
                  kind:
                    type: string
                  fast:
                    type: integer
                  slow:
                    type: array
                    items:
                      type: string
              rules:
                type: array
                maxItems: 16
                items:
                  type: object
                  properties:
                    allow:
                      type: boolean
                    deny:
                      type: string
              steps:
                type: array
                maxItems: 8
                items:
                  type: object
                  properties:
                    name:
                      type: string
                  required:
                  - name
              unbounded:
                type: array
                items:
                  type: object
                  properties:
                    name:
                      type: string
              x:
                type: string
              y:
                type: string
    served: true
    storage: true
"""


@pytest.fixture(scope="module")
def patched(tmp_path_factory: pytest.TempPathFactory) -> PatchedGo:
    return patch_go(tmp_path_factory.mktemp("crd"), GO, CRD)


def test_rules_are_written_where_the_unions_live(
    patched: PatchedGo,
) -> None:
    crd, diags = patched.crd, patched.diagnostics
    spec = spec_schema(crd)
    assert any('self.name != ""' in r and "self.count != 0" in r for r in rules_of(spec))
    speed = spec["properties"]["speed"]
    assert 'has(self.fast) || !(has(self.kind) && self.kind == "Fast")' in rules_of(speed)
    assert any("size(self.slow) > 0" in r for r in rules_of(speed))
    assert any("self.allow" in r for r in rules_of(spec["properties"]["rules"]["items"]))
    assert rules_of(spec["properties"]["steps"]) == [
        '(self.exists(i, (has(i.name) ? i.name : "") == "a") ? 1 : 0) + '
        '(self.exists(i, (has(i.name) ? i.name : "") == "b") ? 1 : 0) <= 1'
    ]
    # not written, with an info each: an unbounded list, a gated union
    assert "x-kubernetes-validations" not in spec["properties"]["unbounded"]
    assert not any("self.x" in r for r in rules_of(spec))
    infos = sorted(d.message.split(": ", 1)[1] for d in diags if d.code == "MG506")
    assert [d.severity.value for d in diags] == ["info", "info"], diags
    assert "no maxItems" in infos[0] or "no maxItems" in infos[1]
    assert any("only when option Extra is enabled" in m for m in infos)


OBJECTS: list[dict[str, Any]] = [
    {"name": "n"},
    {"count": 3},
    {"name": "", "count": 0},
    {"name": "n", "count": 3},
    {"name": "n", "speed": {"kind": "Fast", "fast": 0}},
    {"name": "n", "speed": {"kind": "Fast"}},
    {"name": "n", "speed": {"kind": "Slow", "slow": []}},
    {"name": "n", "speed": {"kind": "Slow", "slow": ["s"], "fast": 1}},
    {"name": "n", "speed": {"fast": 1}},
    {"name": "n", "speed": {"kind": "Other"}},
    {"name": "n", "rules": [{"allow": True}, {"allow": False, "deny": "d"}]},
    {"name": "n", "rules": [{"allow": True, "deny": "d"}]},
    {"name": "n", "rules": [{"allow": False, "deny": ""}]},
    {"name": "n", "steps": [{"name": "a"}, {"name": "c"}]},
    {"name": "n", "steps": [{"name": "a"}, {"name": "b"}]},
]


def _cel_ok(evaluator: CelEvaluator, node: dict[str, Any], value: Any) -> bool:
    """The API server's verdict on `value` at `node` and below, from the rules only."""
    if not all(evaluator.passes(r, value) for r in rules_of(node)):
        return False
    if isinstance(value, dict):
        props = node.get("properties", {})
        return all(_cel_ok(evaluator, props[k], v) for k, v in value.items() if k in props)
    if isinstance(value, list) and "items" in node:
        return all(_cel_ok(evaluator, node["items"], v) for v in value)
    return True


@pytest.mark.parametrize("obj", OBJECTS, ids=[str(o) for o in OBJECTS])
def test_cel_verdict_is_validation_gens(patched: PatchedGo, obj: dict[str, Any]) -> None:
    crd = patched.crd
    runtime_ok = validate(patched.table, "com.example.k8s.v1.Spec", obj) == []
    assert _cel_ok(CelEvaluator(), spec_schema(crd), obj) == runtime_ok


def test_second_run_changes_nothing(patched: PatchedGo, tmp_path: Path) -> None:
    model = patched.model
    once, _ = patch_text(model, CRD, "crd.yaml")
    twice, _ = patch_text(model, once, "crd.yaml")
    assert twice == once
