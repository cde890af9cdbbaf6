"""Issue 28, "Proofs that prove": which union rules `markergen crd` writes is decided on
the whole space of a union's objects (every discriminator value and unset, every set of
members), with the schema's `required`, `enum`, `default` and rules on the discriminator
applied as the API server applies them, and the node's hand-written rules evaluated by a
real CEL engine. Fixture: testdata/projects/fleetnet, a kubebuilder project whose CRD
carries a hand rule weaker than its union (Provider), a hand rule that allows on purpose
what `+unionMember` without `,optional` forbids (Collector), a discriminator the schema
already requires (Storage), and an API-server test suite beside the CRD (Endpoint)."""

from __future__ import annotations

import itertools
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import TESTDATA, run_cli

from markergen.accept.celeval import CelEvaluator
from markergen.accept.reads import mentions, reads_values
from markergen.accept.space import ABSENT, Check, Field, OverBudget, find
from markergen.accept.union import NodeFacts
from markergen.crd.cel import union_rules
from markergen.crd.prove import prove_union
from markergen.emit.naming import key_definition_name
from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.model import Model, Union
from markergen.pipeline import load_model
from markergen.project.samples import suite_dirs
from markergen.runtime import Table, validate

FLEETNET = TESTDATA / "projects" / "fleetnet"
CRD = Path("config/crd/bases/net.example.com_uplinks.yaml")
TYPES = Path("api/v1/uplink_types.go")
SUITE = "config/crd/bases/tests/uplinks.net.example.com/endpoint.testsuite.yaml"


def _project(tmp_path: Path) -> Path:
    target = tmp_path / "fleetnet"
    shutil.copytree(FLEETNET, target)
    return target


def _spec(root: Path) -> dict[str, Any]:
    crd = yaml.safe_load((root / CRD).read_text(encoding="utf-8"))
    spec: dict[str, Any] = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    return spec["properties"]["spec"]["properties"]  # type: ignore[no-any-return]


def _line_of(root: Path, text: str) -> int:
    lines = (root / TYPES).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.strip() == text)


def _union(model: Model, name: str) -> Union:
    (union,) = [
        u
        for k, s in model.structs.items()
        if k.endswith("." + name)
        for u in s.unions
        if u.dialect != "kubebuilder"
    ]
    return union


def _server_ok(node: dict[str, Any], obj: dict[str, Any], cel: CelEvaluator) -> bool:
    """The API server's verdict on `obj` at `node`: `required`, `enum`, the rules."""
    if any(r not in obj for r in node.get("required", [])):
        return False
    for name, value in obj.items():
        enum = node["properties"][name].get("enum")
        if enum is not None and value not in enum:
            return False
    rules = [r["rule"] for r in node.get("x-kubernetes-validations", [])]
    return all(cel.verdict(r, obj) is True for r in rules)


def _every_object(node: dict[str, Any], disc: str) -> list[dict[str, Any]]:
    """Each value of the discriminator's enum (and unset) x every set of the members."""
    members = sorted(n for n in node["properties"] if n != disc)
    values: list[Any] = [None, *node["properties"][disc].get("enum", [])]
    out = []
    for value in values:
        for n in range(len(members) + 1):
            for chosen in itertools.combinations(members, n):
                obj: dict[str, Any] = {m: {} for m in chosen}
                if value is not None:
                    obj[disc] = value
                out.append(obj)
    return out


