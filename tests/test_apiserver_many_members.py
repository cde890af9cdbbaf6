"""`markergen diff` on the ten-member union of testdata/diff/manymembers, judged by the
real API server (issue 37, items 4 and 5): for every change the report calls breaking,
the object it shows is accepted by the base CRD and rejected by the head CRD; for the
changes it calls compatible, every object the base accepts among the generated ones
(no member, each member with its value and with another's, two members) is still
accepted by the head."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from typing import Any

import kubeserver
import pytest
import yaml
from apiserver_objects import placed
from many_members import CRD, EDITS, head, node
from test_diff_many_members import report

Obj = dict[str, Any]
PROGRAM = ("properties", "spec", "properties", "program")
RUNTIME = ("properties", "spec", "properties", "runtime")


def _root(doc: Obj) -> Obj:
    return doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]  # type: ignore[no-any-return]


def _generated(base: Obj) -> Iterator[tuple[tuple[str, ...], Obj]]:
    program = node(base, "program")
    values = program["properties"]["type"]["enum"]
    members = [m for m in program["properties"] if m != "type"]
    yield PROGRAM, {}
    for v in values:
        yield PROGRAM, {"type": v}
        for m in members:
            yield PROGRAM, {"type": v, m: {"source": "x"}}
    for a, b in itertools.combinations(members[:4], 2):
        yield PROGRAM, {"type": values[0], a: {"source": "x"}, b: {"source": "x"}}
    runtime = list(node(base, "runtime")["properties"])
    for k in range(len(runtime) + 1):
        for chosen in itertools.combinations(runtime, k):
            yield RUNTIME, {m: {"version": "1"} for m in chosen}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_witnesses_and_kept_objects_on_the_server(
    kube: kubeserver.Server, tmp_path: Any, name: str
) -> None:
    base: Obj = yaml.safe_load(CRD.read_text(encoding="utf-8"))
    after_doc = head(name)
    changes = report(tmp_path, name)
    with kube.installed(base) as before, kube.installed(after_doc) as after:
        breaking = [c for c in changes if c["class"] == "breaking"]
        for c in breaking:
            witness = c["crd"]["witness"]
            assert witness is not None, c
            below = PROGRAM if c["crd"]["path"] == "spec.program" else RUNTIME
            obj = placed(_root(base), below, witness)
            was = before.dry_run(obj)
            assert was.accepted, (c["kind"], obj, was.message)
            assert not after.dry_run(obj).accepted, (c["kind"], obj)
        if breaking:
            return
        tried = 0
        for below, value in _generated(base):
            obj = placed(_root(base), below, copy.deepcopy(value))
            if not before.dry_run(obj).accepted:
                continue
            tried += 1
            verdict = after.dry_run(obj)
            assert verdict.accepted, (name, obj, verdict.message)
        assert tried > 10
