"""`markergen crd` on the example kubebuilder project: idempotent, recognisable rules, hand-written rules kept, stale rules
replaced, controller-gen layout kept, valid CustomResourceDefinitions, all-or-nothing."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
from crd_support import CRD_NAME, EXAMPLE_CRD, copy_example, example_model, run_crd
from helpers import yaml_documents

from markergen.crd.files import CrdError
from markergen.diagnostics import Severity
from markergen.yamlio import load_documents

HAND_RULE = {"message": "hand-written", "rule": 'self.method != "Fax"'}


def _crd(path: Path) -> dict[str, Any]:
    (doc,) = load_documents(path.read_text(encoding="utf-8"))
    value: dict[str, Any] = doc.value
    return value


def _spec_props(crd: dict[str, Any]) -> dict[str, Any]:
    props: dict[str, Any] = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"][
        "spec"
    ]["properties"]
    return props


def _bases(project: Path) -> Path:
    return project / "config" / "crd" / "bases"


def test_controller_gen_layout_round_trips_byte_for_byte() -> None:
    text = EXAMPLE_CRD.read_text(encoding="utf-8")
    assert text.startswith("---\napiVersion: apiextensions.k8s.io/v1\n")
    assert yaml_documents([d.value for d in load_documents(text)]) == text


def test_patch_adds_rules_and_enums_and_second_run_changes_nothing(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    model = example_model(project)
    crd_file = _bases(project) / CRD_NAME
    before = crd_file.read_text(encoding="utf-8")

    first = run_crd([_bases(project)], model, verify=False)
    assert first.changed == (crd_file.resolve(),)
    assert first.diagnostics == ()
    patched = crd_file.read_text(encoding="utf-8")
    crd = _crd(crd_file)
    props = _spec_props(crd)
    assert props["delivery"]["properties"]["method"]["enum"] == ["Email", "Manual", "Webhook"]
    assert props["storage"]["properties"]["cache"]["enum"] == ["", "Memory", "Redis"]
    # the kep2022 discriminator has no enum in Go, so none is invented
    assert "enum" not in props["notifications"]["items"]["properties"]["channel"]
    # inlined ExposureSource: rules on the frontend node that inlines it
    assert props["frontend"]["x-kubernetes-validations"]
    # escaping: `namespace` is a CEL reserved word, `pvc-name` has a dash
    (backup_rule,) = props["backup"]["x-kubernetes-validations"]
    assert "self.__namespace__" in backup_rule["rule"]
    assert "self.pvc__dash__name" in backup_rule["rule"]
    # nothing stored in the object: the annotations are controller-gen's only
    assert list(crd["metadata"]["annotations"]) == ["controller-gen.kubebuilder.io/version"]
    # the diff holds only inserted lines
    ops = difflib.SequenceMatcher(
        None, before.splitlines(), patched.splitlines(), autojunk=False
    ).get_opcodes()
    assert {tag for tag, *_ in ops} == {"equal", "insert"}

    second = run_crd([_bases(project)], model, verify=False)
    assert second.changed == ()
    assert crd_file.read_text(encoding="utf-8") == patched
    assert run_crd([_bases(project)], model, verify=True).diffs == ()


def test_verify_reports_a_diff_and_writes_nothing(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    crd_file = _bases(project) / CRD_NAME
    before = crd_file.read_bytes()
    result = run_crd([crd_file], example_model(project), verify=True)
    assert crd_file.read_bytes() == before
    assert result.changed == (crd_file.resolve(),)
    (diff,) = result.diffs
    assert "+                - fieldPath: .email" in diff
    assert "markergen.dev" not in diff
    assert not any(
        line.startswith("-") and not line.startswith("---") for line in diff.splitlines()
    )


def test_hand_written_rules_are_kept_and_stale_rules_replaced(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    crd_file = _bases(project) / CRD_NAME
    run_crd([crd_file], example_model(project), verify=False)
    crd = _crd(crd_file)
    delivery = _spec_props(crd)["delivery"]
    delivery["x-kubernetes-validations"].insert(0, dict(HAND_RULE))
    crd_file.write_text(yaml_documents([crd]), encoding="utf-8")

    # the API drops the webhook member: its rules are stale
    types = project / "api" / "v1" / "union_types.go"
    source = types.read_text(encoding="utf-8")
    source = source.replace("\t// +unionMember,optional\n\t// +optional\n\tWebhook", "\tWebhook")
    types.write_text(source, encoding="utf-8")
    run_crd([crd_file], example_model(project), verify=False)

    rules = _spec_props(_crd(crd_file))["delivery"]["x-kubernetes-validations"]
    assert rules[0] == HAND_RULE
    assert not any(r.get("fieldPath") == ".webhook" for r in rules)
    assert any(r.get("fieldPath") == ".email" for r in rules)
    # idempotent again after the change
    assert run_crd([crd_file], example_model(project), verify=False).changed == ()


def test_member_missing_from_the_crd_gets_no_rule_and_a_warning(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    crd_file = _bases(project) / CRD_NAME
    crd = _crd(crd_file)
    del _spec_props(crd)["storage"]["properties"]["redis"]
    crd_file.write_text(yaml_documents([crd]), encoding="utf-8")

    lines = crd_file.read_text(encoding="utf-8").splitlines()

    result = run_crd([crd_file], example_model(project), verify=False)
    (warning,) = result.diagnostics
    assert warning.code == "MG501"
    assert warning.severity is Severity.WARNING
    assert "redis" in warning.message
    # points into the `properties:` of the storage schema of the file as it was read
    assert lines[warning.pos.line - 2].strip() == "properties:"
    assert (
        lines[warning.pos.line - 3].strip() == "description: storage says where entries are kept."
    )
    rules = _spec_props(_crd(crd_file))["storage"]["x-kubernetes-validations"]
    assert not any("redis" in r["rule"] for r in rules)


def test_patched_crd_is_a_valid_custom_resource_definition(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    crd_file = _bases(project) / CRD_NAME
    run_crd([crd_file], example_model(project), verify=False)
    crd = _crd(crd_file)
    assert kubernetes_validate.validate(crd, "1.30", strict=True)
    # the validator does reject a broken CRD (a rule entry without its required `rule`)
    broken = _crd(crd_file)
    _spec_props(broken)["delivery"]["x-kubernetes-validations"][0].pop("rule")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, "1.30", strict=True)


def test_invalid_yaml_is_an_error_and_nothing_is_written(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    bases = _bases(project)
    good = bases / CRD_NAME
    before = good.read_bytes()
    (bases / "broken.yaml").write_text("---\nkind: [unclosed\n", encoding="utf-8")
    result = run_crd([bases], example_model(project), verify=False)
    (err,) = result.diagnostics
    assert (err.code, err.severity, err.pos.file.endswith("broken.yaml")) == (
        "MG504",
        Severity.ERROR,
        True,
    )
    assert err.pos.line == 3
    assert result.changed == ()
    assert good.read_bytes() == before


def test_crd_without_go_type_is_left_alone_with_a_warning(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    crd_file = _bases(project) / CRD_NAME
    crd = _crd(crd_file)
    crd["spec"]["group"] = "other.example.com"
    crd_file.write_text(yaml_documents([crd]), encoding="utf-8")
    before = crd_file.read_bytes()
    result = run_crd([crd_file], example_model(project), verify=False)
    (warning,) = result.diagnostics
    assert warning.code == "MG502"
    assert "other.example.com" in warning.message
    assert crd_file.read_bytes() == before


def test_missing_path_raises(tmp_path: Path) -> None:
    with pytest.raises(CrdError, match="no such file"):
        run_crd([tmp_path / "nope"], example_model(), verify=False)
