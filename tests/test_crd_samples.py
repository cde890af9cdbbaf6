"""Issue 22's proof: before a union's rules are written they are evaluated on every object
of that kind the project keeps; a rule that rejects one is not written, and the report
names the union's marker line, the object's file:line and the rule's message."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from crd_support import run_crd
from helpers import TESTDATA

from markergen.crd.checkfind import crd_findings
from markergen.diagnostics import Severity
from markergen.pipeline import load_model
from markergen.project.samples import load_samples, sample_files

OPENSHIFT = TESTDATA / "crd" / "openshift"
TECH = Path(
    "ingress/v1/zz_generated.crd-manifests/widgets-TechPreviewNoUpgrade-handwritten.crd.yaml"
)
GROUP = "ingress.example.openshift.io"

# `publishing` used as documentation: a load balancer's settings kept while Private
SAMPLE = f"""\
# a widget the project applies in its e2e tests
apiVersion: {GROUP}/v1
kind: Widget
metadata:
  name: sample
spec:
  publishing:
    type: Private
    loadBalancer:
      name: kept
"""
FINE = f"""\
apiVersion: {GROUP}/v1
kind: Widget
metadata:
  name: fine
spec:
  publishing:
    type: LoadBalancerService
    loadBalancer:
      name: lb
"""


def _project(tmp_path: Path) -> Path:
    target = tmp_path / "openshift"
    shutil.copytree(OPENSHIFT, target)
    return target


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _publishing_rules(crd: Path) -> list[dict[str, str]]:
    value = yaml.safe_load(crd.read_text(encoding="utf-8"))
    schema = value["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    rules: list[dict[str, str]] = schema["properties"]["spec"]["properties"]["publishing"][
        "x-kubernetes-validations"
    ]
    return rules


def test_rule_rejecting_a_kept_object_is_not_written_and_is_reported(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _write(root, "test/e2e/testdata/widget.yaml", "---\n" + FINE + "---\n" + SAMPLE)
    model = load_model(["./..."], root)
    result = run_crd([root / TECH], model, verify=False, root=root)
    (found,) = [d for d in result.diagnostics if d.code == "MG510"]
    assert found.severity is Severity.WARNING
    assert found.pos.file.endswith("ingress/v1/types.go")
    # at the marker of the member the rule is about (issue 28), with a hint for that marker
    lines = (root / "ingress/v1/types.go").read_text(encoding="utf-8").splitlines()
    assert lines[found.pos.line - 1].strip() == "// +unionMember=LoadBalancerService"
    assert found.hint is not None and "+unionMember=<value>" in found.hint
    # the second object starts on line 13 (its `apiVersion`, after the comment)
    assert "Widget at test/e2e/testdata/widget.yaml:13" in found.message
    assert 'loadBalancer may only be set when type is "LoadBalancerService"' in found.message
    messages = [r["message"] for r in _publishing_rules(root / TECH)]
    assert not any(m.startswith("loadBalancer may only be set") for m in messages)
    # the rules that accept every kept object are written
    assert any(m.startswith("loadBalancer must be set") for m in messages)
    assert any(m.startswith("nodePort may only be set") for m in messages)


def test_strict_makes_it_an_error_and_writes_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _write(root, "config/samples/widget.yaml", SAMPLE)
    before = (root / TECH).read_bytes()
    result = run_crd(
        [root / TECH], load_model(["./..."], root), verify=False, root=root, strict=True
    )
    assert [d.severity for d in result.diagnostics if d.code == "MG510"] == [Severity.ERROR]
    assert result.has_errors and (root / TECH).read_bytes() == before


def test_check_gets_the_same_finding_as_its_own_warning(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _write(root, "examples/widget.yaml", SAMPLE)
    before = (root / TECH).read_bytes()
    (finding,) = crd_findings([root / TECH], load_model(["./..."], root), root, enums=False)
    assert finding.code == "MG511" and finding.severity is Severity.WARNING
    assert "examples/widget.yaml:2" in finding.message
    assert (root / TECH).read_bytes() == before


def test_sources_skip_vendor_hidden_templated_and_other_groups(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _write(root, "docs/vendor/widget.yaml", SAMPLE)
    _write(root, "docs/.hidden/widget.yaml", SAMPLE)
    _write(root, "docs/chart/widget.yaml", SAMPLE.replace("name: sample", "name: {{ .Name }}"))
    # a clusterctl / envsubst template: applied only after substitution (cluster-api)
    _write(
        root, "test/e2e/data/widget.yaml", SAMPLE.replace("name: sample", "name: ${CLUSTER_NAME}")
    )
    _write(root, "docs/other.yaml", SAMPLE.replace(GROUP, "other.example.com"))
    _write(root, "hack/widget.yaml", SAMPLE)
    _write(root, "hack/excluded/widget.yaml", SAMPLE)
    assert load_samples(root, [GROUP]) == []
    found = load_samples(root, [GROUP], include=["hack/*"], exclude=["hack/excluded"])
    assert [(o.file, o.line, o.kind) for o in found] == [("hack/widget.yaml", 2, "Widget")]
    files = {p.relative_to(root).as_posix() for p in sample_files(root)}
    assert "docs/other.yaml" in files and "docs/vendor/widget.yaml" not in files


def test_union_with_a_check_error_gets_no_rules(tmp_path: Path) -> None:
    root = _project(tmp_path)
    types = root / "ingress" / "v1" / "types.go"
    source = types.read_text(encoding="utf-8")
    # two members selecting the same value: MG304, an error of `markergen check`
    types.write_text(
        source.replace("+unionMember=NodePortService", "+unionMember=LoadBalancerService"),
        encoding="utf-8",
    )
    result = run_crd([root / TECH], load_model(["./..."], root), verify=False, root=root)
    blocked = [d for d in result.diagnostics if d.code == "MG506" and "Publishing" in d.message]
    assert blocked and "`markergen check` reports MG304" in blocked[0].message
    value = yaml.safe_load((root / TECH).read_text(encoding="utf-8"))
    publishing = value["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"][
        "properties"
    ]["publishing"]
    assert "x-kubernetes-validations" not in publishing


def test_a_2019_union_rule_is_reported_at_its_union_marker_with_the_union_hint(
    tmp_path: Path,
) -> None:
    """A counted rule of a 2019 `+union` struct has no member of its own: MG510 points at
    the `+union` marker and the hint talks about `+union` (never about `,optional`)."""
    root = _project(tmp_path)
    _write(
        root,
        "config/samples/endpoint.yaml",
        f"apiVersion: {GROUP}/v1\nkind: Widget\nmetadata:\n  name: both\nspec:\n"
        "  endpoint:\n    type: Private\n    private: {}\n    hostNetwork: {}\n",
    )
    result = run_crd([root / TECH], load_model(["./..."], root), verify=False, root=root)
    found = [d for d in result.diagnostics if d.code == "MG510" and "Endpoint" in d.message]
    assert found
    lines = (root / "ingress/v1/types.go").read_text(encoding="utf-8").splitlines()
    for d in found:
        assert "config/samples/endpoint.yaml:1" in d.message
        assert lines[d.pos.line - 1].strip() in ("// +union", "// +unionDiscriminator")
        assert d.hint is not None and "`+union`" in d.hint and ",optional" not in d.hint