def test_crd_writes_what_the_hand_rules_miss_and_check_reports_the_same(
    tmp_path: Path,
) -> None:
    """`markergen crd` then `markergen check`, zero-config, as a user runs them."""
    root = _project(tmp_path)
    crd = run_cli(["crd"], root)
    assert crd.code == 0, crd.stderr
    assert "MG509" not in crd.stderr  # the weaker hand rule does not enforce Provider
    tls = _line_of(root, "// +unionMember=TLS")
    # the suite beside the CRD is read with no `samples:` setting; MG510 points at the
    # marker that makes tls required, names the suite's object, and the hint fits it
    (mg510,) = [line for line in crd.stderr.splitlines() if "MG510" in line]
    assert mg510.startswith(f"{TYPES.as_posix()}:{tls}:")
    assert f"{SUITE}:8" in mg510 and "tls must be set" in mg510
    assert "`+unionMember=TLS,optional`" in crd.stderr
    assert "drop `+union`" not in crd.stderr
    check = run_cli(["check", "--no-cache"], root)
    assert check.code == 0, check.stderr
    (mg511,) = [line for line in check.stdout.splitlines() if "MG511" in line]
    assert mg511.startswith(f"{TYPES.as_posix()}:{tls}:") and f"{SUITE}:8" in mg511
    assert "`+unionMember=TLS,optional`" in check.stdout


def test_a_hand_rule_weaker_than_the_union_gets_the_missing_rules(tmp_path: Path) -> None:
    """controller-gen's ExactlyOneOf accepts `{"type": "AWS", "gcp": {}}`, which the union
    (and markergen's runtime) rejects. markergen writes the rules that forbid a member
    the discriminator does not select; "required" ones follow from ExactlyOneOf with
    them, so they are not written. Then, over every value and every set of members, the
    API server's verdict equals markergen's runtime's."""
    root = _project(tmp_path)
    assert run_cli(["crd"], root).code == 0
    node = _spec(root)["provider"]
    messages = [r["message"] for r in node["x-kubernetes-validations"]]
    assert messages == [
        "exactly one of the fields in [aws gcp azure] must be set",
        'aws may only be set when type is "AWS" (union Provider.type)',
        'gcp may only be set when type is "GCP" (union Provider.type)',
        'azure may only be set when type is "Azure" (union Provider.type)',
    ]
    cel = CelEvaluator()
    assert not _server_ok(node, {"type": "AWS", "gcp": {}}, cel)
    assert _server_ok(node, {"type": "AWS", "aws": {}}, cel)
    model = load_model(["./api/..."], root)
    table = Table.from_dict(build_table(model, EmitOptions()))
    union = _union(model, "Provider")
    name = key_definition_name(union.struct)
    objects = _every_object(node, "type")
    assert len(objects) == 4 * 8
    for obj in objects:
        runtime_ok = validate(table, name, obj) == [] and "type" in obj
        assert _server_ok(node, obj, cel) == runtime_ok, obj


def test_a_hand_rule_that_allows_what_the_marker_forbids_is_a_disagreement(
    tmp_path: Path,
) -> None:
    """The shipped rule says `? true : !has(self.collect)` (collect may stay unset under
    Collect); `+unionMember=Collect` without `,optional` would require it. MG508, no rule
    written for the union; following the hint makes them agree, and the hand rule then
    enforces the whole union (MG509)."""
    root = _project(tmp_path)
    run = run_cli(["crd"], root)
    (mg508,) = [line for line in run.stderr.splitlines() if "MG508" in line]
    assert "Collector.policy" in mg508
    assert 'policy="Collect" with no member set' in mg508
    assert "no rules written for this union" in mg508
    assert "`+unionMember=Collect,optional`" in run.stderr
    assert len(_spec(root)["collector"]["x-kubernetes-validations"]) == 1
    # follow the hint
    types = root / TYPES
    text = types.read_text(encoding="utf-8")
    types.write_text(text.replace("+unionMember=Collect\n", "+unionMember=Collect,optional\n"))
    again = run_cli(["crd"], root)
    assert "MG508" not in again.stderr
    assert any("MG509" in line and "Collector.policy" in line for line in again.stderr.splitlines())
    assert len(_spec(root)["collector"]["x-kubernetes-validations"]) == 1


