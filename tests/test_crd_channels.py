"""gateway-api's release channels (testdata/projects/gatewaychannels): one Go union whose
`auth` member and `Auth`/`Deny` values exist only in the experimental channel. Each CRD
is compared with the channel it was generated for: the standard CRD's enum is right for
its channel (no MG503), its missing member is no missing member (no MG501), and its
union gets its rules (no MG506 "type=Deny with no member")."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml
from helpers import TESTDATA, run_cli

from markergen.crd.channels import channel_view, crd_channel

CRD = "routes.example.io_routes-handwritten.yaml"


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "gatewaychannels"
    shutil.copytree(TESTDATA / "projects" / "gatewaychannels", root)
    return root


def _rules(root: Path, channel: str) -> list[str]:
    crd = yaml.safe_load((root / "config" / "crd" / channel / CRD).read_text(encoding="utf-8"))
    node = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    items = node["properties"]["filters"]["items"]
    return [r["rule"] for r in items.get("x-kubernetes-validations", [])]


def test_each_channel_crd_gets_the_rules_of_its_channel(tmp_path: Path) -> None:
    root = _project(tmp_path)
    run = run_cli(["crd"], root)
    assert run.code == 0, run.stderr
    assert "using config/crd/standard (from default: gateway-api's channel layout)" in run.stderr
    for code in ("MG501", "MG503", "MG506"):
        assert code not in run.stderr, run.stderr
    standard, experimental = _rules(root, "standard"), _rules(root, "experimental")
    assert standard and experimental
    assert not any("auth" in r or "Auth" in r for r in standard), standard
    assert any("self.auth" in r for r in experimental), experimental
    # the experimental channel has every member; the standard one two of three
    assert len(experimental) == 6 and len(standard) == 4
    check = run_cli(["check", "--no-cache"], root)
    assert check.code == 0 and check.stdout == "", check.stdout


def test_a_crd_of_no_channel_is_compared_with_every_value(tmp_path: Path) -> None:
    """Without the channel annotation the CRD is the Go types' whole union: its enum
    lacking Deny is the disagreement it always was."""
    root = _project(tmp_path)
    path = root / "config" / "crd" / "standard" / CRD
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    gateway.networking.k8s.io/channel: standard\n", ""))
    run = run_cli(["crd", str(path)], root)
    assert "MG503" in run.stderr and "MG506" in run.stderr, run.stderr


def test_the_channel_view_of_the_union() -> None:
    from markergen.pipeline import load_model

    model = load_model(["./apis/..."], TESTDATA / "projects" / "gatewaychannels")
    (struct,) = [s for s in model.structs.values() if s.name == "RouteFilter"]
    (union,) = struct.unions
    assert union.discriminator is not None
    assert union.discriminator.values == ("Auth", "Deny", "Header", "Mirror")
    standard = channel_view(model, struct, union, "standard")
    assert standard.discriminator is not None
    assert standard.discriminator.values == ("Header", "Mirror")
    assert [m.json_name for m in standard.members] == ["header", "mirror"]
    experimental = channel_view(model, struct, union, "experimental")
    assert experimental is union
    assert channel_view(model, struct, union, "") is union


def test_the_channel_annotation() -> None:
    def crd(value: Any) -> dict[str, Any]:
        return {"metadata": {"annotations": {"gateway.networking.k8s.io/channel": value}}}

    assert crd_channel(crd("standard")) == "standard"
    assert crd_channel(crd("experimental")) == "experimental"
    assert crd_channel(crd("beta")) == "" and crd_channel(crd(3)) == ""
    assert crd_channel({"metadata": {}}) == "" and crd_channel([]) == ""
