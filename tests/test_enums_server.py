"""Enums exactly as the API server enforces them (markergen.model.enums): a
`+kubebuilder:validation:Enum` list is the type's enum whatever constants exist, a field
list and its type's enum are intersected, openshift's FeatureGateAwareEnum lines give the
union of every gate's values; every output reads that one rule. And the project's CRDs
as a check of it (markergen.crd.enumcheck, MG520/MG521)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTDATA, run_cli

from markergen.crd.enumcheck import EnumNode, compare_files, crd_enum, summary
from markergen.crd.run import patch_text
from markergen.diff import run_diff
from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.golang.syntax import Position
from markergen.model import Model
from markergen.model.enums import field_enum
from markergen.pipeline import check_model, load_model

CHECK = TESTDATA / "check"
PKG = "example.com/check/enumlists."
GATED = "example.com/check/gatedenum."


@pytest.fixture(scope="module")
def lists() -> Model:
    return load_model(["./enumlists/..."], CHECK)


def _props(model: Model, type_key: str) -> dict[str, Any]:
    schemas = json.loads(render_outputs(model, EmitOptions())["openapi-v3.json"])
    name = type_key.replace("example.com/", "com.example.").replace("/", ".")
    props: dict[str, Any] = schemas["components"]["schemas"][name]["properties"]
    return props


def test_a_list_is_the_enum_whatever_constants_exist(lists: Model) -> None:
    enum = lists.enums[PKG + "XFCCForwardMode"]
    assert enum.listed and [v.value for v in enum.values] == ["Strict", "Disabled"]
    assert [c.name for c in enum.constants] == ["XFCCStrict", "XFCCSyntax", "XFCCDisabled"]
    # a listed value keeps its constant's name (the enum paragraph quotes it)
    assert [v.name for v in enum.values] == ["XFCCStrict", "XFCCDisabled"]
    filters = lists.enums[PKG + "FilterName"]
    assert len(filters.constants) == 5 and len(filters.values) == 3


def test_openapi_writes_the_server_s_values(lists: Model) -> None:
    settings = _props(lists, PKG + "Settings")
    assert settings["forwardMode"]["enum"] == ["Disabled", "Strict"]
    assert "envoy.filters.http.wasm" not in settings["filters"]["items"]["enum"]
    assert settings["only"]["enum"] == ["HTTP"]  # the field narrows its type's list
    # field list HTTP;Image;ConfigMap on a type listing HTTP;Image: both are enforced
    assert _props(lists, PKG + "CodeSource")["type"]["enum"] == ["HTTP", "Image"]


def test_discriminator_values_are_the_intersection(lists: Model) -> None:
    source = lists.structs[PKG + "CodeSource"].unions[0]
    assert source.discriminator is not None and source.discriminator.values == ("HTTP", "Image")
    mode = lists.structs[PKG + "Mode"].unions[0]
    assert mode.discriminator is not None and mode.discriminator.values == ("Fast", "Safe")


def test_the_table_and_validate_reject_what_the_server_rejects(tmp_path: Path) -> None:
    root = tmp_path / "m"
    shutil.copytree(CHECK / "enumlists", root / "enumlists")
    (root / "go.mod").write_text("module example.com/check\n\ngo 1.24\n")
    res = run_cli(["generate", "./enumlists/..."], root)
    assert res.code == 0, res.stderr
    table = json.loads((root / "openapi" / "unions_table.json").read_text())
    types = table["types"]
    assert [u["values"] for u in types["com.example.check.enumlists.CodeSource"]["unions"]] == [
        ["HTTP", "Image"]
    ]
    assert [u["values"] for u in types["com.example.check.enumlists.Mode"]["unions"]] == [
        ["Fast", "Safe"]
    ]
    (root / "cm.yaml").write_text("type: ConfigMap\n")
    res = run_cli(["validate", "--type", "CodeSource", "cm.yaml"], root)
    assert res.code == 1 and "ConfigMap" in res.stdout, res.stdout
    (root / "http.yaml").write_text("type: HTTP\nhttp: x\n")
    assert run_cli(["validate", "--type", "CodeSource", "http.yaml"], root).code == 0


def test_crd_rules_add_the_server_s_enum(lists: Model) -> None:
    crd = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: sources.example.com
spec:
  group: example.com
  names:
    kind: CodeSource
    plural: sources
  scope: Namespaced
  versions:
  - name: enumlists
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          type:
            type: string
          http:
            type: string
          image:
            type: string
"""
    new, _ = patch_text(lists, crd, "crd.yaml")
    assert "- ConfigMap" not in new
    assert "            enum:\n            - HTTP\n            - Image\n" in new


