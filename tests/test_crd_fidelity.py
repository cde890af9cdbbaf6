"""`markergen crd` on CRDs shaped like openshift/api's (feature-set variants in
`*/*/zz_generated.crd-manifests/`, hand-written union rules, members whose Go name is not
the enum value) and on Helm-wrapped files: the diff holds only inserted lines, nothing is
stored in the object, rules are proven with a real CEL engine before they are written."""

from __future__ import annotations

import difflib
import importlib.util
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from crd_support import run_crd
from helpers import TESTDATA

from markergen.accept.celeval import CelEvaluator
from markergen.crd.run import patch_text
from markergen.diagnostics import Severity
from markergen.pipeline import load_model

OPENSHIFT = TESTDATA / "crd" / "openshift"
MANIFESTS = Path("ingress/v1/zz_generated.crd-manifests")
DEFAULT = "widgets-Default-handwritten.crd.yaml"
TECH = "widgets-TechPreviewNoUpgrade-handwritten.crd.yaml"
ENGINES = ["celpy"] + [e for e in ("cel", "cel_expr_python") if importlib.util.find_spec(e)]


def _project(tmp_path: Path) -> Path:
    target = tmp_path / "openshift"
    shutil.copytree(OPENSHIFT, target)
    return target


def _ops(before: str, after: str) -> set[str]:
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    return {tag for tag, *_ in matcher.get_opcodes()}


def _node(text: str, *path: str | int) -> Any:
    value: Any = yaml.safe_load(text)
    for p in path:
        value = value[p]
    return value


SPEC = ("spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties")


def test_openshift_variants_get_only_inserted_lines_and_are_idempotent(tmp_path: Path) -> None:
    project = _project(tmp_path)
    model = load_model(["./..."], project)
    manifests = project / MANIFESTS
    before = {p.name: p.read_text(encoding="utf-8") for p in manifests.glob("*.yaml")}
    result = run_crd([manifests], model, verify=False)
    assert {p.name for p in result.changed} == {DEFAULT, TECH}
    for name, old in before.items():
        new = (manifests / name).read_text(encoding="utf-8")
        assert _ops(old, new) == {"equal", "insert"}, name
        assert new.startswith("apiVersion: ")  # no document separator added
        assert _node(new, "metadata") == _node(old, "metadata")  # no annotation added
    # a second run changes nothing
    again = run_crd([manifests], model, verify=False)
    assert again.changed == ()
    assert run_crd([manifests], model, verify=True).diffs == ()


def test_fields_named_unlike_any_value_are_settings_the_rest_is_enforced(
    tmp_path: Path,
) -> None:
    """openshift's EndpointPublishingStrategy shape: an unmarked 2019 `+union` whose
    fields `hostNetwork` and `private` are named after discriminator values, while
    `loadBalancer` and `nodePort` are not. The named ones are the union; the others are
    settings: no rule mentions them (openapi-gen's `x-kubernetes-unions` still lists them),
    so an object the API server accepts (`type: LoadBalancerService` with `loadBalancer`)
    stays accepted, and nothing is reported."""
    project = _project(tmp_path)
    manifests = project / MANIFESTS
    model = load_model(["./..."], project)
    result = run_crd([manifests], model, verify=False)
    assert not [d for d in result.diagnostics if "Endpoint" in d.message]
    cel = CelEvaluator()
    for name in (DEFAULT, TECH):
        text = (manifests / name).read_text(encoding="utf-8")
        rules = [r["rule"] for r in _node(text, *SPEC, "endpoint")["x-kubernetes-validations"]]
        assert rules and not any("loadBalancer" in r or "nodePort" in r for r in rules)
        ok = [
            {"type": "LoadBalancerService", "loadBalancer": {"name": "a"}},
            {"type": "HostNetwork", "hostNetwork": {"name": "a"}, "nodePort": {"name": "b"}},
            {"type": "Private", "private": {}},
        ]
        bad = [
            {"type": "LoadBalancerService", "hostNetwork": {"name": "a"}},
            {"type": "HostNetwork", "hostNetwork": {}, "private": {}},
        ]
        for obj in ok:
            assert all(cel.passes(r, obj) for r in rules), obj
        for obj in bad:
            assert not all(cel.passes(r, obj) for r in rules), obj
    endpoint = next(s for k, s in model.structs.items() if k.endswith(".Endpoint"))
    [union] = endpoint.unions
    assert [m.json_name for m in union.members] == ["hostNetwork", "private"]
    assert [m.json_name for m in union.listed] == [
        "loadBalancer",
        "hostNetwork",
        "private",
        "nodePort",
    ]