def test_check_reports_the_disagreement_crd_reports(tmp_path: Path) -> None:
    """`markergen check` runs the same proof as `crd` in a project with CRDs: the hand
    rule that lets `collect` stay unset under Collect is MG508 for both commands, at the
    same CRD line; check says that `crd` will write nothing for the union. Following the
    hint silences it in check too."""
    root = _project(tmp_path)
    crd = run_cli(["crd", "--verify"], root)
    # zero-config: the packages it read (./api/... and the Makefile's paths=./...)
    assert "markergen: read ./api/... and ./...: 1 package of " in crd.stderr
    (from_crd,) = [line for line in crd.stderr.splitlines() if "MG508" in line]
    check = run_cli(["check", "--no-cache"], root)
    assert check.code == 0, check.stderr  # a warning
    (from_check,) = [line for line in check.stdout.splitlines() if "MG508" in line]
    where = from_crd.split(" warning ")[0]
    assert where.startswith(f"{CRD.as_posix()}:")
    assert from_check.split(" warning ")[0] == where
    assert 'policy="Collect" with no member set' in from_check
    assert "`markergen crd` writes no rules for this union" in from_check
    assert "`+unionMember=Collect,optional`" in check.stdout
    assert "MG508" not in run_cli(["check", "--no-cache", "--format", "json"], root).stderr
    types = root / TYPES
    text = types.read_text(encoding="utf-8")
    types.write_text(text.replace("+unionMember=Collect\n", "+unionMember=Collect,optional\n"))
    again = run_cli(["check", "--no-cache"], root)
    assert "MG508" not in again.stdout and again.code == 0


def test_check_reports_a_hand_rule_that_rejects_what_the_markers_allow(tmp_path: Path) -> None:
    """The other disagreement: a hand rule forbids `tls` outright, which `mode: TLS` with
    `tls` (allowed by the markers) needs. crd and check both say MG508; crd still writes
    the rules the hand rule does not enforce, so check's message is crd's, unchanged."""
    root = _project(tmp_path)
    crd_path = root / CRD
    text = crd_path.read_text(encoding="utf-8")
    anchor = "                required:\n                - mode\n                type: object\n"
    assert text.count(anchor) == 1
    hand = (
        "                x-kubernetes-validations:\n"
        "                - message: tls is never allowed\n"
        "                  rule: '!has(self.tls)'\n"
    )
    crd_path.write_text(text.replace(anchor, anchor + hand), encoding="utf-8")
    crd = run_cli(["crd", "--verify"], root)
    (from_crd,) = [s for s in crd.stderr.splitlines() if "MG508" in s and "Endpoint.mode" in s]
    check = run_cli(["check", "--no-cache"], root)
    (from_check,) = [s for s in check.stdout.splitlines() if "MG508" in s and "Endpoint" in s]
    assert 'mode="TLS" with tls' in from_check
    assert from_check == from_crd


def test_following_the_mg510_hint_keeps_the_suite_object_accepted(tmp_path: Path) -> None:
    root = _project(tmp_path)
    types = root / TYPES
    text = types.read_text(encoding="utf-8")
    types.write_text(text.replace("+unionMember=TLS\n", "+unionMember=TLS,optional\n"))
    run = run_cli(["crd"], root)
    assert "MG510" not in run.stderr
    node = _spec(root)["endpoint"]
    cel = CelEvaluator()
    assert _server_ok(node, {"mode": "TLS"}, cel)  # the suite's object
    assert not _server_ok(node, {"mode": "Plain", "tls": {}}, cel)


def test_no_rule_the_schema_already_implies(tmp_path: Path) -> None:
    """Storage's discriminator is required and a rule on it allows only "S3" and "GCS":
    `has(self.type) ? self.type != "" : true` could never reject anything."""
    root = _project(tmp_path)
    assert run_cli(["crd"], root).code == 0
    rules = [r["rule"] for r in _spec(root)["storage"]["x-kubernetes-validations"]]
    assert len(rules) == 2
    assert not any('!= ""' in r for r in rules)