def test_diff_reports_exactly_the_wire_change() -> None:
    root = TESTDATA / "enums"
    result = run_diff("release1", "release2", root, "json")
    rows = {(c.classification, c.kind, c.field) for c in result.changes}
    assert rows == {("compatible", "enum-value-added", "forwardMode")}
    assert "InsecureSyntax" in result.changes[0].message


def test_field_level_gated_enum_gives_a_discriminator_its_values() -> None:
    model = load_model(["./gatedenum/..."], CHECK)
    spec = model.structs[GATED + "PlatformSpec"]
    field = spec.field("Type")
    assert field is not None
    assert [(g.gate, g.values) for g in field.enum_gates] == [
        ("", ("AWS", "Azure")),
        ("GCPPlatform", ("AWS", "Azure", "GCP")),
    ]
    union = spec.unions[0]
    assert union.dialect == "kep1027"
    assert union.discriminator is not None
    assert union.discriminator.values == ("AWS", "Azure", "GCP")
    assert [d.code for d in check_model(model)] == []  # no MG201 "has no enum values"
    assert _props(model, GATED + "PlatformSpec")["type"]["enum"] == ["AWS", "Azure", "GCP"]


def _module(tmp_path: Path, text: str) -> Path:
    (tmp_path / "go.mod").write_text("module example.com/m\n\ngo 1.24\n")
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1" / "types.go").write_text(text)
    return tmp_path


def test_mg201_hint_is_never_empty(tmp_path: Path) -> None:
    root = _module(
        tmp_path,
        "package v1\n\ntype S struct {\n\t// +unionDiscriminator\n\t// +required\n"
        '\tType string `json:"type"`\n}\n',
    )
    (found,) = [d for d in check_model(load_model(["./..."], root)) if d.code == "MG201"]
    assert found.hint and found.hint.strip() and "+kubebuilder:validation:Enum=" in found.hint
    assert not found.hint.startswith(" (")


def test_mg205_hint_keeps_an_enum_discriminator(tmp_path: Path) -> None:
    root = _module(
        tmp_path,
        "package v1\n\ntype S struct {\n"
        '\t// +openshift:validation:FeatureGateAwareEnum:featureGate="",enum=AWS;Azure\n'
        '\t// +unionDiscriminator\n\t// +required\n\tType string `json:"type"`\n}\n',
    )
    (found,) = [d for d in check_model(load_model(["./..."], root)) if d.code == "MG205"]
    assert found.hint is not None and "remove" not in found.hint
    assert "+unionMember=<value>" in found.hint and '"AWS", "Azure"' in found.hint


# ---- the CRDs as a check -------------------------------------------------------------

PROJECT = TESTDATA / "projects" / "enumcrd"


def test_crd_enum_is_the_intersection_of_enum_and_all_of() -> None:
    node = {"allOf": [{"enum": ["HTTP", "Image"]}, {"enum": ["HTTP", "Image", "ConfigMap"]}]}
    assert crd_enum(node) == ("HTTP", "Image")
    assert crd_enum({"type": "string"}) is None


def _node(ours: tuple[str, ...] | None, theirs: tuple[str, ...] | None,
          floor: tuple[str, ...] | None = None) -> EnumNode:  # fmt: skip
    return EnumNode("c.yaml", 1, "S.f", Position("t.go", 1, 1), ours, theirs, floor)


def test_verdicts() -> None:
    assert _node(("A", "B"), ("B", "A")).verdict == "agree"
    assert _node(("A", "B", "C"), ("A", "B")).verdict == "wider"
    assert _node(("A",), ("A", "B")).verdict == "narrower"
    assert _node(None, ("A",)).verdict == "wider"
    assert _node(("A", "C"), ("A", "B")).verdict == "both"
    # a feature-set variant: at least the ungated values, at most every gate's
    assert _node(("A", "B", "C"), ("A", "B"), floor=("A",)).verdict == "agree"
    assert _node(("A", "B", "C"), ("B",), floor=("A",)).verdict == "wider"  # lacks A


