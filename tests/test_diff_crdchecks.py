"""The CRD checks' settings through the command line: `crd-checks` levels and
`crd-check-options` in markergen.yaml, the `--crd-checks` flag, and a bad value's
message (the checks themselves: tests/test_apiserver_crdchecks.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from helpers import TESTDATA, run_cli

BASE = TESTDATA / "diff" / "crdchecks" / "base-handwritten.yaml"


def _pair(tmp_path: Path, config: str | None = None) -> Path:
    doc: dict[str, Any] = yaml.safe_load(BASE.read_text(encoding="utf-8"))
    (tmp_path / "base.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    spec = doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    spec["properties"]["size"]["maximum"] = 5
    spec["properties"]["mode"]["enum"].append("Turbo")
    (tmp_path / "head.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    if config is not None:
        (tmp_path / "markergen.yaml").write_text(config)
    return tmp_path


def _kinds(stdout: str) -> dict[str, tuple[str, str | None]]:
    return {c["kind"]: (c["class"], c["crd"].get("level")) for c in json.loads(stdout)["changes"]}


def test_defaults_fail_on_a_lowered_maximum(tmp_path: Path) -> None:
    res = run_cli(["diff", "base.yaml", "head.yaml", "--format", "json"], _pair(tmp_path))
    assert _kinds(res.stdout) == {
        "maximum-tightened": ("breaking", "error"),
        "enum-value-added": ("compatible", "error"),
    }
    res = run_cli(["diff", "base.yaml", "head.yaml", "--fail-on", "breaking"], tmp_path)
    assert res.code == 1


def test_levels_and_options_from_markergen_yaml(tmp_path: Path) -> None:
    config = "crd-checks:\n  maximum: warning\ncrd-check-options:\n  enum-addition: disallow\n"
    repo = _pair(tmp_path, config)
    res = run_cli(["diff", "base.yaml", "head.yaml", "--format", "json"], repo)
    assert _kinds(res.stdout) == {
        "maximum-tightened": ("breaking", "warning"),
        "enum-value-added": ("breaking", "error"),
    }
    config = "crd-checks:\n  maximum: 'off'\n  enum: warning\n"
    repo = _pair(tmp_path, config)
    res = run_cli(["diff", "base.yaml", "head.yaml", "--fail-on", "breaking"], repo)
    assert res.code == 0, res.stdout  # nothing left that counts
    assert "maximum" not in res.stdout


def test_the_flag_sets_every_check(tmp_path: Path) -> None:
    repo = _pair(tmp_path)
    args = ["diff", "base.yaml", "head.yaml", "--crd-checks", "warning", "--fail-on", "breaking"]
    res = run_cli(args, repo)
    assert res.code == 0, res.stdout
    assert "a warning: crd-checks maximum: warning" in res.stdout


def test_an_unknown_check_or_option_value_is_a_usage_error(tmp_path: Path) -> None:
    repo = _pair(tmp_path, "crd-checks:\n  enums: error\n")
    res = run_cli(["diff", "base.yaml", "head.yaml"], repo)
    assert res.code == 2
    assert "unknown check 'enums'" in res.stderr and "markergen.yaml" in res.stderr
    repo = _pair(tmp_path, "crd-check-options:\n  enum-addition: sometimes\n")
    res = run_cli(["diff", "base.yaml", "head.yaml"], repo)
    assert res.code == 2
    assert "crd-check-options" in res.stderr and "sometimes" in res.stderr


def test_a_member_added_with_its_discriminator_value_is_one_entry(tmp_path: Path) -> None:
    """The discriminator's new value is the member's change: the union's entry, not an
    enum entry beside it (crdify reports the enum value and the rules as unhandled)."""
    from markergen.diff import run_diff

    widgets = TESTDATA / "diff" / "crd" / "example.com_widgets.yaml"
    doc: dict[str, Any] = yaml.safe_load(widgets.read_text(encoding="utf-8"))
    (tmp_path / "base.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    spec = doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    provider = spec["properties"]["provider"]
    provider["properties"]["azure"] = {"type": "object", "properties": {}}
    provider["properties"]["type"]["enum"].append("Azure")
    provider["x-kubernetes-validations"].append(
        {"rule": "has(self.azure) ? self.type == 'Azure' : true", "message": "azure"}
    )
    (tmp_path / "head.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    result = run_diff("base.yaml", "head.yaml", tmp_path, "json")
    kinds = sorted((c["crd"]["version"], c["kind"]) for c in json.loads(result.text)["changes"])
    assert kinds == [("v1", "member-added")], kinds
