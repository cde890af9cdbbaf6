"""`markergen crd`'s proofs, judged by the real API server (issue 35, item 3).

- Every object the proof keeps (samples, examples, docs, e2e data, API-server test
  suites) that the CRD as the project ships it accepts is accepted by the CRD markergen
  patched, on the server, in every fixture project that keeps objects.
- A rule markergen withheld because a kept object would be rejected (MG510) is one the
  server, given that rule, rejects that object with.
- MG509 ("the hand-written rules already enforce it"): with the project's CRD as it is,
  the server rejects every violation of that union the runtime table describes.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import kubeserver
import pytest
from apiserver_objects import (
    SCHEMA_DEPTH,
    PathKey,
    crd_documents,
    minimal,
    node_at,
    placed,
    version_of,
    with_enum,
    with_rule,
)
from helpers import TESTDATA
from test_crd_proof import HAND_RULES
from test_crd_samples import FINE, SAMPLE

from markergen.crd.files import CrdError
from markergen.crd.patch import Withheld
from markergen.crd.project import _plan, run_project
from markergen.crd.run import _GROUP, plan_files
from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.pipeline import load_model, with_model
from markergen.project.samples import SampleObject, load_samples
from markergen.runtime import Table, validate
from markergen.yamlio import YamlReader, indented_values

PROJECTS = TESTDATA / "projects"
GROUP = "ingress.example.openshift.io"
TECH = "ingress/v1/zz_generated.crd-manifests/widgets-TechPreviewNoUpgrade-handwritten.crd.yaml"
ENDPOINT_2019 = (
    f"apiVersion: {GROUP}/v1\nkind: Widget\nmetadata:\n  name: both\nspec:\n"
    "  endpoint:\n    type: Private\n    private: {}\n    hostNetwork: {}\n"
)


@dataclass(frozen=True)
class Case:
    """A fixture project as a test of the proof sets it up: where it comes from, the
    edits the test makes, and the arguments of `markergen crd`."""

    source: Path
    writes: dict[str, str] = field(default_factory=dict)
    replace: tuple[tuple[str, str, str], ...] = ()  # (file, old, new)
    paths: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    withholds: bool = False  # markergen withholds a rule for a kept object (MG510)
    # kept objects the project's own CRD rejects on the server ("file:line"), each a
    # known finding: the server's verdict, so no rule of markergen's is judged on them
    own_rejects: tuple[str, ...] = ()

    def build(self, tmp_path: Path) -> Path:
        root = tmp_path / self.source.name
        shutil.copytree(self.source, root)
        for rel, text in self.writes.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
        for rel, old, new in self.replace:
            text = (root / rel).read_text(encoding="utf-8")
            assert old in text, (rel, old)
            (root / rel).write_text(text.replace(old, new), encoding="utf-8")
        return root


TYPES = "api/v1/uplink_types.go"
UPLINKS = "config/crd/bases/net.example.com_uplinks.yaml"
TLS_OPTIONAL = ("api/v1/uplink_types.go", "+unionMember=TLS\n", "+unionMember=TLS,optional\n")
COLLECT_OPTIONAL = (
    "api/v1/uplink_types.go",
    "+unionMember=Collect\n",
    "+unionMember=Collect,optional\n",
)

TLS_BY_DEFAULT = """\
apiVersion: net.example.com/v1
kind: Uplink
metadata:
  name: tls-by-default
spec:
  endpoint:
    tls:
      secretName: cert
"""

TASKS_FIELD = """\
	// tasks are the tasks of the uplink, at most one of succeeded and failed.
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:item(name: "succeeded")=+k8s:zeroOrOneOfMember
	// +k8s:item(name: "failed")=+k8s:zeroOrOneOfMember
	// +kubebuilder:validation:MaxItems=8
	// +optional
	Tasks []Task `json:"tasks,omitempty"`
