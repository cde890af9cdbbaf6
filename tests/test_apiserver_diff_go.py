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

import json
from pathlib import Path
from typing import Any

import kubeserver
import pytest
from test_diff_rules import CASES, module

from markergen.crd.cel import union_rules
from markergen.diff import run_diff
from markergen.markers import default_string
from markergen.model import Struct
from markergen.pipeline import load_model

UNION_KINDS = ("member-", "discriminator-", "union-", "enum-value-removed")


def _struct(root: Path, name: str) -> Struct:
    model = load_model(["./api/..."], root)
    (struct,) = [s for s in model.structs.values() if s.name == name]
    return struct


def _crd(struct: Struct) -> dict[str, Any]:
    """The CRD whose `spec` is the struct, as markergen writes its union rules."""
    props: dict[str, Any] = {}
    for f in struct.fields:
        if f.json_name:
            kind = "object" if f.type.kind == "pointer" else "string"
            props[f.json_name] = {"type": kind}
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


UNION_CASES = sorted(
    case
    for case, (_, _, rows) in CASES.items()
    if any(kind.startswith(UNION_KINDS) and go_type in ("Payment", "Mutation")
           for _, kind, go_type, _ in rows)
)  # fmt: skip


@pytest.mark.parametrize("case", UNION_CASES)
def test_each_breaking_witness_is_accepted_by_the_base_and_refused_by_the_head(
    kube: kubeserver.Server, tmp_path: Path, case: str
) -> None:
    before, after, expected = CASES[case]
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
    with (
        kube.installed(_crd(_struct(base, go_type))) as old,
        kube.installed(_crd(_struct(head, go_type))) as new,
    ):
        for c in judged:
            obj = {"spec": json.loads(c.witness or "{}")}
            taken = old.dry_run(obj)
            assert taken.accepted, (c.kind, obj, taken.message)
            refused = new.dry_run(obj)
            assert not refused.accepted, (c.kind, obj)
