"""House styles as first-class input: controller-gen's union markers, defaults in every
spelling, several API versions in one project (fixtures in testdata/check/)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from helpers import TESTDATA

from markergen.crd.walk import union_sites
from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.model import Model
from markergen.pipeline import check_model, load_model
from markergen.runtime import Table, validate

KB = "example.com/m/kubebuilder"


def _module(tmp_path: Path, *packages: tuple[str, str]) -> Path:
    root = tmp_path / "m"
    root.mkdir()
    (root / "go.mod").write_text("module example.com/m\n\ngo 1.24\n")
    for source, dest in packages:
        (root / dest).mkdir(parents=True)
        for f in (TESTDATA / "check" / source).glob("*.go"):
            shutil.copy(f, root / dest / f.name)
    return root


def _kubebuilder(tmp_path: Path) -> Model:
    return load_model(["./..."], _module(tmp_path, ("kubebuilder", "kubebuilder")))


def test_controller_gen_unions_are_model_unions(tmp_path: Path) -> None:
    model = _kubebuilder(tmp_path)
    unions = model.structs[f"{KB}.Source"].unions
    assert [(u.dialect, u.name, u.mode, u.enforced_by) for u in unions] == [
        ("kubebuilder", "ExactlyOneOf", "exactly-one", "controller-gen"),
        ("kubebuilder", "AtMostOneOf", "at-most-one", "controller-gen"),
        ("kubebuilder", "AtLeastOneOf", "at-least-one", "controller-gen"),
    ]
    assert [m.json_name for m in unions[2].members] == ["configMap", "secret", "inline"]


def test_runtime_validates_controller_gen_unions(tmp_path: Path) -> None:
    model = _kubebuilder(tmp_path)
    table = Table.from_dict(json.loads(json.dumps(build_table(model, EmitOptions()))))
    name = next(n for n in table.types if n.endswith("kubebuilder.Source"))
    assert validate(table, name, {"configMap": "a"}) == []
    both = [str(e) for e in validate(table, name, {"configMap": "a", "secret": "b"})]
    assert any("only one of configMap, secret" in d for d in both)
    none = [str(e) for e in validate(table, name, {})]
    assert any("exactly one of configMap, secret must be set" in d for d in none)
    assert any("at least one of configMap, secret, inline must be set" in d for d in none)
    two_sources = [
        str(e) for e in validate(table, name, {"secret": "a", "inline": "x", "url": "y"})
    ]
    assert any("only one of inline, url" in d for d in two_sources)


def test_crd_leaves_controller_gen_unions_to_controller_gen(tmp_path: Path) -> None:
    model = _kubebuilder(tmp_path)
    source = model.structs[f"{KB}.Source"]
    schema = {
        "type": "object",
        "properties": {f.json_name: {"type": "string"} for f in source.fields},
    }
    assert union_sites(model, source, schema, ()) == []


def test_controller_gen_unions_are_not_openapi_gen_unions(tmp_path: Path) -> None:
    from markergen.emit.openapi import listed_union

    model = _kubebuilder(tmp_path)
    assert not any(listed_union(u, EmitOptions()) for u in model.structs[f"{KB}.Source"].unions)


def test_default_ref_names_a_constant(tmp_path: Path) -> None:
    model = _kubebuilder(tmp_path)
    disc = model.structs[f"{KB}.Shape"].unions[0].discriminator
    assert disc is not None and disc.default == '"Circle"'


def test_omitzero_member_is_optional_and_not_required(tmp_path: Path) -> None:
    model = _kubebuilder(tmp_path)
    square = model.structs[f"{KB}.Shape"].field("Square")
    assert square is not None and square.optional and not square.required_marker


def test_several_api_versions_in_one_project(tmp_path: Path) -> None:
    root = _module(
        tmp_path,
        ("kubebuilder", "api/v1"),
        ("kubebuilder", "api/v1beta1"),
        ("openshift", "api/v1alpha1"),
    )
    model = load_model(["./..."], root)
    diags = check_model(model)
    # each version is checked on its own: the fixtures' own diagnostics, once per copy
    assert sorted((d.pos.file, d.code) for d in diags) == [
        ("api/v1/types.go", "MG341"),
        ("api/v1alpha1/types.go", "MG340"),
        ("api/v1beta1/types.go", "MG341"),
    ]
    assert {p.group_name for p in model.packages} == {"shapes.example.com", None}
    assert len([k for k in model.structs if k.endswith(".Source")]) == 2


def test_openshift_feature_gate_aware_enum_gives_every_gate_s_values(tmp_path: Path) -> None:
    model = load_model(["./..."], _module(tmp_path, ("openshift", "openshift")))
    union = model.structs["example.com/m/openshift.APIServerEncryption"].unions[0]
    assert union.dialect == "kep1027"
    assert union.discriminator is not None
    assert union.discriminator.values == ("", "KMS", "aescbc", "identity")
    assert [(m.go_name, m.value) for m in union.members] == [("KMS", "KMS")]


def test_member_named_by_no_enum_value_is_not_rejected(tmp_path: Path) -> None:
    """openshift's EndpointPublishingStrategy: `{type: LoadBalancerService, loadBalancer:
    ...}` is valid; neither the runtime nor the CRD rule may reject it."""
    import celpy

    from markergen.crd.cel import union_rules

    model = load_model(["./..."], _module(tmp_path, ("openshift", "openshift")))
    table = Table.from_dict(json.loads(json.dumps(build_table(model, EmitOptions()))))
    name = next(n for n in table.types if n.endswith("EndpointPublishingStrategy"))
    valid = {"type": "LoadBalancerService", "loadBalancer": "x"}
    assert validate(table, name, valid) == []
    wrong = [str(e) for e in validate(table, name, {"type": "Private", "hostNetwork": "x"})]
    assert any("does not match the member that is set" in e for e in wrong)

    union = model.structs["example.com/m/openshift.EndpointPublishingStrategy"].unions[0]
    rules, _ = union_rules(
        union, "EndpointPublishingStrategy", ["type", "loadBalancer", "hostNetwork"], ["type"]
    )
    env = celpy.Environment()

    def ok(obj: dict[str, str]) -> bool:
        act = {"self": celpy.json_to_cel(obj)}
        return all(bool(env.program(env.compile(r.rule)).evaluate(act)) for r in rules)

    assert ok(valid)
    assert ok({"type": "HostNetwork", "hostNetwork": "x"})
    assert not ok({"type": "Private", "hostNetwork": "x"})