"""
TASK_TYPE = """
// Task is one task of an uplink.
type Task struct {
	// name of the task.
	Name string `json:"name"`
	// state of the task.
	// +optional
	State string `json:"state,omitempty"`
}
"""
TASKS_SCHEMA = """\
              tasks:
                description: tasks are the tasks of the uplink, at most one of succeeded
                  and failed.
                items:
                  description: Task is one task of an uplink.
                  properties:
                    name:
                      description: name of the task.
                      type: string
                    state:
                      description: state of the task.
                      type: string
                  required:
                  - name
                  type: object
                maxItems: 8
                type: array
                x-kubernetes-list-map-keys:
                - name
                x-kubernetes-list-type: map
"""
BOTH_TASKS = """\
apiVersion: net.example.com/v1
kind: Uplink
metadata:
  name: both-tasks
spec:
  tasks:
  - name: succeeded
  - name: failed
"""

PIGEON = """\
apiVersion: webapp.example.com/v1
kind: Guestbook
metadata:
  name: pigeon
spec:
  delivery:
    method: Pigeon
"""

EVERYTHING = """\
apiVersion: webapp.example.com/v1
kind: Guestbook
metadata:
  name: everything
spec:
  backup:
    pvc-name: archive
  delivery:
    method: Email
    email:
      address: ops@example.com
  frontend:
    exposure: Ingress
    ingress:
      host: guestbook.example.com
  notifications:
  - name: team
    channel: Slack
    slack: "#guestbook"
  retention:
    policy: Days
    days: 3
  schedules:
    nightly:
      kind: Cron
      cron: "0 0 * * *"
  storage:
    backend: S3
    s3:
      name: entries
    cache: Memory
    memory:
      entries: 100
"""
BROKEN = """\
apiVersion: webapp.example.com/v1
kind: Guestbook
metadata:
  name: two-backups
spec:
  delivery:
    method: Manual
  backup:
    namespace: archive
    pvc-name: archive
---
apiVersion: webapp.example.com/v1
kind: Guestbook
metadata:
  name: pager-without-pager
spec:
  delivery:
    method: Manual
  notifications:
  - name: oncall
    channel: Pager
---
apiVersion: webapp.example.com/v1
kind: Guestbook
metadata:
  name: interval-with-cron
spec:
  delivery:
    method: Manual
  schedules:
    hourly:
      kind: Interval
      interval: 1h
      cron: "0 * * * *"
---
apiVersion: webapp.example.com/v1
kind: Guestbook
metadata:
  name: days-and-count
spec:
  delivery:
    method: Manual
  retention:
    days: 3
    count: 10
