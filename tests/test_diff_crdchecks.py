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


def _without_version(tmp_path: Path, index: int, config: str | None = None) -> list[Any]:
    """The JSON entries of the base against a head without `spec.versions[index]` (both
    versions are in the base's status.storedVersions); the version left is the served
    storage version."""
    doc: dict[str, Any] = yaml.safe_load(BASE.read_text(encoding="utf-8"))
    assert set(doc["status"]["storedVersions"]) == {"v1", "v1beta1"}
    (tmp_path / "base.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    del doc["spec"]["versions"][index]
    doc["spec"]["versions"][0].update(served=True, storage=True)
    (tmp_path / "head.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    if config is not None:
        (tmp_path / "markergen.yaml").write_text(config)
    res = run_cli(["diff", "base.yaml", "head.yaml", "--format", "json"], tmp_path)
    assert res.code == 0, res.stderr
    changes: list[Any] = json.loads(res.stdout)["changes"]
    return changes


def test_a_stored_version_removed_is_one_entry(tmp_path: Path) -> None:
    """The version's removal and the storedVersionRemoval check are one cause: one
    entry, of the check's stricter kind, always breaking, at the version in the base,
    with the check's name and level and the removal's witness (a served version's)."""
    # v1beta1 (not served): the removal alone is compatible, the check makes it breaking
    (gone,) = _without_version(tmp_path, 1)
    assert (gone["class"], gone["kind"]) == ("breaking", "stored-version-removed")
    assert gone["crd"]["version"] == "v1beta1" and gone["crd"]["base"] is True
    assert (gone["crd"]["check"], gone["crd"]["level"]) == ("storedVersionRemoval", "error")
    assert gone["crd"]["witness"] is None  # no client could use that version
    assert "not served, is gone" in gone["message"]
    assert "status.storedVersions" in gone["message"]
    # v1 (served): the removal's witness stays, one entry for the version
    changes = _without_version(tmp_path, 0)
    gone = next(c for c in changes if c["crd"]["version"] == "v1")
    assert [c["kind"] for c in changes].count("stored-version-removed") == 1
    assert not any(c["kind"] == "version-removed" for c in changes), changes
    assert gone["class"] == "breaking" and gone["kind"] == "stored-version-removed"
    assert gone["crd"]["witness"] == {}  # the whole object of v1, refused in the head
    assert "clients of checks.example.com/v1 fail" in gone["message"]


def test_a_stored_version_removed_under_the_checks_levels(tmp_path: Path) -> None:
    """`warning` leaves the entry breaking without failing the run only where the
    removal alone is not breaking; `off` leaves the removal as it is."""
    warned = "crd-checks:\n  storedVersionRemoval: warning\n"
    (gone,) = _without_version(tmp_path, 1, warned)
    assert (gone["class"], gone["kind"], gone["crd"]["level"]) == (
        "breaking",
        "stored-version-removed",
        "warning",
    )
    gone = next(c for c in _without_version(tmp_path, 0, warned) if c["crd"]["version"] == "v1")
    assert (gone["kind"], gone["crd"]["level"]) == ("stored-version-removed", "error")
    off = "crd-checks:\n  storedVersionRemoval: 'off'\n"
    (gone,) = _without_version(tmp_path, 1, off)
    assert (gone["class"], gone["kind"]) == ("compatible", "version-removed")
    assert "check" not in gone["crd"]
