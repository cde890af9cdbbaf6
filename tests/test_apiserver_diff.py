"""`markergen diff` on CRD sides, judged by the real API server (issue 35, item 3).

The cases are the CRD changes of tests/test_diff_crd.py (on testdata/diff/crd), plus the
breaking kinds that file does not build (an enum added, a node with its union gone). For
every change the report (JSON) calls breaking, the witness object it shows is accepted by
the base CRD and rejected by the head CRD; a breaking change with no witness is one where
no object is rejected (a default changed: the server stores another value, checked so).
For a case whose changes are all compatible, every object the base accepts among the
generated ones (each property alone with each of its enum values or a small value, and
each pair of properties, at every object of the schema) is accepted by the head.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kubeserver
import pytest
import yaml
from apiserver_objects import (
    PathKey,
    minimal,
    node_at,
    placed,
    probe_objects,
    schema_path,
    schema_root,
    version_of,
)

from markergen.diff import run_diff

CRD = Path(__file__).parent.parent / "testdata" / "diff" / "crd" / "example.com_widgets.yaml"
Edit = Callable[[dict[str, Any]], None]
COUNT3 = "(has(self.configMap)?1:0) + (has(self.secret)?1:0) + (has(self.url)?1:0)"
# Breaking kinds where the head may reject nothing the base accepts: the meaning of an
# object that leaves the field out changes (docs/diff.md); a witness is shown only when
# a union at the node rejects such an object now.
NO_REJECTION = {"default-changed", "default-removed"}


def _spec(doc: dict[str, Any], version: int = 0) -> dict[str, Any]:
    schema = doc["spec"]["versions"][version]["schema"]["openAPIV3Schema"]
    return schema["properties"]["spec"]["properties"]  # type: ignore[no-any-return]


def _nothing(d: dict[str, Any]) -> None:
    pass


def _source_rule(rule: str) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        _spec(d)["source"]["x-kubernetes-validations"][0]["rule"] = rule

    return edit


def _add_ref(d: dict[str, Any]) -> None:
    _spec(d)["source"]["properties"]["ref"] = {"type": "string"}


def _ref_joins(d: dict[str, Any]) -> None:
    _add_ref(d)
    _source_rule(COUNT3 + " + (has(self.ref)?1:0) == 1")(d)


def _git_joins(d: dict[str, Any]) -> None:
    _spec(d)["source"]["properties"]["git"] = {"type": "string"}
    _source_rule(COUNT3 + " + (has(self.git)?1:0) == 1")(d)


def _tighten(d: dict[str, Any]) -> None:
    rules = _spec(d)["provider"]["x-kubernetes-validations"]
    rules[1]["rule"] = "self.type == 'GCP' ? has(self.gcp) : !has(self.gcp)"


def _loosen(d: dict[str, Any]) -> None:
    del _spec(d)["provider"]["x-kubernetes-validations"][1]


def _drop_gcp(d: dict[str, Any]) -> None:
    """A member gone with its field (Go field and CRD property), its rule with it."""
    del _spec(d)["provider"]["properties"]["gcp"]
    del _spec(d)["provider"]["x-kubernetes-validations"][1]


def _exclusive(d: dict[str, Any]) -> None:
    _spec(d)["exclusive"] = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
    }


def _exclusive_rule(d: dict[str, Any]) -> None:
    _exclusive(d)
    _spec(d)["exclusive"]["x-kubernetes-validations"] = [
        {"rule": "!(has(self.a) && has(self.b))", "message": "at most one"}
    ]


def _set(*keys: str | int, value: Any) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        node = _spec(d)
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value

    return edit


def _storage(d: dict[str, Any]) -> None:
    d["spec"]["versions"][0]["storage"] = False
    d["spec"]["versions"][1]["storage"] = True
    d["spec"]["versions"][1]["deprecated"] = True


def _beta_enum(d: dict[str, Any]) -> None:
    _spec(d, 1)["size"]["enum"] = ["Small"]


def _lists(values: list[str]) -> Edit:
    """`tags` (a list) and `labels` (a map) whose values take `values`."""

    def edit(d: dict[str, Any]) -> None:
        value = {"type": "string", "enum": values}
        _spec(d)["tags"] = {"type": "array", "items": dict(value)}
        _spec(d)["labels"] = {"type": "object", "additionalProperties": dict(value)}

    return edit


def _endpoints(rule: str) -> Edit:
    """`endpoints`, a list of objects with a union of `mode` and `tls` in each item."""

    def edit(d: dict[str, Any]) -> None:
        _spec(d)["endpoints"] = {
            "type": "array",
            "maxItems": 4,
            "items": {
                "type": "object",
                "properties": {
                    "mode": {"type": "string", "enum": ["TLS", "Plain"]},
                    "tls": {"type": "object", "properties": {"secret": {"type": "string"}}},
                },
                "required": ["mode"],
                "x-kubernetes-validations": [{"rule": rule, "message": "tls only with TLS"}],
            },
        }

    return edit


@dataclass(frozen=True)
class Case:
    base: Edit
    head: Edit
    kinds: tuple[tuple[str, str], ...]  # (class, kind) the report gives, sorted


CASES: dict[str, Case] = {
    # tests/test_diff_crd.py
    "new-field-joins": Case(_nothing, _git_joins, (("compatible", "member-added"),)),
    "existing-field-joins": Case(_add_ref, _ref_joins, (("breaking", "member-added"),)),
    "member-removed": Case(
        _nothing,
        _source_rule("(has(self.configMap)?1:0) + (has(self.secret)?1:0) == 1"),
        (("breaking", "member-removed"),),
    ),
    "rule-tightened": Case(_nothing, _tighten, (("breaking", "union-stricter"),)),
    "rule-loosened": Case(_nothing, _loosen, (("compatible", "member-removed"),)),
    "union-added": Case(_exclusive, _exclusive_rule, (("breaking", "union-added"),)),
    "enum-value-removed": Case(
        _nothing,
        _set("size", "enum", value=["Small", "Medium"]),
        (("breaking", "enum-value-removed"),),
    ),
    "enum-value-added": Case(
        _nothing,
        _set("size", "enum", value=["Small", "Medium", "Large", "Huge"]),
        (("compatible", "enum-value-added"),),
    ),
    "discriminator-value-removed": Case(
        _nothing,
        _set("provider", "properties", "type", "enum", value=["AWS"]),
        (("breaking", "enum-value-removed"),),
    ),
    "default-changed": Case(
        _nothing,
        _set("provider", "properties", "type", "default", value="GCP"),
        (("breaking", "default-changed"),),
    ),
    "version-unserved": Case(
        _nothing,
        lambda d: d["spec"]["versions"][1].__setitem__("served", False),
        (("breaking", "version-unserved"),),
    ),
    "version-removed": Case(
        _nothing, lambda d: d["spec"]["versions"].pop(1), (("breaking", "version-removed"),)
    ),
    "storage-moved": Case(
        _nothing,
        _storage,
        (
            ("compatible", "storage-version-changed"),
            ("compatible", "storage-version-changed"),
            ("compatible", "version-deprecated"),
        ),
    ),
    "equivalent-rewrite": Case(
        _nothing,
        _source_rule(
            "[has(self.configMap), has(self.secret), has(self.url)].filter(x, x).size() == 1"
        ),
        (),
    ),
    "default-added": Case(
        _nothing, _set("size", "default", value="Small"), (("compatible", "default-added"),)
    ),
    # no union reads `size`: nothing is rejected, the server stores another value
    "plain-default-changed": Case(
        _set("size", "default", value="Small"),
        _set("size", "default", value="Medium"),
        (("breaking", "default-changed"),),
    ),
    "enum-removed": Case(
        _nothing, lambda d: _spec(d)["size"].pop("enum"), (("compatible", "enum-removed"),)
    ),
    # a default on a member of an exactly-one union: every object that sets another
    # member now has two
    "member-default-added": Case(
        _nothing,
        _set("source", "properties", "url", "default", value="https://example.com"),
        (("breaking", "default-added"),),
    ),
    # enums of list items and map values, and a union in list items
    "item-enum-value-removed": Case(
        _lists(["a", "b"]), _lists(["a"]), (("breaking", "enum-value-removed"),) * 2
    ),
    "item-union-stricter": Case(
        _endpoints("!has(self.tls) || self.mode == 'TLS'"),
        _endpoints("self.mode == 'TLS' ? has(self.tls) : !has(self.tls)"),
        (("breaking", "union-stricter"),),
    ),
    # breaking kinds test_diff_crd.py does not build
    "member-field-removed": Case(_nothing, _drop_gcp, (("breaking", "member-removed"),)),
    "enum-added": Case(_nothing, _beta_enum, (("breaking", "enum-added"),)),
    "node-with-union-gone": Case(
        _nothing, lambda d: _spec(d).pop("source"), (("breaking", "union-removed"),)
    ),
}


def _doc(edit: Edit) -> dict[str, Any]:
    doc = yaml.safe_load(CRD.read_text(encoding="utf-8"))
    edit(doc)
    return doc  # type: ignore[no-any-return]


def _report(tmp_path: Path, base: dict[str, Any], head: dict[str, Any]) -> list[dict[str, Any]]:
    (tmp_path / "base.yaml").write_text(yaml.safe_dump(base, sort_keys=False))
    (tmp_path / "head.yaml").write_text(yaml.safe_dump(head, sort_keys=False))
    result = run_diff("base.yaml", "head.yaml", tmp_path, "json")
    changes: list[dict[str, Any]] = json.loads(result.text)["changes"]
    return changes


@pytest.mark.parametrize("name", sorted(CASES))
def test_breaking_witnesses_and_compatible_objects_on_the_server(
    kube: kubeserver.Server, tmp_path: Path, name: str
) -> None:
    case = CASES[name]
    base, head = _doc(case.base), _doc(case.head)
    changes = _report(tmp_path, base, head)
    assert sorted((c["class"], c["kind"]) for c in changes) == sorted(case.kinds)
    with kube.installed(base) as before, kube.installed(head) as after:
        for c in changes:
            if c["class"] != "breaking":
                continue
            version = c["crd"]["version"]
            below = schema_path(c["crd"]["path"])
            witness = c["crd"]["witness"]
            if c["kind"] in NO_REJECTION and witness is None:
                _default_matters(base, before, after, version, below, c["field"])
                continue
            assert witness is not None, f"no witness for a breaking change: {c}"
            obj = placed(schema_root(base, version), below, witness)
            was = before.dry_run(obj, version=version)
            assert was.accepted, (c["kind"], obj, was.message)
            now = after.dry_run(obj, version=version)
            assert not now.accepted, (c["kind"], obj)
        if all(c["class"] == "compatible" for c in changes):
            _base_objects_stay_accepted(base, head, before, after)


def _default_matters(
    base: dict[str, Any],
    before: kubeserver.Installed,
    after: kubeserver.Installed,
    version: str,
    below: PathKey,
    field: str,
) -> None:
    """An object that leaves `field` out and that the base accepts is stored with
    another value of it by the head, or rejected there."""
    root = schema_root(base, version)
    node = node_at(root, below)
    bare = {k: v for k, v in minimal(node).items() if k != field}
    props = node.get("properties") or {}
    candidates = [bare] + [{**bare, p: minimal(props[p])} for p in sorted(props) if p != field]
    for value in candidates:
        obj = placed(root, below, value)
        was = before.dry_run(obj, version=version)
        if not was.accepted:
            continue
        now = after.dry_run(obj, version=version)
        if not now.accepted:
            return
        inside = [p for p in below if p != "properties"]
        assert was.stored is not None and now.stored is not None
        old, new = (node_at(v.stored, inside).get(field) for v in (was, now))
        assert old != new, (obj, old, new)
        return
    raise AssertionError(f"the base accepts no object at {below} that leaves {field} out")


def _base_objects_stay_accepted(
    base: dict[str, Any],
    head: dict[str, Any],
    before: kubeserver.Installed,
    after: kubeserver.Installed,
) -> None:
    tried = 0
    refused: list[str] = []
    for v in base["spec"]["versions"]:
        if not v.get("served", True) or version_of(head, v["name"]) is None:
            continue
        root = v["schema"]["openAPIV3Schema"]
        for below, value in probe_objects(root):
            obj = placed(root, below, copy.deepcopy(value))
            if not before.dry_run(obj, version=v["name"]).accepted:
                continue
            tried += 1
            verdict = after.dry_run(obj, version=v["name"])
            if not verdict.accepted:
                refused.append(f"{v['name']} {obj}: {verdict.message}")
    assert tried, "the base accepts some of the generated objects"
    assert not refused, refused


def test_a_member_gone_with_its_property_is_breaking_and_shows_its_witness(
    tmp_path: Path,
) -> None:
    """Without the server: the head drops `gcp` (property and rule); a client of the base
    that sends `{"type": "GCP", "gcp": {}}` is refused by the head under strict field
    validation, so the change is breaking (the server test above confirms the witness)."""
    case = CASES["member-field-removed"]
    (change,) = _report(tmp_path, _doc(case.base), _doc(case.head))
    assert (change["class"], change["kind"]) == ("breaking", "member-removed")
    assert change["crd"]["witness"] == {"type": "GCP", "gcp": {}}
    assert 'the schema no longer has "gcp"' in change["message"]


# -- revisions of a kubebuilder project: Go and CRD in one report --------------------------

PROJECT = CRD.parent.parent / "crdproject"
CRD_IN_PROJECT = "config/crd/bases/example.com_widgets.yaml"
GO_IN_PROJECT = "api/v1/widget_types.go"
Revision = tuple[tuple[str, str, str], ...]  # (file, old, new)

# The revisions of tests/test_diff_crd.py, and a discriminated member removed with its Go
# field and CRD property (its enum value kept: issue 37's misread rename).
REVISIONS: dict[str, tuple[Revision, set[tuple[str, str]]]] = {
    "exactly-one-member-dropped": (
        (
            (GO_IN_PROJECT, "ExactlyOneOf=configMap;secret;url", "ExactlyOneOf=configMap;secret"),
            (
                CRD_IN_PROJECT,
                # what controller-gen v0.23.0 writes for each marker (tests/cgenfixtures.py)
                "                - message: exactly one of the fields in [configMap secret url] must\n"
                "                    be set\n"
                "                  rule: (has(self.configMap)?1:0)+(has(self.secret)?1:0)+(has(self.url)?1:0)\n"
                "                    == 1\n",
                "                - message: exactly one of the fields in [configMap secret] must be\n"
                "                    set\n"
                "                  rule: (has(self.configMap)?1:0)+(has(self.secret)?1:0) == 1\n",
            ),
            (
                CRD_IN_PROJECT,
                "                - Medium\n                - Large\n",
                "                - Medium\n",
            ),
        ),
        {("breaking", "member-removed"), ("breaking", "enum-value-removed")},
    ),
    "rule-changed-in-go": (
        (
            (
                GO_IN_PROJECT,
                "has(self.gcp) ? self.type == 'GCP' : true",
                "self.type == 'GCP' ? has(self.gcp) : !has(self.gcp)",
            ),
            (
                CRD_IN_PROJECT,
                "'has(self.gcp) ? self.type == ''GCP'' : true'",
                "'self.type == ''GCP'' ? has(self.gcp) : !has(self.gcp)'",
            ),
        ),
        {("breaking", "union-stricter")},
    ),
    "default-changed-in-go": (
        (
            (GO_IN_PROJECT, "+kubebuilder:default=AWS", "+kubebuilder:default=GCP"),
            (CRD_IN_PROJECT, "default: AWS", "default: GCP"),
        ),
        {("breaking", "default-changed")},
    ),
    "member-gone-with-its-field": (
        (
            (GO_IN_PROJECT, '\t// +optional\n\tGCP *GCP `json:"gcp,omitempty"`\n', ""),
            (
                GO_IN_PROJECT,
                '// +kubebuilder:validation:XValidation:rule="has(self.gcp) ? self.type == '
                '\'GCP\' : true",message="gcp is allowed only when type is GCP"\n',
                "",
            ),
            (
                CRD_IN_PROJECT,
                "                  gcp:\n"
                "                    description: GCP configures the GCP provider.\n"
                "                    properties:\n"
                "                      project:\n                        type: string\n"
                "                    type: object\n",
                "",
            ),
            (
                CRD_IN_PROJECT,
                "                - message: gcp is allowed only when type is GCP\n"
                "                  rule: 'has(self.gcp) ? self.type == ''GCP'' : true'\n",
                "",
            ),
        ),
        {("breaking", "member-removed")},
    ),
}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.mark.parametrize("name", sorted(REVISIONS))
def test_revision_witnesses_on_the_server(
    kube: kubeserver.Server, tmp_path: Path, name: str
) -> None:
    edits, kinds = REVISIONS[name]
    root = tmp_path / "widgets"
    shutil.copytree(PROJECT, root)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    base = yaml.safe_load((root / CRD_IN_PROJECT).read_text(encoding="utf-8"))
    for rel, old, new in edits:
        text = (root / rel).read_text(encoding="utf-8")
        assert old in text, (rel, old)
        (root / rel).write_text(text.replace(old, new), encoding="utf-8")
    _git(root, "commit", "-qam", "head")
    head = yaml.safe_load((root / CRD_IN_PROJECT).read_text(encoding="utf-8"))
    changes = json.loads(run_diff("HEAD~1", None, root, "json").text)["changes"]
    assert {(c["class"], c["kind"]) for c in changes} == kinds, changes
    with kube.installed(base) as before, kube.installed(head) as after:
        for c in changes:
            assert c["crd"] is not None, c
            version, below = c["crd"]["version"], schema_path(c["crd"]["path"])
            if c["kind"] in NO_REJECTION and c["crd"]["witness"] is None:
                _default_matters(base, before, after, version, below, c["field"])
                continue
            obj = placed(schema_root(base, version), below, c["crd"]["witness"])
            assert before.dry_run(obj, version=version).accepted, (c["kind"], obj)
            assert not after.dry_run(obj, version=version).accepted, (c["kind"], obj)


def test_a_default_on_a_member_of_an_exactly_one_union_is_breaking(tmp_path: Path) -> None:
    """Without the server: once `url` has a default, `{"configMap": ...}` gets `url` too
    and ExactlyOneOf rejects it (the server test above confirms the witness)."""
    case = CASES["member-default-added"]
    (change,) = _report(tmp_path, _doc(case.base), _doc(case.head))
    assert (change["class"], change["kind"]) == ("breaking", "default-added")
    witness = change["crd"]["witness"]
    assert witness is not None and "url" not in witness and len(witness) == 1
    plain = _report(tmp_path, _doc(_nothing), _doc(CASES["default-added"].head))
    assert [(c["class"], c["crd"]["witness"]) for c in plain] == [("compatible", None)]