"""

# Every fixture project whose CRDs have kept objects, as the tests that read them set
# them up (test_crd_samples, test_crd_proof, test_crd_gameserver).
CASES: dict[str, Case] = {
    # a 2019 union member with a default: the rule withheld for the kept sample
    "defaulted": Case(PROJECTS / "defaulted", withholds=True),
    "fleetnet": Case(PROJECTS / "fleetnet", withholds=True),
    # kept objects in Markdown blocks; one keeps mode=Plain beside tls (rule withheld);
    # two are a design proposal and a stale example the project's CRD rejects (MG516)
    "keptdocs": Case(
        PROJECTS / "keptdocs",
        withholds=True,
        own_rejects=("docs/guide.md:35", "docs/guide.md:47"),
    ),
    "fleetnet-tls-optional": Case(PROJECTS / "fleetnet", replace=(TLS_OPTIONAL,)),
    "fleetnet-collect-optional": Case(
        PROJECTS / "fleetnet", replace=(COLLECT_OPTIONAL,), withholds=True
    ),
    # The server defaults before it validates: `mode` defaults to TLS, so a kept
    # endpoint that sets only `tls` is a TLS endpoint (the proof must read it so too).
    "fleetnet-mode-default": Case(
        PROJECTS / "fleetnet",
        writes={"config/samples/tls_default.yaml": TLS_BY_DEFAULT},
        replace=(
            (
                "api/v1/uplink_types.go",
                "\t// +unionDiscriminator\n\t// +required\n\tMode EndpointMode",
                "\t// +unionDiscriminator\n\t// +kubebuilder:default=TLS\n\t// +required\n"
                "\tMode EndpointMode",
            ),
            (
                "config/crd/bases/net.example.com_uplinks.yaml",
                "                  mode:\n                    description: mode selects",
                "                  mode:\n                    default: TLS\n"
                "                    description: mode selects",
            ),
        ),
        withholds=True,
    ),
    # A union of list items (`+k8s:item`): its rule looks through the whole list, and a
    # kept object with both items must keep it from being written. The CRD's `tasks` is
    # written by hand as controller-gen writes such a list.
    "fleetnet-item-union": Case(
        PROJECTS / "fleetnet",
        writes={"config/samples/tasks.yaml": BOTH_TASKS},
        replace=(
            (
                "api/v1/uplink_types.go",
                '\tStorage *Storage `json:"storage,omitempty"`\n}\n',
                '\tStorage *Storage `json:"storage,omitempty"`\n' + TASKS_FIELD + "}\n" + TASK_TYPE,
            ),
            (
                "config/crd/bases/net.example.com_uplinks.yaml",
                "                required:\n                - type\n                type: object\n"
                "            type: object\n",
                "                required:\n                - type\n                type: object\n"
                + TASKS_SCHEMA
                + "            type: object\n",
            ),
        ),
        withholds=True,
    ),
    # The discriminator's enum markergen adds (the Go constants) must not reject a kept
    # object that the CRD accepts either.
    "example-method-outside-the-enum": Case(
        TESTDATA / "example",
        writes={"config/samples/webapp_v1_guestbook.yaml": PIGEON},
        withholds=True,
    ),
    # Every kind of union site the example has (escaped property names, list items, map
    # values, a 2019 union): one object the unions accept, and objects that break each.
    "example-every-site": Case(
        TESTDATA / "example",
        writes={"config/samples/everything.yaml": EVERYTHING, "examples/broken.yaml": BROKEN},
        withholds=True,
    ),
    "gameserver": Case(PROJECTS / "gameserver"),
    # openshift's union style: a member no rule reads is optional when selected, and the
    # kept object that leaves it out is accepted (markergen.accept.selected)
    "unionrules": Case(PROJECTS / "unionrules"),
    # controller-gen v0.23.0 merges the schema of Template's own `secret` with the inlined
    # one it hides (Go's encoding/json lets the outer field win), so its CRD requires
    # `secret.key` and rejects the first sample (tests/test_project_relay.py, strict xfail)
    "relay": Case(PROJECTS / "relay", own_rejects=("config/samples/relay_v1_relay.yaml:1",)),
    "openshift-samples": Case(
        TESTDATA / "crd" / "openshift",
        writes={
            "test/e2e/testdata/widget.yaml": "---\n" + FINE + "---\n" + SAMPLE,
            "config/samples/endpoint.yaml": ENDPOINT_2019,
        },
        paths=(TECH,),
        types=("./...",),
        withholds=True,
    ),
}


@dataclass(frozen=True)
class ProjectProofs:
    """What `markergen crd`'s proof reads and decides in a project."""

    files: tuple[Path, ...]  # the CRD files the run patches
    kept: tuple[SampleObject, ...]  # the objects the rules are evaluated on
    withheld: tuple[Withheld, ...]  # the rules not written for one of them (MG510)


def project_proofs(
    root: Path, *, paths: Sequence[Path] = (), types: Sequence[str] = ()
) -> ProjectProofs:
    """The proof of a `run_project` with the same arguments, writing nothing (and without
    the cache). Raises CrdError as `run_project` does."""
    reader = YamlReader()
    files, _, patterns = _plan(root, paths, types, False, reader)
    withheld: list[Withheld] = []
    with_model(
        list(patterns),
        root,
        False,
        lambda model: plan_files(files, model, root=root, withheld=withheld.append, reader=reader),
    )
    # the objects of the CRDs' groups, as the run's plan reads them
    groups = sorted({g for f in files for g in indented_values(_GROUP, reader.text(f), "  ")})
    kept = load_samples(root, groups, (), (), files, reader=reader) if groups else []
    return ProjectProofs(tuple(files), tuple(kept), tuple(withheld))


