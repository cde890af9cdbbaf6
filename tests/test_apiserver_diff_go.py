"""`markergen diff` of Go union changes, judged by the real API server.

diff classes a Go union change breaking exactly when the union engine
(markergen/accept/compare.py) finds an object the base accepts and the head refuses, and
shows that object (`Change.witness`). Here each side's Go is turned into the CRD schema
node markergen writes for it (the fields, the discriminator's enum, default and
`required`, and the union's rules from `markergen.crd.cel.union_rules`), both are
installed on the server, and every witness is accepted by the base and refused by the
head. The cases are those of tests/test_diff_rules.py over the union of `Payment`
(and `Mutation`), including the two where the engine corrected the former hand-written
table (`discriminator-added/breaking-optional`: an optional discriminator added to an
existing union; `discriminator-default-changed/breaking-added`: a default whose value
selects a required member).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import kubeserver
import pytest
from test_diff_rules import CASES, EMPTY_VALUE, K8S_DISCRIMINATED, PAYMENT, module, one, with_method

from markergen.accept.compare import Side, states
from markergen.accept.compare import tests as verdict_tests
from markergen.accept.space import ABSENT
from markergen.crd.cel import union_rules
from markergen.diff import run_diff
from markergen.diff.surface import ALL_FACTS, surface_from_model
from markergen.markers import default_string
from markergen.model import Model, Struct, TypeRef
from markergen.pipeline import load_model

UNION_KINDS = ("member-", "discriminator-", "union-", "enum-value-removed")


def _struct(model: Model, name: str) -> Struct:
    (struct,) = [s for s in model.structs.values() if s.name == name]
    return struct


def _schema_type(model: Model, ref: TypeRef) -> str:
    """The schema type controller-gen writes for these fixtures' fields: a struct is an
    object, a string (or a named string type) a string."""
    ref = ref.deref()
    return "object" if ref.kind == "named" and ref.type_key in model.structs else "string"


def _crd(model: Model, struct: Struct) -> dict[str, Any]:
    """The CRD whose `spec` is the struct, as markergen writes its union rules."""
    props: dict[str, Any] = {}
    for f in struct.fields:
        if f.json_name:
            props[f.json_name] = {"type": _schema_type(model, f.type)}
    # what controller-gen requires: the fields that are not optional
    required = [f.json_name for f in struct.fields if f.json_name and not f.optional]
    for u in struct.unions:
        d = u.discriminator
        if d is None:
            continue
        props[d.json_name] = {"type": "string"}
        if d.values:
            props[d.json_name]["enum"] = list(d.values)
        default = default_string(d.default)
        if default is not None:
            props[d.json_name]["default"] = default
        if d.required and d.json_name not in required:
            required.append(d.json_name)
    types = {n: str(p["type"]) for n, p in props.items()}
    rules = []
    for u in struct.unions:
        found, _ = union_rules(u, struct.name, props, required, types)
        rules += [{"rule": r.rule, "message": r.message} for r in found]
    spec: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        spec["required"] = required
    if rules:
        spec["x-kubernetes-validations"] = rules
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "payments.shop.example.com"},
        "spec": {
            "group": "shop.example.com",
            "names": {"kind": "Payment", "listKind": "PaymentList", "plural": "payments",
                      "singular": "payment"},
            "scope": "Namespaced",
            "versions": [{
                "name": "v1", "served": True, "storage": True,
                "schema": {"openAPIV3Schema": {
                    "type": "object", "properties": {"spec": spec},
                }},
            }],
        },
    }  # fmt: skip


# Two more changes where the engine corrected the former table (which called both
# compatible): the discriminator's marker removed, its field kept, from a union whose
# value "None" selected no member (the head's exactly-one union refuses `{"method":
# "None"}`); a union over new fields whose new discriminator is required (an object of
# the base has no `method`).
NONE_VALUE = ('\tMethodCash Method = "Cash"\n', EMPTY_VALUE)
ALL_CASES = {
    **CASES,
    "discriminator-removed/breaking-empty-value": (
        with_method(NONE_VALUE, K8S_DISCRIMINATED),
        with_method(NONE_VALUE, K8S_DISCRIMINATED.replace("\t// +k8s:unionDiscriminator\n", "")),
        {("breaking", "discriminator-removed", "Payment", "method")},
    ),
    "union-added/breaking-new-required-discriminator": (
        one('type Payment struct {\n\tNote string `json:"note"`\n}\n'),
        one(
            PAYMENT.replace(
                "type Payment struct {\n", 'type Payment struct {\n\tNote string `json:"note"`\n'
            )
        ),
        {("breaking", "union-added", "Payment", "method")},
    ),
}
UNION_CASES = sorted(
    case
    for case, (_, _, rows) in ALL_CASES.items()
    if any(kind.startswith(UNION_KINDS) and go_type in ("Payment", "Mutation")
           for _, kind, go_type, _ in rows)
)  # fmt: skip


@pytest.mark.parametrize("case", UNION_CASES)
def test_each_breaking_witness_is_accepted_by_the_base_and_refused_by_the_head(
    kube: kubeserver.Server, tmp_path: Path, case: str
) -> None:
    before, after, expected = ALL_CASES[case]
    base = module(tmp_path / "base", before)
    head = module(tmp_path / "head", after)
    changes = run_diff(str(base), str(head), tmp_path, "json").changes
    assert {(c.classification, c.kind, c.go_type, c.field) for c in changes} == expected
    judged = [c for c in changes if c.breaking and c.witness is not None]
    for c in changes:
        # every breaking union change but the named rule of a dialect change has a witness
        if c.breaking and c.kind != "union-dialect-changed" and c.go_type != "":
            assert c.witness is not None, c
        if not c.breaking:
            assert c.witness is None, c
    if not judged:
        return
    go_type = judged[0].go_type
    base_crd, head_crd = _crd(*_read(base, go_type)), _crd(*_read(head, go_type))
    with kube.installed(base_crd) as old, kube.installed(head_crd) as new:
        for c in judged:
            witness = json.loads(c.witness or "{}")
            obj = {"spec": {**_others(base_crd, list(witness)), **witness}}
            taken = old.dry_run(obj)
            assert taken.accepted, (c.kind, obj, taken.message)
            refused = new.dry_run(obj)
            assert not refused.accepted, (c.kind, obj)


def _others(crd: dict[str, Any], fields: Sequence[str]) -> dict[str, Any]:
    """The type's required fields outside `fields`, set to a value of their type."""
    spec = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    return {
        f: {} if spec["properties"][f]["type"] == "object" else "x"
        for f in spec.get("required", ())
        if f not in fields
    }