GO = """package v1

// +union
type Store struct {
	// +unionDiscriminator
	// +required
	Type string `json:"type"`
	// +optional
	S3 *string `json:"s3,omitempty"`
	// +optional
	GCS *string `json:"gcs,omitempty"`
}
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Union:
    root = tmp_path_factory.mktemp("store")
    (root / "go.mod").write_text("module example.com/store\n")
    (root / "v1").mkdir()
    (root / "v1" / "types.go").write_text(GO)
    return _union(load_model(["./..."], root), "Store")


PROPS = ["gcs", "s3", "type"]
TYPES_OF = {"gcs": "object", "s3": "object", "type": "string"}


@pytest.mark.parametrize(
    ("required", "enum", "facts", "written"),
    [
        # the shape: required, and the enum has no "": nothing to add
        (["type"], ["S3", "GCS"], NodeFacts(), False),
        # not required: the rule is what makes `type` required
        ([], ["S3", "GCS"], NodeFacts(), True),
        # required, but "" is a value: the rule rejects it
        (["type"], ["", "S3", "GCS"], NodeFacts(), True),
        # a default the API server applies first: never missing
        ([], ["S3", "GCS"], NodeFacts(defaults=(("type", '"S3"'),)), False),
        # no enum, but a rule on the field excludes ""
        (["type"], None, NodeFacts(discriminator_rules=("self in ['S3', 'GCS']",)), False),
    ],
)
def test_the_required_discriminator_rule_only_when_the_schema_does_not_say_it(
    store: Union,
    required: list[str],
    enum: list[str] | None,
    facts: NodeFacts,
    written: bool,
) -> None:
    rules, _ = union_rules(store, "Store", PROPS, required, TYPES_OF)
    # the static check cannot see the CRD's enum (the Go type has none)
    disc_rule = next(r for r in rules if r.field_path == ".type" and "!=" in r.rule)
    proof = prove_union(store, rules, PROPS, required, enum, CelEvaluator(), (), TYPES_OF, facts)
    assert (disc_rule in proof.rules) is written
    assert not proof.problems


PROVIDER_GO = """package v1

// +enum
type ProviderType string

const (
	ProviderAWS ProviderType = "AWS"
	ProviderGCP ProviderType = "GCP"
	ProviderAzure ProviderType = "Azure"
)