def _proofs(root: Path, case: Case) -> ProjectProofs:
    return project_proofs(root, paths=[root / p for p in case.paths], types=case.types)


def _patch(root: Path, case: Case) -> None:
    run = run_project(root, paths=[root / p for p in case.paths], types=case.types, use_cache=False)
    assert not run.result.has_errors, run.result.diagnostics


def _crds(files: tuple[Path, ...]) -> dict[Path, list[dict[str, Any]]]:
    return {f: list(crd_documents(f)) for f in files}


def _serves(crd: dict[str, Any], obj: SampleObject) -> bool:
    spec = crd["spec"]
    return (
        spec["group"] == obj.group
        and spec["names"]["kind"] == obj.kind
        and version_of(crd, obj.version) is not None
    )


def _where(o: SampleObject) -> str:
    return f"{o.kind} at {o.file}:{o.line}"


def test_the_cases_are_every_fixture_project_that_keeps_objects() -> None:
    """A new fixture project with kept objects must join CASES (the example keeps none)."""
    keeping = set()
    for root in [TESTDATA / "example", *sorted(p for p in PROJECTS.iterdir() if p.is_dir())]:
        try:
            if project_proofs(root).kept:
                keeping.add(root.name)
        except CrdError:
            continue  # no CRDs, nothing kept
    assert keeping == {c.source.name for c in CASES.values() if c.source.parent == PROJECTS}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_kept_object_is_accepted_by_the_patched_crd(
    kube: kubeserver.Server, tmp_path: Path, name: str
) -> None:
    case = CASES[name]
    root = case.build(tmp_path)
    proofs = _proofs(root, case)
    assert proofs.kept, "the case keeps objects"
    before = _crds(proofs.files)
    _patch(root, case)
    after = _crds(proofs.files)
    judged: dict[tuple[Path, int], set[tuple[str, int]]] = {}
    rejected: list[str] = []
    shipped_accepts: set[tuple[str, int]] = set()
    for path, docs in before.items():
        for i, (original, patched) in enumerate(zip(docs, after[path], strict=True)):
            objects = [o for o in proofs.kept if _serves(original, o)]
            if not objects:
                continue
            with kube.installed(original) as shipped, kube.installed(patched) as ours:
                for o in objects:
                    if not shipped.dry_run(o.value).accepted:
                        continue  # the server's verdict on the project's own CRD
                    shipped_accepts.add((o.file, o.line))
                    judged.setdefault((path, i), set()).add((o.file, o.line))
                    verdict = ours.dry_run(o.value)
                    if not verdict.accepted:
                        rejected.append(f"{path.name}: {_where(o)}: {verdict.message}")
    assert not rejected, rejected
    # every kept object is one the project's own CRD accepts: the proof judged real objects
    unjudged = [
        f"{o.file}:{o.line}" for o in proofs.kept if (o.file, o.line) not in shipped_accepts
    ]
    assert sorted(unjudged) == sorted(case.own_rejects), unjudged
    assert judged


@pytest.mark.parametrize("name", sorted(n for n in CASES if CASES[n].withholds))
def test_a_withheld_rule_is_one_the_server_rejects_the_object_with(
    kube: kubeserver.Server, tmp_path: Path, name: str
) -> None:
    case = CASES[name]
    root = case.build(tmp_path)
    proofs = _proofs(root, case)
    assert proofs.withheld, "the case has a rule withheld for a kept object (MG510)"
    _patch(root, case)
    docs = {
        (str(path.resolve()), doc["metadata"]["name"]): doc
        for path in proofs.files
        for doc in crd_documents(path)
    }
    for w in proofs.withheld:
        path = Path(w.file) if Path(w.file).is_absolute() else Path.cwd() / w.file
        patched = docs[(str(path.resolve()), w.crd)]
        with kube.installed(patched) as ours:
            assert ours.dry_run(w.object.value).accepted, "accepted without the rule"
        stricter_crd = (
            with_enum(patched, w.path, w.enum) if w.enum else with_rule(patched, w.path, w.rule)
        )
        with kube.installed(stricter_crd) as stricter:
            verdict = stricter.dry_run(w.object.value)
        assert not verdict.accepted, (w.rule, w.enum, _where(w.object))
        expected = "Unsupported value" if w.enum else w.rule["message"]
        assert expected in verdict.message, verdict.message