def test_documentation_union_gets_no_rule_and_no_crd_diagnostic(tmp_path: Path) -> None:
    """A `+union` whose fields all match no value (MG360 in `check`) is enforced by
    nobody: `crd` writes nothing for it and does not repeat the finding per file."""
    project = _project(tmp_path)
    manifests = project / MANIFESTS
    model = load_model(["./..."], project)
    from markergen.rules import all_diagnostics

    assert [d.code for d in all_diagnostics(model) if "BalancerParameters" in d.message] == [
        "MG360"
    ]
    result = run_crd([manifests], model, verify=False)
    assert not [d for d in result.diagnostics if "BalancerParameters" in d.message]
    for name in (DEFAULT, TECH):
        text = (manifests / name).read_text(encoding="utf-8")
        assert "x-kubernetes-validations" not in _node(text, *SPEC, "balancer")


def test_feature_gated_member_absent_from_a_variant(tmp_path: Path) -> None:
    project = _project(tmp_path)
    manifests = project / MANIFESTS
    model = load_model(["./..."], project)
    result = run_crd([manifests], model, verify=False)
    default_warnings = [d for d in result.diagnostics if d.pos.file.endswith(DEFAULT)]
    assert [
        d.code for d in default_warnings if "Publishing" in d.message and "nodePort" in d.message
    ] == ["MG501"]
    # the enum lacks only the gated member's value: not a disagreement (no MG503)
    assert not any(d.code == "MG503" for d in result.diagnostics)
    default_rules = _node((manifests / DEFAULT).read_text(encoding="utf-8"), *SPEC, "publishing")[
        "x-kubernetes-validations"
    ]
    assert default_rules and not any("nodePort" in r["rule"] for r in default_rules)
    tech_rules = _node((manifests / TECH).read_text(encoding="utf-8"), *SPEC, "publishing")[
        "x-kubernetes-validations"
    ]
    assert any("nodePort" in r["rule"] for r in tech_rules)


@pytest.mark.parametrize("engine", ENGINES)
def test_written_rules_accept_each_value_with_its_members_and_reject_a_wrong_one(
    tmp_path: Path, engine: str
) -> None:
    project = _project(tmp_path)
    manifests = project / MANIFESTS
    run_crd([manifests / TECH], load_model(["./..."], project), verify=False)
    rules = _node((manifests / TECH).read_text(encoding="utf-8"), *SPEC, "publishing")[
        "x-kubernetes-validations"
    ]
    cel = CelEvaluator(engine)

    def ok(obj: dict[str, Any]) -> bool:
        return all(cel.passes(r["rule"], obj) for r in rules)

    assert ok({"type": "LoadBalancerService", "loadBalancer": {}})
    assert ok({"type": "NodePortService", "nodePort": {}})
    assert ok({"type": "Private"})
    assert not ok({"type": "Private", "loadBalancer": {}})
    assert not ok({"type": "NodePortService", "nodePort": {}, "loadBalancer": {}})
    assert not ok({"type": "NodePortService"})


def test_union_enforced_by_hand_gets_nothing_and_an_info(tmp_path: Path) -> None:
    project = _project(tmp_path)
    manifests = project / MANIFESTS
    result = run_crd([manifests / TECH], load_model(["./..."], project), verify=False)
    assert any(d.code == "MG509" and "Policy.type" in d.message for d in result.diagnostics)
    policy = _node((manifests / TECH).read_text(encoding="utf-8"), *SPEC, "policy")
    assert len(policy["x-kubernetes-validations"]) == 1  # the hand-written one only