type Provider struct {
	// +unionDiscriminator
	// +required
	Type ProviderType `json:"type"`
	// +unionMember
	// +optional
	AWS *string `json:"aws,omitempty"`
	// +unionMember%s
	// +optional
	GCP *string `json:"gcp,omitempty"`
	// +unionMember
	// +optional
	Azure *string `json:"azure,omitempty"`
}
"""
COUNT = "(has(self.aws)?1:0)+(has(self.gcp)?1:0)+(has(self.azure)?1:0)"
PER_MEMBER = [
    f"has(self.type) && self.type == '{v}' ? has(self.{m}) : !has(self.{m})"
    for v, m in (("AWS", "aws"), ("GCP", "gcp"), ("Azure", "azure"))
]
HAND_RULES: dict[str, list[str]] = {
    "none": [],
    "exactly-one": [f"{COUNT} == 1"],
    "at-most-one": [f"{COUNT} <= 1"],
    "at-least-one": ["has(self.aws) || has(self.gcp) || has(self.azure)"],
    "per-member": PER_MEMBER,
    "aws-only": PER_MEMBER[:1],
    "gcp-when-gcp": ["!has(self.gcp) || self.type == 'GCP'"],
    "reads-a-setting": ["has(self.gcp) ? self.gcp != '' : true"],
    # allows gcp under another type when its value is "special": the space does not vary
    # values, so this rule's rejections prove nothing
    "reads-a-value": ["!has(self.gcp) || self.gcp == 'special' || self.type == 'GCP'"],
    "transition": ["oldSelf.type == self.type"],
}


def _provider(root: Path, optional: bool) -> Union:
    root.mkdir(parents=True, exist_ok=True)
    (root / "go.mod").write_text("module example.com/provider\n")
    (root / "v1").mkdir()
    (root / "v1" / "types.go").write_text(PROVIDER_GO % (",optional" if optional else ""))
    return _union(load_model(["./..."], root), "Provider")


@pytest.mark.parametrize("optional", [False, True])
@pytest.mark.parametrize("hand", sorted(HAND_RULES))
def test_hand_and_written_rules_reject_exactly_what_the_union_rejects(
    tmp_path: Path, hand: str, optional: bool
) -> None:
    """Soundness over the whole space: with the rules markergen keeps, the hand-written
    rules reject every object the union rejects; MG509 (`covered`) only when the hand
    rules alone already do; when the proof reports a disagreement nothing is kept."""
    union = _provider(tmp_path, optional)
    props = ["aws", "azure", "gcp", "type"]
    types = {"aws": "string", "azure": "string", "gcp": "string", "type": "string"}
    rules, _ = union_rules(union, "Provider", props, ["type"], types)
    enum = ["AWS", "Azure", "GCP"]
    cel = CelEvaluator()
    texts = HAND_RULES[hand]
    proof = prove_union(union, rules, props, ["type"], enum, cel, texts, types)
    assert not proof.problems
    if proof.allowances:
        assert proof.rules == () and not proof.covered
        return
    hand_texts = [t for t in texts if "oldSelf" not in t]
    for value in enum:
        for n in range(4):
            for chosen in itertools.combinations(["aws", "azure", "gcp"], n):
                obj: dict[str, Any] = {"type": value, **{m: "x" for m in chosen}}
                union_ok = all(cel.passes(r.rule, obj) for r in rules)
                hand_ok = all(cel.verdict(t, obj) is not False for t in hand_texts)
                kept_ok = all(cel.passes(r.rule, obj) for r in proof.rules)
                if not union_ok:
                    assert not (hand_ok and kept_ok), (obj, proof.rules)
                if proof.covered:
                    assert union_ok or not hand_ok, obj
    if hand in ("exactly-one", "per-member") and not optional:
        assert proof.covered == (hand == "per-member")
    if hand in ("exactly-one", "at-most-one", "at-least-one", "aws-only"):
        # counts and rules about other members never tie gcp to its value: what they
        # miss is written, never called a disagreement
        assert proof.allowances == () and proof.rules
    if hand == "reads-a-value":
        assert 'gcp may only be set when type is "GCP" (union Provider.type)' in [
            r.message for r in proof.rules
        ]
    if hand in ("none", "reads-a-setting", "transition"):
        assert list(proof.rules) == rules  # nothing known by hand: everything written


def test_a_rule_that_names_the_member_and_allows_it_is_a_disagreement(tmp_path: Path) -> None:
    union = _provider(tmp_path / "required", False)
    props = ["aws", "azure", "gcp", "type"]
    types = dict.fromkeys(props, "string")
    rules, _ = union_rules(union, "Provider", props, ["type"], types)
    hand = ["has(self.type) && self.type == 'GCP' ? true : !has(self.gcp)"]
    proof = prove_union(
        union, rules, props, ["type"], ["AWS", "Azure", "GCP"], CelEvaluator(), hand, types
    )
    (allowance,) = proof.allowances
    assert allowance.member == "gcp" and allowance.reason == "FieldValueRequired"
    assert 'type="GCP" with no member set' in allowance.text
    # the same rule is no disagreement once the marker says `,optional`
    optional = _provider(tmp_path / "optional", True)
    rules, _ = union_rules(optional, "Provider", props, ["type"], types)
    proof = prove_union(
        optional, rules, props, ["type"], ["AWS", "Azure", "GCP"], CelEvaluator(), hand, types
    )
    assert proof.allowances == ()
    assert [r.field_path for r in proof.rules] == [".aws", ".aws", ".azure", ".azure"]


def test_mentions_reads_the_fields_a_rule_names() -> None:
    assert mentions("has(self.a) && self.b == 'x'") == {"a", "b"}
    assert mentions("self.a.b != ''") == {"a"}
    assert mentions("self.all(k, k != 'x')") is None
    assert mentions("size(self) < 3") is None
    assert mentions("oldSelf == 1") == frozenset()


@pytest.mark.parametrize(
    ("rule", "reads"),
    [
        ("has(self.p) ? true : !has(self.q)", False),
        # fails on the `{}` an object member holds in the enumeration: no verdict
        ("has(self.p) && size(self.p.name) > 0", False),
        ("has(self.p.name)", True),
        ("size(self.p) > 0", True),
        ("self.p.all(k, k != 'x')", True),
        ("self.q == 'special'", True),  # a string member: its value decides
        ("self.q.name == 'x'", True),
    ],
)
def test_reads_values_tells_presence_from_value(rule: str, reads: bool) -> None:
    assert reads_values(rule, {"p", "q"}, objects={"p"}) is reads


def test_find_prunes_and_stops_at_its_budget() -> None:
    cel = CelEvaluator()
    fields = [Field(f"m{i}", (ABSENT, "x")) for i in range(12)]
    count = " + ".join(f"(has(self.m{i}) ? 1 : 0)" for i in range(12))
    found = find(fields, [Check(f"{count} <= 1", True), Check("has(self.m3)", False)], cel)
    assert found is not None and "m3" not in found
    # every field read by one rule: 4,096 objects, more than a budget of 100 evaluations
    with pytest.raises(OverBudget):
        find(fields, [Check(f"{count} != 12", False), Check(f"{count} >= 0", True)], cel, 100)
    assert find(fields, [Check("has(self.m0) && !has(self.m0)", True)], cel) is None


def test_suites_beside_a_crd_are_found(tmp_path: Path) -> None:
    root = _project(tmp_path)
    dirs = suite_dirs(root, [root / CRD])
    assert [d.relative_to(root).as_posix() for d in dirs] == ["config/crd/bases/tests"]
    openshift = tmp_path / "os"
    (openshift / "apps" / "v1" / "tests" / "widgets.apps").mkdir(parents=True)
    (openshift / "apps" / "v1" / "zz_generated.crd-manifests").mkdir()
    crd = openshift / "apps" / "v1" / "zz_generated.crd-manifests" / "w.crd.yaml"
    assert [d.relative_to(openshift).as_posix() for d in suite_dirs(openshift, [crd])] == [
        "apps/v1/tests"
    ]


def test_the_fixture_marks_each_case_where_its_comment_says(tmp_path: Path) -> None:
    """The fixture's shapes stay what the tests rely on."""
    text = (FLEETNET / TYPES).read_text(encoding="utf-8")
    assert "+kubebuilder:validation:ExactlyOneOf=aws;gcp;azure" in text
    assert re.search(r"\? true : !has\(self\.collect\)", text)
    assert (FLEETNET / SUITE).is_file()


def test_a_changed_suite_beside_the_crd_is_not_answered_from_the_cache(tmp_path: Path) -> None:
    """`markergen crd` reuses an earlier run's result when its inputs are unchanged; the
    test suites beside the CRDs are inputs too."""
    root = _project(tmp_path)
    original = (root / CRD).read_text(encoding="utf-8")
    first = run_cli(["crd"], root)
    assert "MG510" in first.stderr
    (root / CRD).write_text(original, encoding="utf-8")  # as controller-gen rewrites it
    suite = root / SUITE
    text = suite.read_text(encoding="utf-8")
    suite.write_text(
        text.replace("          mode: TLS\n", "          mode: Plain\n"), encoding="utf-8"
    )
    second = run_cli(["crd"], root)
    assert "MG510" not in second.stderr
    messages = [r["message"] for r in _spec(root)["endpoint"]["x-kubernetes-validations"]]
    assert 'tls must be set when mode is "TLS" (union Endpoint.mode)' in messages