def test_the_proof_reads_a_kept_object_with_the_schema_defaults(tmp_path: Path) -> None:
    """Without the server: `mode` defaults to TLS, so the kept endpoint that sets only
    `tls` is a TLS endpoint and "tls may only be set when mode is TLS" accepts it."""
    case = CASES["fleetnet-mode-default"]
    with_default = _proofs(case.build(tmp_path), case)
    kept = [o.file for o in with_default.kept]
    assert "config/samples/tls_default.yaml" in kept
    assert [w.rule["message"] for w in with_default.withheld] == [
        'tls must be set when mode is "TLS" (union Endpoint.mode)'
    ]


# -- MG509 -------------------------------------------------------------------------------

EXACTLY_ONE_OF = (
    "                x-kubernetes-validations:\n"
    "                - message: exactly one of the fields in [aws gcp azure] must be set\n"
    "                  rule: (has(self.aws)?1:0)+(has(self.gcp)?1:0)+(has(self.azure)?1:0)\n"
    "                    == 1\n"
)


def _provider_case(hand: str, optional: bool) -> Case:
    """fleetnet with Provider's hand-written rules replaced by test_crd_proof's `hand`
    (in the Go markers and in the CRD as controller-gen writes them), `gcp` optional or
    not."""
    rules = HAND_RULES[hand]
    markers = "".join(
        f'// +kubebuilder:validation:XValidation:rule={json.dumps(r)},message="hand rule {i}"\n'
        for i, r in enumerate(rules)
    )
    crd = "                x-kubernetes-validations:\n" + "".join(
        f"                - message: hand rule {i}\n                  rule: {json.dumps(r)}\n"
        for i, r in enumerate(rules)
    )
    edits = [
        (TYPES, "// +kubebuilder:validation:ExactlyOneOf=aws;gcp;azure\n", markers),
        (UPLINKS, EXACTLY_ONE_OF, crd if rules else ""),
    ]
    if optional:
        edits.append(
            (
                TYPES,
                "\t// +unionMember\n\t// +optional\n\tGCP",
                "\t// +unionMember,optional\n\t// +optional\n\tGCP",
            )
        )
    return Case(PROJECTS / "fleetnet", replace=tuple(edits))


# The fixture projects (as the tests that claim MG509 set them up): every union markergen
# leaves to the hand-written rules of these CRDs is a claim checked below.
CLAIMS: dict[str, Case] = {
    "openshift": Case(
        TESTDATA / "crd" / "openshift",
        paths=("ingress/v1/zz_generated.crd-manifests",),
        types=("./...",),
    ),
    "fleetnet-collect-optional": CASES["fleetnet-collect-optional"],
    **{
        f"fleetnet-provider-{hand}{'-gcp-optional' if optional else ''}": _provider_case(
            hand, optional
        )
        for hand in ("per-member", "exactly-one", "aws-only", "gcp-when-gcp")
        for optional in (False, True)
    },
    "example": Case(TESTDATA / "example"),
    **{
        f"projects/{p.name}": Case(p)
        for p in sorted(PROJECTS.iterdir())
        if p.is_dir() and not p.name.startswith("_")
    },
}
_MG509 = re.compile(r"^union (\S+) at (\S+): the hand-written rules already enforce it")
UNSET = object()


@dataclass(frozen=True)
class Claim:
    case: str
    label: str  # the union as messages name it
    file: Path  # the CRD file, as controller-gen wrote it
    path: PathKey  # the union's schema node in it


