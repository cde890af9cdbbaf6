"""The union shapes on which `markergen validate` and a project's CRD disagree on the real
API server (bench/bench_apiserver_corpus.py on openshift/api), each in a fixture, judged
by the server.

testdata/crd/servershapes holds two openshift/api unions reduced to one struct each:

- `Rotation` (`SecretsStoreSecretRotation`): the 2019-form markers allow `type: Custom`
  without `custom` (at most one member); the project's own rule requires the member
  there, and the server rejects the object (MG508);
- `Driver` (`CSIDriverConfigSpec`): a member selects a value the enum does not allow, so
  `markergen crd` writes no rule for the union (MG506) and the server accepts
  `driverType: AWS` beside `azure`, which the markers reject.

The runtime reads the markers, so its verdict and the server's differ on those objects;
`markergen check` must say so, once per union, at the union's CRD node.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import kubeserver
import yaml
from helpers import TESTDATA, run_cli

from markergen.crd.cel import union_rules
from markergen.emit.naming import key_definition_name
from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.pipeline import load_model
from markergen.runtime import Table, validate

FIXTURE = TESTDATA / "crd" / "servershapes"
CRD = Path("config/crd/bases/shapes.example.com_rotators-handwritten.yaml")


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "servershapes"
    shutil.copytree(FIXTURE, root)
    return root


def _runtime(root: Path, name: str) -> tuple[Table, str]:
    model = load_model(["./api/..."], root)
    table = Table.from_dict(build_table(model, EmitOptions()))
    (struct,) = [s for s in model.structs.values() if s.name == name]
    return table, key_definition_name(struct.key)


def _object(value: dict[str, Any], field: str = "rotation") -> dict[str, Any]:
    return {
        "apiVersion": "shapes.example.com/v1",
        "kind": "Rotator",
        "spec": {field: value},
    }


def test_the_server_rejects_a_value_without_its_member_that_the_markers_allow(
    kube: kubeserver.Server, tmp_path: Path
) -> None:
    root = _copy(tmp_path)
    crd = yaml.safe_load((root / CRD).read_text(encoding="utf-8"))
    table, name = _runtime(root, "Rotation")
    with kube.installed(crd) as handle:
        # where the markers and the rule agree, so do the server and the runtime
        for rotation in (
            {"type": "Custom", "custom": {"interval": "1h"}},
            {"type": "None"},
        ):
            assert handle.dry_run(_object(rotation)).accepted, rotation
            assert validate(table, name, rotation) == [], rotation
        for rotation in ({"type": "None", "custom": {}},):
            verdict = handle.dry_run(_object(rotation))
            assert not verdict.accepted, rotation
            assert validate(table, name, rotation) != [], rotation
        # the shape: the server rejects it with the project's rule; the markers allow it
        shape = {"type": "Custom"}
        verdict = handle.dry_run(_object(shape))
        assert not verdict.accepted
        assert "custom must be set when type is 'Custom'" in verdict.message
        assert verdict.fields() == {"spec.rotation"}
        assert validate(table, name, shape) == []
    # ... and check says so, once, at the union's CRD node, naming that very object
    check = run_cli(["check", "--no-cache"], root)
    assert check.code == 0, check.stderr  # a warning
    mg508 = [line for line in check.stdout.splitlines() if " MG508: " in line]
    assert len(mg508) == 1, check.stdout
    assert mg508[0].startswith(f"{CRD.as_posix()}:")
    assert "union Rotation.type" in mg508[0]
    assert 'a hand-written rule rejects type="Custom" with no member set' in mg508[0]


def test_crd_reports_the_same_disagreement_and_check_is_quiet_once_they_agree(
    tmp_path: Path,
) -> None:
    """Following the hint (the rule allows what the markers allow) silences both."""
    root = _copy(tmp_path)
    crd = run_cli(["crd", "--verify", "--no-cache"], root)
    (line,) = [x for x in crd.stderr.splitlines() if " MG508: " in x]
    assert 'type="Custom" with no member set' in line
    path = root / CRD
    text = path.read_text(encoding="utf-8")
    old = "? has(self.custom)\n                    : !has(self.custom)"
    assert old in text
    path.write_text(text.replace(old, "? true : !has(self.custom)"), encoding="utf-8")
    again = run_cli(["check", "--no-cache"], root)
    assert " MG508: " not in again.stdout, again.stdout
    assert again.code == 0


def test_the_server_accepts_what_the_markers_forbid_where_crd_writes_no_rule(
    kube: kubeserver.Server, tmp_path: Path
) -> None:
    root = _copy(tmp_path)
    table, name = _runtime(root, "Driver")
    check = run_cli(["check", "--no-cache"], root)
    mg506 = [line for line in check.stdout.splitlines() if " MG506: " in line]
    assert len(mg506) == 1, check.stdout
    assert "union Driver.driverType" in mg506[0]
    assert 'member vSphere selects driverType="VSphere"' in mg506[0]
    # crd writes nothing for the union: the CRD the server gets is the project's own
    crd_run = run_cli(["crd", "--no-cache"], root)
    assert crd_run.code == 0, crd_run.stderr
    crd = yaml.safe_load((root / CRD).read_text(encoding="utf-8"))
    node = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    assert "x-kubernetes-validations" not in node["properties"]["driver"]
    with kube.installed(crd) as handle:
        ok = {"driverType": "AWS", "aws": {}}
        assert handle.dry_run(_object(ok, "driver")).accepted
        assert validate(table, name, ok) == []
        shape = {"driverType": "AWS", "azure": {}}
        assert handle.dry_run(_object(shape, "driver")).accepted
        (error,) = validate(table, name, shape)
        assert error.path == "driverType" and "does not match the member that is set" in str(error)


def test_a_rule_a_defaulted_member_would_break_is_withheld_and_the_server_agrees(
    kube: kubeserver.Server, tmp_path: Path
) -> None:
    """`percentage` has a default: the server sets it before it validates, so the kept
    sample (`httpStatus` alone) holds two members there. markergen judges the sample as
    the server sees it: the "at most one" rule is withheld (MG510), the patched CRD
    accepts the sample, and the CRD with that rule would reject it."""
    root = _copy(tmp_path)
    run = run_cli(["crd", "--no-cache"], root)
    assert run.code == 0, run.stderr
    (mg510,) = [line for line in run.stderr.splitlines() if " MG510: " in line]
    assert mg510.startswith("api/v1/types.go:")
    assert "union Abort: the rule `at most one of httpStatus, grpcStatus, percentage" in mg510
    assert "config/samples/shapes_v1_rotator.yaml:1" in mg510
    crd = yaml.safe_load((root / CRD).read_text(encoding="utf-8"))
    node = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    abort = node["properties"]["abort"]
    assert "x-kubernetes-validations" not in abort
    sample = yaml.safe_load((root / "config/samples/shapes_v1_rotator.yaml").read_text())
    model = load_model(["./api/..."], root)
    (struct,) = [s for s in model.structs.values() if s.name == "Abort"]
    rules, _ = union_rules(struct.unions[0], "Abort", list(abort["properties"]), [])
    (at_most_one,) = [r for r in rules if "at most one" in r.message]
    with kube.installed(crd) as handle:
        verdict = handle.dry_run(sample)
        assert verdict.accepted, verdict.message
        assert verdict.stored is not None
        assert verdict.stored["spec"]["abort"] == {"httpStatus": 418, "percentage": 100}
    abort["x-kubernetes-validations"] = [{"rule": at_most_one.rule, "message": "at most one"}]
    with kube.installed(crd) as handle:
        verdict = handle.dry_run(sample)
        assert not verdict.accepted
        assert verdict.fields() == {"spec.abort"}