def test_hand_rule_that_contradicts_the_markers_is_reported(tmp_path: Path) -> None:
    project = _project(tmp_path)
    crd = project / MANIFESTS / TECH
    text = crd.read_text(encoding="utf-8")
    hand = "                - message: deny is never allowed\n                  rule: '!has(self.deny)'\n"
    anchor = "                - message: deny is required when type is Deny"
    crd.write_text(text.replace(anchor, hand + anchor), encoding="utf-8")
    result = run_crd([crd], load_model(["./..."], project), verify=True)
    (mg508,) = [d for d in result.diagnostics if d.code == "MG508"]
    assert 'type="Deny" with deny' in mg508.message


def test_stale_rules_are_found_by_their_message_and_only_their_lines_removed(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    crd = project / MANIFESTS / TECH
    model = load_model(["./..."], project)
    run_crd([crd], model, verify=False)
    patched = crd.read_text(encoding="utf-8")
    # the API renames the node port value: the nodePort rules are stale
    types = project / "ingress" / "v1" / "types.go"
    source = types.read_text(encoding="utf-8")
    types.write_text(source.replace("NodePortService", "NodePort"), encoding="utf-8")
    crd.write_text(patched.replace("- NodePortService\n", "- NodePort\n"), encoding="utf-8")
    edited = crd.read_text(encoding="utf-8")
    run_crd([crd], load_model(["./..."], project), verify=False)
    after = crd.read_text(encoding="utf-8")
    rules = _node(after, *SPEC, "publishing")["x-kubernetes-validations"]
    messages = [r["message"] for r in rules]
    assert not any('"NodePortService"' in m for m in messages)
    assert sum('"NodePort"' in m for m in messages) == 2
    assert sum("loadBalancer" in m for m in messages) == 2
    # the hand-written policy rule is untouched
    assert _node(after, *SPEC, "policy") == _node(edited, *SPEC, "policy")


def test_other_generators_layout_is_kept(tmp_path: Path) -> None:
    """Indented lists, comments and unfolded long lines stay; new lists follow the file."""
    project = _project(tmp_path)
    crd = project / MANIFESTS / TECH
    text = crd.read_text(encoding="utf-8")
    text = "# a comment kept as is\n" + text.replace(
        "                required:\n                - type\n",
        "                required:\n                  - type   # the discriminator\n",
    )
    out, _ = patch_text(load_model(["./..."], project), text, "crd.yaml")
    assert _ops(text, out) == {"equal", "insert"}
    assert "                  - type   # the discriminator\n" in out
    added = [line for tag, line in _added(text, out)]
    assert "                x-kubernetes-validations:" in added
    # the first such list in the file is indented by two below its key, so ours is too
    i = added.index("                x-kubernetes-validations:")
    assert added[i + 1].startswith("                  - ") and added[i + 1][18] != " "


def _added(old: str, new: str) -> list[tuple[str, str]]:
    return [
        ("+", line[1:])
        for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
        if line.startswith("+") and not line.startswith("+++")
    ]


def test_helm_wrapped_file_keeps_its_template_lines(tmp_path: Path) -> None:
    project = _project(tmp_path)
    crd = project / MANIFESTS / TECH
    text = (
        "{{- if .Values.crds.enabled }}\n---\n" + crd.read_text(encoding="utf-8") + "{{- end }}\n"
    )
    out, diags = patch_text(load_model(["./..."], project), text, "chart.yaml")
    assert not any(d.code == "MG507" for d in diags)
    assert out.startswith("{{- if .Values.crds.enabled }}\n---\napiVersion:")
    assert out.endswith("{{- end }}\n")
    assert _ops(text, out) == {"equal", "insert"}
    assert "x-kubernetes-validations" in out.split("publishing:")[1]


def test_a_template_comment_over_several_lines_is_a_template_line_too(tmp_path: Path) -> None:
    """A chart's license block as one `{{- /* ... */ -}}` comment over many lines (the
    shape of a training operator's chart CRDs): not MG504 "not valid YAML"."""
    project = _project(tmp_path)
    crd = project / MANIFESTS / TECH
    header = "{{- /*\nCopyright The Authors.\n\nLicensed: yes.\n*/ -}}\n\n"
    text = header + "{{- if .Values.crds.enabled }}\n---\n" + crd.read_text(encoding="utf-8")
    text += "{{- end }}\n"
    out, diags = patch_text(load_model(["./..."], project), text, "chart.yaml")
    assert [d.code for d in diags if d.code in ("MG504", "MG507")] == []
    assert out.startswith(header + "{{- if .Values.crds.enabled }}\n---\napiVersion:")
    assert _ops(text, out) == {"equal", "insert"}
    assert "x-kubernetes-validations" in out.split("publishing:")[1]


def test_templating_inside_a_document_skips_the_file_with_one_note(tmp_path: Path) -> None:
    project = _project(tmp_path)
    crd = project / MANIFESTS / TECH
    text = crd.read_text(encoding="utf-8")
    text = (
        "{{- if .Values.crds.enabled }}\n"
        + text.replace("  scope: Cluster\n", "  scope: {{ .Values.scope }}\n")
        + "{{- end }}\n"
    )
    out, diags = patch_text(load_model(["./..."], project), text, "chart.yaml")
    assert out == text
    (note,) = diags
    assert note.code == "MG507"
    assert note.pos.line == text.splitlines().index("  scope: {{ .Values.scope }}") + 1


def test_when_every_rule_at_a_node_is_stale_the_list_is_replaced_whole(tmp_path: Path) -> None:
    project = _project(tmp_path)
    crd = project / MANIFESTS / TECH
    run_crd([crd], load_model(["./..."], project), verify=False)
    types = project / "ingress" / "v1" / "types.go"
    source = types.read_text(encoding="utf-8")
    renamed = source.replace("LoadBalancerService", "LB").replace("NodePortService", "NP")
    types.write_text(renamed, encoding="utf-8")
    text = crd.read_text(encoding="utf-8")
    crd.write_text(
        text.replace("- LoadBalancerService\n", "- LB\n").replace("- NodePortService\n", "- NP\n"),
        encoding="utf-8",
    )
    model = load_model(["./..."], project)
    run_crd([crd], model, verify=False)
    after = crd.read_text(encoding="utf-8")
    assert after.count("x-kubernetes-validations:") == text.count("x-kubernetes-validations:")
    rules = _node(after, *SPEC, "publishing")["x-kubernetes-validations"]
    assert len(rules) == 4
    assert all('"LB"' in r["message"] or '"NP"' in r["message"] for r in rules)
    assert run_crd([crd], model, verify=False).changed == ()


AUTH_GO = """package v1

// +kubebuilder:validation:Enum=BasicAuth;SigV4
type AuthType string

// +union
type RemoteWriteAuth struct {
	// +unionDiscriminator
	// +required
	Type AuthType `json:"type"`
	// +unionMember
	// +optional
	BasicAuth *string `json:"basicAuth,omitempty"`
	// +unionMember%s
	// +optional
	Sigv4 *string `json:"sigv4,omitempty"`
}
"""


@pytest.mark.parametrize("marker", ["", "=SigV4"])
def test_a_value_an_unmatched_member_may_be_meant_for_is_not_claimed_allowed(
    tmp_path: Path, marker: str
) -> None:
    """openshift/api's RemoteWriteAuthorization: `Sigv4` is no value of the enum (MG340),
    so what `type: SigV4` allows is unknown; the proof must not call the hand-written rule
    that requires sigv4 there a contradiction (MG508). With `+unionMember=SigV4` the
    member is known and `SigV4 with sigv4` is the allowed object."""
    from markergen.accept.union import family

    (tmp_path / "go.mod").write_text("module example.com/auth\n")
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1" / "types.go").write_text(AUTH_GO % marker)
    model = load_model(["./..."], tmp_path)
    (union,) = model.structs["example.com/auth/v1.RemoteWriteAuth"].unions
    allowed = {p.why for p in family(union, union.members, ["BasicAuth", "SigV4"]) if p.allowed}
    assert 'type="BasicAuth" with basicAuth' in allowed
    if marker:
        assert 'type="SigV4" with sigv4' in allowed
    else:
        assert [m.go_name for m in union.unmatched] == ["Sigv4"]
        assert not any(w.startswith('type="SigV4"') for w in allowed)


SUITE = """apiVersion: apiextensions.k8s.io/v1 # openshift/api's test-suite layout
name: "Widget"
crdName: widgets.ingress.example.openshift.io
tests:
  onCreate:
    - name: the server accepts a load balancer strategy without its settings
      initial: |
        apiVersion: ingress.example.openshift.io/v1
        kind: Widget
        spec:
          publishing:
            type: LoadBalancerService
      expected: |
        apiVersion: ingress.example.openshift.io/v1
        kind: Widget
        spec:
          publishing:
            type: LoadBalancerService
    - name: the server rejects this one, so it proves nothing
      initial: |
        apiVersion: ingress.example.openshift.io/v1
        kind: Widget
        spec:
          publishing:
            type: Private
            loadBalancer: {}
      expectedError: "loadBalancer may only be set"
"""


def test_openshift_test_suites_are_objects_the_project_keeps(tmp_path: Path) -> None:
    """openshift/api runs `<group>/<version>/tests/<crd>/*.yaml` against a real API
    server: an object a case expects to be accepted is one no union rule may reject
    (AWSEFSVolumeMetrics in openshift/api: `+unionMember` without `,optional`, yet the
    server accepts `state: RecursiveWalk` alone). The rule is not written (MG510, naming
    the suite's line); the rest of the union's rules are."""
    project = _project(tmp_path)
    suite = project / "ingress" / "v1" / "tests" / "widgets.ingress.example.openshift.io"
    suite.mkdir(parents=True)
    (suite / "AAA_ungated.yaml").write_text(SUITE, encoding="utf-8")
    manifests = project / MANIFESTS
    result = run_crd([manifests], load_model(["./..."], project), verify=False, root=project)
    mg510 = [d for d in result.diagnostics if d.code == "MG510"]
    assert mg510 and all("loadBalancer must be set" in d.message for d in mg510)
    assert all(
        "ingress/v1/tests/widgets.ingress.example.openshift.io/AAA_ungated.yaml:8" in d.message
        for d in mg510
    )
    text = (manifests / DEFAULT).read_text(encoding="utf-8")
    messages = [r["message"] for r in _node(text, *SPEC, "publishing")["x-kubernetes-validations"]]
    assert not any("loadBalancer must be set" in m for m in messages)
    assert any("loadBalancer may only be set" in m for m in messages)


HELM_LICENSE = (
    "{{- /*\n"
    "Copyright The Authors.\n"
    "\n"
    'Licensed under the Apache License, Version 2.0 (the "License");\n'
    "*/ -}}\n"
    "\n"
    "{{- if .Values.crds.enabled }}\n"
    "---\n"
)


def test_helm_license_comment_over_many_lines_is_masked_and_kept(tmp_path: Path) -> None:
    # a chart's copy of the CRDs (kubeflow/trainer's charts/*/templates/crd): a Helm
    # comment spanning lines before the `if`; it is no YAML, but it is outside the document
    project = _project(tmp_path)
    crd = project / MANIFESTS / TECH
    text = HELM_LICENSE + crd.read_text(encoding="utf-8") + "{{- end }}\n"
    out, diags = patch_text(load_model(["./..."], project), text, "chart.yaml")
    assert not any(d.code in ("MG504", "MG507") for d in diags)
    assert out.startswith(HELM_LICENSE + "apiVersion:")
    assert out.endswith("{{- end }}\n")
    assert _ops(text, out) == {"equal", "insert"}
    assert "x-kubernetes-validations" in out.split("publishing:")[1]


def test_helm_template_only_helm_can_read_is_a_note_not_an_error(tmp_path: Path) -> None:
    # an action opened and never closed on a whole line: not YAML until Helm renders it
    project = _project(tmp_path)
    crd = project / MANIFESTS / TECH
    text = "{{- /*\nCopyright: [The Authors\n\n" + crd.read_text(encoding="utf-8")
    crd.write_text(text, encoding="utf-8")
    result = run_crd([crd], load_model(["./..."], project), verify=False)
    assert [d.code for d in result.diagnostics] == ["MG507"]
    assert result.diagnostics[0].severity is Severity.INFO
    assert crd.read_text(encoding="utf-8") == text
    # the same text without templating is no Helm file: still an error
    crd.write_text(text.replace("{{- /*\n", ""), encoding="utf-8")
    result = run_crd([crd], load_model(["./..."], project), verify=False)
    assert [d.code for d in result.diagnostics] == ["MG504"]
