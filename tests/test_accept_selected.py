"""markergen/accept/selected.py: a member of openshift's union style (`+union` struct,
`+unionMember` with its own `+optional` line) is optional when selected exactly when no
CEL rule at its struct's node reads it (tests/test_apiserver_unionrules.py has the API
server's verdicts on the same fixture)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import TESTDATA, run_cli

from markergen.accept.selected import marker_rules, reads_member
from markergen.golang.syntax import Position
from markergen.markers import Marker, parse_line
from markergen.model import Model
from markergen.pipeline import load_model

FIXTURE = TESTDATA / "projects" / "unionrules"


def _members(model: Model) -> dict[str, bool]:
    return {
        f"{s.name}.{m.json_name}": m.optional
        for s in model.structs.values()
        for u in s.unions
        for m in u.members
    }


def test_a_member_no_rule_reads_is_optional_and_one_a_rule_reads_keeps_the_markers() -> None:
    model = load_model(["./api/..."], FIXTURE)
    assert _members(model) == {"ScanSettings.walk": True, "TokenSettings.issued": False}


def test_a_rule_on_a_field_of_the_struct_type_counts_as_the_structs(tmp_path: Path) -> None:
    root = tmp_path / "unionrules"
    shutil.copytree(FIXTURE, root)
    types = root / "api" / "v1" / "collector_types.go"
    text = types.read_text(encoding="utf-8")
    field = "\t// +optional\n\tScan *ScanSettings"
    assert field in text
    rule = (
        "\t// +kubebuilder:validation:XValidation:rule=\"self.mode != 'Walk' || has(self.walk)\"\n"
    )
    types.write_text(text.replace(field, rule + field), encoding="utf-8")
    assert _members(load_model(["./api/..."], root))["ScanSettings.walk"] is False


def test_check_reports_no_rule_that_would_reject_a_kept_object(tmp_path: Path) -> None:
    root = tmp_path / "unionrules"
    shutil.copytree(FIXTURE, root)
    result = run_cli(["check", "--format", "json"], root)
    assert result.code == 0, result.stdout + result.stderr
    assert "MG511" not in result.stdout and "MG510" not in result.stdout


def _marker(text: str) -> Marker:
    found = parse_line(text, Position("x.go", 1, 3))
    assert isinstance(found, Marker), found
    return found


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        (
            ' +kubebuilder:validation:XValidation:rule="has(self.a) ? self.b == \'x, y\' : true",message="a, b"',
            "has(self.a) ? self.b == 'x, y' : true",
        ),
        (
            ' +kubebuilder:validation:XValidation:message="m",rule="!has(self.a)"',
            "!has(self.a)",
        ),
        (
            " +openshift:validation:FeatureGateAwareXValidation:featureGate=G,rule=`has(self.a)`,message=`m`",
            "has(self.a)",
        ),
        (
            ' +openshift:validation:FeatureGateAwareXValidation:featureGate="",rule="self.a == \\"q\\"",message="m"',
            'self.a == "q"',
        ),
    ],
)
def test_the_rule_of_a_marker(line: str, rule: str) -> None:
    assert marker_rules([_marker(line)]) == [rule]


def test_which_rules_read_a_member() -> None:
    assert reads_member(["has(self.mode) && self.mode == 'A' ? has(self.a) : !has(self.a)"], "a")
    assert not reads_member(["has(self.mode) && self.mode == 'A' ? has(self.b) : true"], "a")
    assert reads_member(["size(self) > 0"], "a")  # reads `self` whole: may read any field
    assert not reads_member([], "a")


def test_diff_reads_the_go_as_generate_does(tmp_path: Path) -> None:
    # generate's document against the same Go, read by diff with patterns (its in-memory
    # build): no "member walk must now be set" from a second reading of the markers.
    root = tmp_path / "unionrules"
    shutil.copytree(FIXTURE, root)
    assert run_cli(["generate", "--out-dir", "gen"], root).code == 0
    result = run_cli(["diff", "gen/openapi-v3.json", ".", "./api/...", "--format", "json"], root)
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["changes"] == []