def test_stale_crd_is_reported_once_per_disagreement(tmp_path: Path) -> None:
    root = tmp_path / "p"
    shutil.copytree(PROJECT, root)
    res = run_cli(["check", "--format", "json"], root)
    assert res.code == 0, res.stderr
    found = [d for d in json.loads(res.stdout) if d["code"] in ("MG520", "MG521")]
    codes = sorted((d["code"], d["line"]) for d in found)
    # forwardMode (spec, status) and modes[*] share one Go list: one finding
    assert codes == [("MG520", 4), ("MG521", 25)], found
    mg520 = next(d for d in found if d["code"] == "MG520")
    assert 'only markergen accepts "InsecureSyntax"' in mg520["message"]
    assert 'only the CRD accepts "Syntax"' in mg520["message"]
    assert "(and 2 more CRD nodes)" in mg520["message"]


def test_regenerated_crd_agrees(tmp_path: Path) -> None:
    root = tmp_path / "p"
    shutil.copytree(PROJECT, root)
    crd = root / "config" / "crd" / "bases" / "enums.example.com_proxies-stale.yaml"
    crd.write_text(crd.read_text().replace("- Syntax", "- InsecureSyntax").replace(
        "default: Image", "default: HTTP"))  # fmt: skip
    model = load_model(["./api/..."], root)
    nodes = compare_files(model, [crd], root)
    counts = summary(nodes)
    assert counts["compared"] == 4 and counts["agree"] == 4, nodes
    res = run_cli(["check"], root)
    assert res.code == 0 and "MG52" not in res.stdout, res.stdout


def test_check_is_served_from_the_cache_until_a_crd_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from markergen import cli
    from markergen.crd import enumcheck

    root = tmp_path / "p"
    shutil.copytree(PROJECT, root)
    monkeypatch.chdir(root)
    monkeypatch.delenv("MARKERGEN_CACHE_DIR", raising=False)
    assert cli.main(["check"]) == 0
    first = capsys.readouterr().out
    assert "MG520" in first

    calls: list[int] = []
    real = enumcheck.Comparison.add

    def counting(self: enumcheck.Comparison, *args: Any, **kwargs: Any) -> None:
        calls.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(enumcheck.Comparison, "add", counting)
    assert cli.main(["check"]) == 0
    assert capsys.readouterr().out == first and calls == []  # a cache hit
    crd = root / "config" / "crd" / "bases" / "enums.example.com_proxies-stale.yaml"
    crd.write_text(crd.read_text().replace("- Syntax", "- InsecureSyntax"))
    assert cli.main(["check"]) == 0
    out = capsys.readouterr().out
    assert calls and "MG520" not in out and "MG521" in out


def test_enum_forms_of_real_generators() -> None:
    model = load_model(["./enumforms/..."], CHECK)
    forms = "example.com/check/enumforms."
    # controller-gen reads no marker in a /* */ comment: ModuleType is no enum
    assert forms + "ModuleType" not in model.enums
    props = _props(model, forms + "Filter")
    assert "enum" not in props["module"]
    # gateway-api's channel tag: the union of the channels, the standard list the floor
    field = model.structs[forms + "Filter"].field("Type")
    assert field is not None
    assert [(g.gate, g.values[-1]) for g in field.enum_gates] == [
        ("gateway:experimental", "ExternalAuth")
    ]
    assert props["type"]["enum"] == ["ExternalAuth", "RequestHeaderModifier", "URLRewrite"]
    enforced = field_enum(field, None)
    assert enforced is not None and enforced.floor == ("RequestHeaderModifier", "URLRewrite")


def test_enum_marker_one_blank_line_above_the_doc_is_read() -> None:
    # controller-tools markers/collect.go reads the "closest non-godoc" comment block too
    model = load_model(["./enumforms/..."], CHECK)
    field = model.structs["example.com/check/enumforms.RevocationSpec"].field("SignerClass")
    assert field is not None
    assert field.enum_values == ("customer-break-glass", "sre-break-glass")
    props = _props(model, "example.com/check/enumforms.RevocationSpec")
    assert props["signerClass"]["enum"] == ["customer-break-glass", "sre-break-glass"]
    assert field.description == "SignerClass identifies the class of signer to revoke."
