"""End to end on testdata/projects/gameserver, a kubebuilder project as its team runs it
(issue 22 "Done when"): Go 1.26 syntax in function bodies and package vars, `+union`
structs used as documentation, a custom-marshalled type, metav1.Duration,
resource.Quantity and IntOrString fields, controller-gen CRDs written twice (one copy
Helm-wrapped), config/samples and a multi-document example.

`check` must report no error and no MG001; `validate` must accept every object the
project keeps, which the API server accepts under the project's own CRD.
Every test works on a private copy of the project (never on testdata).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from apiserver_schema import apiserver_errors
from helpers import TESTDATA, run_cli

from markergen.runtime import Table, validate

PROJECT = TESTDATA / "projects" / "gameserver"
CRD = Path("config/crd/bases/games.example.com_fleets.yaml")
HELM_CRD = Path("charts/gameserver/templates/crds/games.example.com_fleets.yaml")
SAMPLES = Path("config/samples/games_v1_fleet.yaml")
EXAMPLES = Path("examples/arena-fleet.yaml")
FLEET = "com.example.gameserver.api.v1.Fleet"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("projects") / "gameserver"
    shutil.copytree(PROJECT, target)
    return target


@pytest.fixture(scope="module")
def table(project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("generated")
    result = run_cli(["generate", "--out-dir", str(out)], project)
    assert result.code == 0, result.stderr
    return out / "unions_table.json"


def objects(project: Path, rel: Path) -> list[dict[str, Any]]:
    with (project / rel).open() as f:
        return [doc for doc in yaml.safe_load_all(f) if doc]


def crd(project: Path) -> dict[str, Any]:
    (doc,) = objects(project, CRD)
    return doc


def errors_of(table: Path, obj: dict[str, Any]) -> list[str]:
    return [str(e) for e in validate(Table.load(table), FLEET, obj)]


def test_check_reports_nothing(project: Path) -> None:
    result = run_cli(["check", "--format", "json"], project)
    assert result.code == 0, result.stdout + result.stderr
    diags = json.loads(result.stdout)
    found = diags if isinstance(diags, list) else diags["diagnostics"]
    assert [d for d in found if d["severity"] == "error" or d["code"] == "MG001"] == []


def test_a_syntax_error_in_a_type_declaration_is_still_mg001(project: Path, tmp_path: Path) -> None:
    # the same project with one broken type: the clean result above is not blindness
    broken = tmp_path / "gameserver"
    shutil.copytree(project, broken)
    types = broken / "api" / "v1" / "healthcheck_types.go"
    text = types.read_text()
    types.write_text(text.replace('Path string `json:"path"`', 'Path string `json:"path"` ]'))
    result = run_cli(["check"], broken)
    assert result.code == 1
    assert "MG001" in result.stdout + result.stderr
    assert "HTTPHealthCheck" in result.stdout + result.stderr


def test_the_fixture_objects_are_valid_for_the_api_server(project: Path) -> None:
    definition = crd(project)
    kept = objects(project, SAMPLES) + objects(project, EXAMPLES)
    assert len(kept) == 3
    assert {o["metadata"]["name"]: apiserver_errors(definition, o) for o in kept} == {
        "fleet-sample": [],
        "arena": [],
        "lobby": [],
    }


def test_the_api_server_check_is_not_vacuous(project: Path) -> None:
    arena = objects(project, EXAMPLES)[0]
    arena["spec"]["healthCheck"]["type"] = "Exec"
    assert apiserver_errors(crd(project), arena) == [
        ".spec.healthCheck: http is set exactly when type is HTTP",
        ".spec.healthCheck: exec is set exactly when type is Exec",
    ]


def test_the_helm_copy_is_the_crd_wrapped_in_one_if_block(project: Path) -> None:
    plain = (project / CRD).read_text()
    helm = (project / HELM_CRD).read_text()
    assert helm == "{{- if .Values.crds.install }}\n" + plain + "{{- end }}\n"


def test_validate_accepts_the_samples(project: Path, table: Path) -> None:
    assert [errors_of(table, o) for o in objects(project, SAMPLES)] == [[]]


def test_opaque_values_pass_and_the_real_union_is_enforced(project: Path, table: Path) -> None:
    # "30s" Duration, 1048576 Quantity, an IntOrString percentage and the custom-marshalled
    # PortRange string: none is an object, and none is an error (issue 22 item 3)
    fleet = {
        "apiVersion": "games.example.com/v1",
        "kind": "Fleet",
        "metadata": {"name": "opaque"},
        "spec": {
            "ports": "7000-7999",
            "allocation": {"policy": "Node", "node": {"selector": {"pool": "games"}}},
            "strategy": {"drainTimeout": "30s"},
            "healthCheck": {"type": "TCP"},
            "resources": {"memory": 1048576, "cpu": "500m"},
        },
    }
    assert apiserver_errors(crd(project), fleet) == []
    assert errors_of(table, fleet) == []
    # the kep1027 union is still enforced: node without policy Node
    fleet["spec"]["allocation"]["policy"] = "Packed"
    assert apiserver_errors(crd(project), fleet) == []  # the CRD has no union rule yet
    assert errors_of(table, fleet) == [
        'spec.allocation.node: Forbidden: may only be set when policy is "Node"'
    ]


def test_validate_cli_accepts_each_sample_document(
    project: Path, table: Path, tmp_path: Path
) -> None:
    for i, obj in enumerate(objects(project, SAMPLES)):
        path = tmp_path / f"sample-{i}.yaml"
        path.write_text(yaml.safe_dump(obj))
        result = run_cli(["validate", "--type", "Fleet", "--table", str(table), str(path)], project)
        assert (result.code, result.stdout) == (0, ""), result.stderr


def test_validate_accepts_the_examples(project: Path, table: Path) -> None:
    assert [errors_of(table, o) for o in objects(project, EXAMPLES)] == [[], []]
