"""`markergen diff` on CRDs: sides of CRD files, directories, REV:PATH and revisions of
a kubebuilder project; unions read by evaluating the CRD's rules with a real CEL engine;
Go and CRD changes in one report (testdata/diff/crd, testdata/diff/crdproject)."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from markergen.diff import DiffInputError, run_diff
from markergen.diff.classify import Change
from markergen.diff.crdclassify import compare_crds
from markergen.diff.crdsource import collect

DATA = Path(__file__).parent.parent / "testdata" / "diff"
CRD = DATA / "crd" / "example.com_widgets.yaml"
PROJECT = DATA / "crdproject"
CRD_IN_PROJECT = "config/crd/bases/example.com_widgets.yaml"

Edit = Callable[[dict[str, Any]], None]


def _spec(doc: dict[str, Any], version: int = 0) -> dict[str, Any]:
    schema = doc["spec"]["versions"][version]["schema"]["openAPIV3Schema"]
    return schema["properties"]["spec"]["properties"]  # type: ignore[no-any-return]


def _variant(edit: Edit) -> str:
    doc = yaml.safe_load(CRD.read_text())
    changed = copy.deepcopy(doc)
    edit(changed)
    return yaml.safe_dump(changed, sort_keys=False)


def _compare(edit: Edit) -> list[Change]:
    base = collect([("base.yaml", CRD.read_text())], "base")
    head = collect([("head.yaml", _variant(edit))], "head")
    return sorted(compare_crds(base, head), key=Change.sort_key)


def _kinds(changes: list[Change]) -> list[tuple[str, str]]:
    return [(c.classification, c.kind) for c in changes]


def _source_rule(doc: dict[str, Any], rule: str) -> None:
    _spec(doc)["source"]["x-kubernetes-validations"][0]["rule"] = rule


def test_identical_crds_have_no_changes() -> None:
    assert _compare(lambda d: None) == []


def test_exactly_one_of_member_added_as_new_field_is_compatible() -> None:
    def edit(d: dict[str, Any]) -> None:
        _spec(d)["source"]["properties"]["git"] = {"type": "string"}
        _source_rule(
            d,
            "(has(self.configMap)?1:0) + (has(self.secret)?1:0) + (has(self.url)?1:0)"
            " + (has(self.git)?1:0) == 1",
        )

    changes = _compare(edit)
    assert _kinds(changes) == [("compatible", "member-added")]
    assert '"git" joined' in changes[0].message
    assert changes[0].crd_path == "spec.source"


def test_exactly_one_of_existing_field_joining_is_breaking() -> None:
    """An existing field joins: an object that set it with another member breaks."""

    def edit(d: dict[str, Any]) -> None:
        _spec(d)["source"]["properties"]["ref"] = {"type": "string"}
        _source_rule(
            d, "(has(self.configMap)?1:0) + (has(self.secret)?1:0) + (has(self.url)?1:0) == 1"
        )

    base_doc = yaml.safe_load(CRD.read_text())
    base_doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"][
        "properties"
    ]["source"]["properties"]["ref"] = {"type": "string"}
    base = collect([("b.yaml", yaml.safe_dump(base_doc, sort_keys=False))], "base")

    def joined(d: dict[str, Any]) -> None:
        edit(d)
        _source_rule(
            d,
            "(has(self.configMap)?1:0) + (has(self.secret)?1:0) + (has(self.url)?1:0)"
            " + (has(self.ref)?1:0) == 1",
        )

    head = collect([("h.yaml", _variant(joined))], "head")
    changes = compare_crds(base, head)
    assert _kinds(changes) == [("breaking", "member-added")]
    # the witness sets the joining field together with a member the base required
    assert '"ref": "x"' in changes[0].message
    assert "rejected now" in changes[0].message


def test_exactly_one_of_member_removed_is_breaking_with_the_object_it_rejects() -> None:
    changes = _compare(
        lambda d: _source_rule(d, "(has(self.configMap)?1:0) + (has(self.secret)?1:0) == 1")
    )
    assert _kinds(changes) == [("breaking", "member-removed")]
    assert '{"url": "x"}' in changes[0].message


def test_hand_written_union_rule_tightened_is_breaking() -> None:
    def edit(d: dict[str, Any]) -> None:
        rules = _spec(d)["provider"]["x-kubernetes-validations"]
        rules[1]["rule"] = "self.type == 'GCP' ? has(self.gcp) : !has(self.gcp)"

    changes = _compare(edit)
    assert _kinds(changes) == [("breaking", "union-stricter")]
    assert '{"type": "GCP"}' in changes[0].message


def test_hand_written_union_rule_loosened_is_compatible() -> None:
    def edit(d: dict[str, Any]) -> None:
        del _spec(d)["provider"]["x-kubernetes-validations"][1]

    changes = _compare(edit)
    assert _kinds(changes) == [("compatible", "member-removed")]
    assert "accepted now" in changes[0].message


def test_equivalent_rewrite_of_a_union_rule_is_no_change() -> None:
    changes = _compare(
        lambda d: _source_rule(
            d, "[has(self.configMap), has(self.secret), has(self.url)].filter(x, x).size() == 1"
        )
    )
    assert changes == [], "a rule with the same verdicts is the same union"


def test_union_added_over_existing_fields_is_breaking() -> None:
    def edit(d: dict[str, Any]) -> None:
        _spec(d)["exclusive"] = {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        }

    base = collect([("b.yaml", _variant(edit))], "base")

    def with_rule(d: dict[str, Any]) -> None:
        edit(d)
        _spec(d)["exclusive"]["x-kubernetes-validations"] = [
            {"rule": "!(has(self.a) && has(self.b))", "message": "at most one"}
        ]

    head = collect([("h.yaml", _variant(with_rule))], "head")
    changes = compare_crds(base, head)
    assert _kinds(changes) == [("breaking", "union-added")]
    assert '{"a": "x", "b": "x"}' in changes[0].message


def test_enum_value_removed_is_breaking_and_added_compatible() -> None:
    removed = _compare(lambda d: _spec(d)["size"].__setitem__("enum", ["Small", "Medium"]))
    assert _kinds(removed) == [("breaking", "enum-value-removed")]
    assert removed[0].field == "size"
    added = _compare(
        lambda d: _spec(d)["size"].__setitem__("enum", ["Small", "Medium", "Large", "Huge"])
    )
    assert _kinds(added) == [("compatible", "enum-value-added")]


def test_discriminator_enum_value_removed_is_reported_once_as_enum_change() -> None:
    changes = _compare(
        lambda d: _spec(d)["provider"]["properties"]["type"].__setitem__("enum", ["AWS"])
    )
    assert ("breaking", "enum-value-removed") in _kinds(changes)


def test_default_changed_is_breaking() -> None:
    changes = _compare(
        lambda d: _spec(d)["provider"]["properties"]["type"].__setitem__("default", "GCP")
    )
    assert _kinds(changes) == [("breaking", "default-changed")]


def test_version_unserved_is_breaking_and_storage_and_deprecation_reported() -> None:
    unserved = _compare(lambda d: d["spec"]["versions"][1].__setitem__("served", False))
    assert _kinds(unserved) == [("breaking", "version-unserved")]
    assert unserved[0].crd_version == "v1beta1"

    def storage(d: dict[str, Any]) -> None:
        d["spec"]["versions"][0]["storage"] = False
        d["spec"]["versions"][1]["storage"] = True
        d["spec"]["versions"][1]["deprecated"] = True

    kinds = _kinds(_compare(storage))
    assert kinds.count(("compatible", "storage-version-changed")) == 2
    assert ("compatible", "version-deprecated") in kinds


def test_version_removed_is_breaking() -> None:
    changes = _compare(lambda d: d["spec"]["versions"].pop(1))
    assert _kinds(changes) == [("breaking", "version-removed")]
    assert changes[0].crd_base, "a removal is shown at its place in the base"


def test_rule_that_is_no_union_is_listed_not_compared_with_its_text() -> None:
    changes = _compare(
        lambda d: _spec(d)["replicas"]["x-kubernetes-validations"][0].__setitem__(
            "rule", "self >= 1"
        )
    )
    assert sorted(_kinds(changes)) == [
        ("not-compared", "rule-added"),
        ("not-compared", "rule-removed"),
    ]
    assert any("self >= 1" in c.message for c in changes)


def test_a_crd_split_into_files_or_renamed_is_no_change() -> None:
    text = CRD.read_text()
    base = collect([("a.yaml", text)], "base")
    doc = yaml.safe_load(text)
    one, two = copy.deepcopy(doc), copy.deepcopy(doc)
    one["spec"]["versions"] = one["spec"]["versions"][:1]
    two["spec"]["versions"] = two["spec"]["versions"][1:]
    head = collect(
        [("renamed.yaml", yaml.safe_dump(one)), ("other.yaml", yaml.safe_dump(two))], "head"
    )
    assert compare_crds(base, head) == []


# -- sides ---------------------------------------------------------------------------


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "widgets"
    shutil.copytree(PROJECT, root)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    return root


def _edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text()
    assert old in text, f"{old!r} not in {rel}"
    path.write_text(text.replace(old, new))


def test_crd_files_and_directories_are_sides(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text(CRD.read_text())
    head = tmp_path / "head"
    head.mkdir()
    (head / "w.yaml").write_text(
        _variant(lambda d: _spec(d)["size"].__setitem__("enum", ["Small"]))
    )
    result = run_diff(str(base), str(head), tmp_path, "json")
    doc = json.loads(result.text)
    assert doc["breaking"] == 1
    change = doc["changes"][0]
    assert change["kind"] == "enum-value-removed"
    assert change["crd"]["name"] == "widgets.example.com"
    assert change["crd"]["file"] == "head/w.yaml"
    assert result.fails("breaking")


def test_rev_path_of_a_crd_directory_is_a_side(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _edit(
        root,
        CRD_IN_PROJECT,
        "                    - AWS\n                    - GCP\n",
        "                    - AWS\n",
    )
    result = run_diff("HEAD:config/crd/bases", "config/crd/bases", root, "text")
    assert "enum-value-removed" in result.text
    assert "config/crd/bases/example.com_widgets.yaml:" in result.text


def test_crd_side_against_a_go_side_without_crds_is_refused(tmp_path: Path) -> None:
    go = tmp_path / "go"
    shutil.copytree(PROJECT / "api", go / "api")
    (go / "go.mod").write_text("module example.com/widgets\n\ngo 1.22\n")
    with pytest.raises(DiffInputError, match="CRDs"):
        run_diff(str(CRD), str(go), tmp_path, "text")


def test_revision_of_a_kubebuilder_project_reports_go_and_crd_together(tmp_path: Path) -> None:
    """The member removed from ExactlyOneOf in the Go and in the regenerated CRD is one
    entry with both positions; a hand edit of the CRD alone is flagged."""
    root = _project(tmp_path)
    _edit(
        root,
        "api/v1/widget_types.go",
        "ExactlyOneOf=configMap;secret;url",
        "ExactlyOneOf=configMap;secret",
    )
    # what controller-gen v0.23.0 writes for the head's marker (tests/cgenfixtures.py)
    _edit(
        root,
        CRD_IN_PROJECT,
        "                - message: exactly one of the fields in [configMap secret url] must\n"
        "                    be set\n"
        "                  rule: (has(self.configMap)?1:0)+(has(self.secret)?1:0)+(has(self.url)?1:0)\n"
        "                    == 1\n",
        "                - message: exactly one of the fields in [configMap secret] must be\n"
        "                    set\n"
        "                  rule: (has(self.configMap)?1:0)+(has(self.secret)?1:0) == 1\n",
    )
    # a hand edit of the CRD: no Go change behind it
    _edit(
        root,
        CRD_IN_PROJECT,
        "                - Medium\n                - Large\n",
        "                - Medium\n",
    )
    _git(root, "commit", "-qam", "head")
    result = run_diff("HEAD~1", None, root, "json")
    doc = json.loads(result.text)
    by_kind = {c["kind"]: c for c in doc["changes"]}
    assert set(by_kind) == {"member-removed", "enum-value-removed"}, doc["changes"]
    union = by_kind["member-removed"]
    assert union["class"] == "breaking"
    assert union["file"] == "api/v1/widget_types.go"
    assert union["crd"]["file"] == CRD_IN_PROJECT
    assert union["crd"]["go_behind"] is True
    assert union["type"].endswith(".Source")
    enum = by_kind["enum-value-removed"]
    assert enum["crd"]["go_behind"] is False
    assert "no Go change behind it" in enum["message"]
    assert result.fails("breaking")


def test_hand_written_rule_changed_in_go_is_backed(tmp_path: Path) -> None:
    root = _project(tmp_path)
    old = "has(self.gcp) ? self.type == 'GCP' : true"
    new = "self.type == 'GCP' ? has(self.gcp) : !has(self.gcp)"
    _edit(root, "api/v1/widget_types.go", old, new)
    _edit(
        root,
        CRD_IN_PROJECT,
        "'has(self.gcp) ? self.type == ''GCP'' : true'",
        "'self.type == ''GCP'' ? has(self.gcp) : !has(self.gcp)'",
    )
    _git(root, "commit", "-qam", "head")
    result = run_diff("HEAD~1", None, root, "json")
    doc = json.loads(result.text)
    assert [c["kind"] for c in doc["changes"]] == ["union-stricter"]
    assert doc["changes"][0]["crd"]["go_behind"] is True
    assert doc["changes"][0]["class"] == "breaking"


def test_default_changed_in_go_and_crd_is_backed(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _edit(root, "api/v1/widget_types.go", "+kubebuilder:default=AWS", "+kubebuilder:default=GCP")
    _edit(root, CRD_IN_PROJECT, "default: AWS", "default: GCP")
    _git(root, "commit", "-qam", "head")
    doc = json.loads(run_diff("HEAD~1", None, root, "json").text)
    (change,) = doc["changes"]
    assert (change["class"], change["kind"]) == ("breaking", "default-changed")
    assert change["crd"]["go_behind"] is True


def test_markdown_groups_crd_changes_by_kind_and_leads_with_breaking(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text(CRD.read_text())
    head = tmp_path / "head.yaml"

    def edit(d: dict[str, Any]) -> None:
        _spec(d)["size"]["enum"] = ["Small", "Medium", "Large", "Huge"]
        d["spec"]["versions"][1]["served"] = False

    head.write_text(_variant(edit))
    text = run_diff(str(base), str(head), tmp_path, "markdown").text
    lines = text.splitlines()
    assert lines.index("### Breaking (1)") < lines.index(
        "<details><summary>Compatible (1)</summary>"
    )
    assert lines.count("#### `Widget (widgets.example.com)`") == 2  # once per section
    breaking_row = next(line for line in lines if line.startswith("| :x:"))
    assert "| v1beta1 (beta) |" in breaking_row and "**version-unserved**" in breaking_row
    compatible_row = next(line for line in lines if line.startswith("| :white_check_mark:"))
    assert "`spec.size`" in compatible_row and "`head.yaml:" in compatible_row


def test_github_annotates_head_lines_only(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text(CRD.read_text())
    head = tmp_path / "head.yaml"
    head.write_text(_variant(lambda d: d["spec"]["versions"].pop(1)))
    text = run_diff(str(base), str(head), tmp_path, "github").text
    # the removed version exists only in the base file: no line of the head is named
    assert text.startswith("::warning title=") or text.startswith("::error title="), text