def _claims(tmp_path: Path) -> Iterator[tuple[Claim, dict[str, Any], dict[str, Any]]]:
    """Each MG509 of a run of `markergen crd` on each case, with the CRD as it was before
    the run, and the project's runtime table."""
    for name, case in CLAIMS.items():
        root = case.build(tmp_path / name.replace("/", "-"))
        try:
            proofs = _proofs(root, case)
        except CrdError:
            continue
        before = {f: f.read_text(encoding="utf-8") for f in proofs.files}
        run = run_project(
            root, paths=[root / p for p in case.paths], types=case.types, use_cache=False
        )
        for d in run.result.diagnostics:
            found = _MG509.match(d.message) if d.code == "MG509" else None
            if found is None:
                continue
            file = Path(d.pos.file) if Path(d.pos.file).is_absolute() else Path.cwd() / d.pos.file
            file = file.resolve()
            path = tuple(int(p) if p.isdigit() else p for p in found.group(2).split("."))
            shipped = root / "shipped.yaml"
            shipped.write_text(before[file], encoding="utf-8")
            (doc,) = crd_documents(shipped)
            model = load_model(list(case.types) or ["./api/..."], root)
            table = build_table(model, EmitOptions())
            yield Claim(name, found.group(1), file, path), doc, table


def _table_union(table: dict[str, Any], label: str) -> tuple[str, dict[str, Any]]:
    """The runtime table's type and union description of the union `label` names."""
    struct, _, field_name = label.partition(".")
    found = []
    for type_name, info in table["types"].items():
        if not type_name.endswith("." + struct):
            continue
        for u in info.get("unions") or ():
            if (u.get("discriminator") or "") == field_name:
                found.append((type_name, u))
    (only,) = found
    return only


def _union_objects(node: dict[str, Any], union: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every discriminator value (the union's values, "", an unknown one, unset) with
    every set of members."""
    props = node.get("properties") or {}
    members = [m["field"] for m in union["members"] if m["field"] in props]
    disc = union.get("discriminator")
    values: list[Any] = [UNSET]
    if disc:
        values += ["", *union.get("values", ()), "Unknown"]
    for value in values:
        for n in range(len(members) + 1):
            for chosen in itertools.combinations(members, n):
                obj = {m: minimal(props[m]) for m in chosen}
                if value is not UNSET:
                    obj[disc] = value
                yield obj


def test_mg509_the_projects_own_rules_reject_every_union_violation(
    kube: kubeserver.Server, tmp_path: Path
) -> None:
    """For each MG509 claim of the fixtures: the CRD as the project ships it (no rule of
    markergen's) rejects, on the server, every object the runtime table's union rejects;
    and it accepts one the union accepts, so the rejections are the union's."""
    claims = list(_claims(tmp_path))
    assert {(c.case, c.label) for c, _, _ in claims} >= {
        ("openshift", "Policy.type"),
        ("fleetnet-collect-optional", "Collector.policy"),
    }
    accepted: list[str] = []
    for claim, doc, data in claims:
        table = Table.from_dict(data)
        type_name, union = _table_union(data, claim.label)
        node = node_at(doc, claim.path)
        root_schema = node_at(doc, claim.path[:SCHEMA_DEPTH])
        below = claim.path[SCHEMA_DEPTH:]
        version = doc["spec"]["versions"][claim.path[2]]["name"]
        violations = valid = 0
        with kube.installed(doc) as shipped:
            for obj in _union_objects(node, union):
                union_ok = validate(table, type_name, obj) == []
                verdict = shipped.dry_run(placed(root_schema, below, obj), version=version)
                if union_ok:
                    valid += verdict.accepted
                    continue
                violations += 1
                if verdict.accepted:
                    accepted.append(f"{claim.case} {claim.label}: {obj}")
        assert violations and valid, (claim, violations, valid)
    assert not accepted, accepted


def test_the_proof_reads_the_lists_of_a_union_of_list_items(tmp_path: Path) -> None:
    """Without the server: the kept object with both tasks keeps the rule of the item
    union from being written (MG510), as the server would reject it."""
    case = CASES["fleetnet-item-union"]
    proofs = _proofs(case.build(tmp_path), case)
    withheld = {w.rule["message"]: w.object.file for w in proofs.withheld}
    item = [m for m in withheld if m.endswith("(union UplinkSpec.tasks)")]
    assert len(item) == 1 and withheld[item[0]] == "config/samples/tasks.yaml"