def _read(root: Path, go_type: str) -> tuple[Model, Struct]:
    model = load_model(["./api/..."], root)
    return model, _struct(model, go_type)


def _engine_side(root: Path, go_type: str) -> Side:
    """The side diff's engine judges with: the type's union, declared and required
    fields, as markergen reads them from the Go."""
    surface = surface_from_model(load_model(["./api/..."], root))
    (t,) = [t for t in surface.types.values() if t.go_name == go_type]
    union = t.unions[0].engine(ALL_FACTS) if t.unions else None
    return Side(union, t.fields, t.required)


@pytest.mark.parametrize("case", UNION_CASES)
def test_the_engine_judges_each_object_as_the_server_does(
    kube: kubeserver.Server, tmp_path: Path, case: str
) -> None:
    """Every object of the union's space over both versions (each discriminator value
    either side names, `""`, one neither names, left out; each member set or left out):
    each side's engine verdict is the server's verdict on that side's CRD."""
    before, after, rows = ALL_CASES[case]
    go_type = next(t for _, kind, t, _ in rows if kind.startswith(UNION_KINDS))
    roots = [module(tmp_path / "base", before), module(tmp_path / "head", after)]
    sides = [_engine_side(root, go_type) for root in roots]
    fields, space = states(sides)
    objects = [
        {f: v for f, v in zip(fields, values, strict=True) if v is not ABSENT}
        for values in itertools.product(*space)
    ]
    assert len(objects) >= 4
    for root, engine in zip(roots, sides, strict=True):
        checks = verdict_tests(engine, fields)
        schema = _crd(*_read(root, go_type))
        others = _others(schema, fields)
        with kube.installed(schema) as crd:
            for obj in objects:
                assigned = {i: obj.get(f, ABSENT) for i, f in enumerate(fields)}
                expected = all(c.holds(assigned) for c in checks)
                verdict = crd.dry_run({"spec": {**others, **obj}})
                assert verdict.accepted == expected, (root.name, obj, verdict.message)
