"""Does markergen/runtime/quick.py (each union's common case compiled into closures at
load) pay on a realistic webhook load? Issue 36, item 1: keep it only if it does.

A validating/mutating webhook for a CRD receives an update and runs `normalize` then
`validate` on the new object against the stored one. Two loads, each over the same
objects with the closures on and with them off (every union's `quick_valid` and
`quick_normalize` set to None, so that only the reference code of validate.py and
semantics.py runs), in alternating rounds so that a loaded minute slows both sides:

- `deployment`: bench/bench_runtime.py's Deployment-sized object (12 volumes in a
  list-map with an exactly-one union per item, a kep1027 strategy with an empty member,
  3 kep1027 metrics, labels, probes) with testdata/runtime/kep004.json;
- `flat`: the unions of testdata/runtime's kep1027, kep2019 and smd tables (kep002,
  kep004, kep000, smd_merge), one small object per request (the union's own type, as a
  webhook of a small CRD sees it), valid 9 times in 10.

It prints, per load, objects per CPU second of each side per round and the median ratio
(reference / quick: above 1, the closures save that factor of the webhook's time).

Run: .venv/bin/python bench/bench_runtime_quick.py [rounds] [iterations], at a commit that
still has quick.py (it was measured at 18fbfa5 and deleted after it: the closures did not
pay on the webhook load; docs/performance.md has the figures). Without quick.py it says so.
"""

from __future__ import annotations

import contextlib
import copy
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from markergen.runtime import Table, UnionError, normalize, validate

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_runtime import TYPE, deployment  # noqa: E402

FLAT = ("kep002", "kep004", "kep000", "smd_merge")


def without_quick(table: Table) -> Table:
    """The same table with every union's closures off (the reference code only)."""
    out = copy.deepcopy(table)
    for info in out.types.values():
        for union in info.unions:
            object.__setattr__(union, "quick_valid", None)
            object.__setattr__(union, "quick_normalize", None)
    return out


def flat_requests(table: Table) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(type, old, new) per request: each union's type with its first member set (the
    discriminator naming it), and every tenth request with a second member set too."""
    out = []
    for name, info in sorted(table.types.items()):
        for union in info.unions:
            if union.at or not union.members or union.value_type != "string":
                continue
            first, *rest = union.members
            obj: dict[str, Any] = {first.field: {"x": "1"}}
            if union.discriminator:
                obj[union.discriminator] = first.value
            for i in range(10):
                new = dict(obj)
                if i == 9 and rest:
                    new[rest[0].field] = {"y": "2"}
                out.append((name, dict(obj), new))
    return out


def run(table: Table, requests: list[tuple[str, Any, Any]], iterations: int) -> float:
    """Objects per CPU second (process time: the other jobs of a shared machine slow
    the wall clock far more than this process's own time)."""
    start = time.process_time()
    for _ in range(iterations):
        for name, old, new in requests:
            with contextlib.suppress(UnionError):  # refused: the webhook rejects it
                validate(table, name, normalize(table, name, old, new), old)
    return iterations * len(requests) / (time.process_time() - start)


def webhook(table: Table, body: bytes, iterations: int) -> float:
    """As `run`, for whole admission requests: the AdmissionReview decoded from JSON,
    the object normalized and validated, the response encoded (what a webhook does)."""
    start = time.process_time()
    for _ in range(iterations):
        review = json.loads(body)
        request = review["request"]
        new, old = request["object"], request["oldObject"]
        errors = validate(table, TYPE, normalize(table, TYPE, old, new), old)
        response = {"uid": request["uid"], "allowed": not errors}
        json.dumps(
            {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": response}
        )
    return iterations / (time.process_time() - start)


def side(table: Table, requests: list[tuple[str, Any, Any]], n: int) -> Callable[[], float]:
    return lambda: run(table, requests, n)


def main() -> None:
    probe = Table.load(ROOT / "testdata" / "runtime" / "kep004.json")
    if not any(hasattr(u, "quick_valid") for i in probe.types.values() for u in i.unions):
        sys.exit(
            "markergen/runtime/quick.py is gone (deleted after this benchmark showed it does "
            "not pay; docs/performance.md): check out 18fbfa5 to run it again"
        )
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    kep004 = Table.load(ROOT / "testdata" / "runtime" / "kep004.json")
    flat = [Table.load(ROOT / "testdata" / "runtime" / f"{name}.json") for name in FLAT]
    old = deployment("RollingUpdate")
    new = deployment("RollingUpdate")
    new["spec"]["replicas"] = 5
    loads: dict[str, tuple[Table, list[tuple[str, Any, Any]], int]] = {
        "deployment": (kep004, [(TYPE, old, new)], iterations),
    }
    for name, t in zip(FLAT, flat, strict=True):
        loads[f"flat {name}"] = (t, flat_requests(t), iterations * 4)
    review = {
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {"uid": "0", "operation": "UPDATE", "object": new, "oldObject": old},
    }
    body = json.dumps(review).encode()
    slow = without_quick(kep004)
    cases: dict[str, dict[str, Callable[[], float]]] = {
        "webhook (deployment, JSON in and out)": {
            "quick": lambda: webhook(kep004, body, iterations),
            "reference": lambda: webhook(slow, body, iterations),
        }
    }
    for load, (table, requests, n) in loads.items():
        cases[f"{load}: {len(requests)} request(s) x {n}"] = {
            "quick": side(table, requests, n),
            "reference": side(without_quick(table), requests, n),
        }
    for load, sides in cases.items():
        for timed in sides.values():
            timed()  # warm up
        rates: dict[str, list[float]] = {k: [] for k in sides}
        for _ in range(rounds):
            for k, timed in sides.items():
                rates[k].append(timed())
        ratios = [q / r for q, r in zip(rates["quick"], rates["reference"], strict=True)]
        print(f"{load}, {rounds} rounds")
        for k in sides:
            print(f"  {k:9} objects/s: " + ", ".join(f"{x:,.0f}" for x in rates[k]))
        print(f"  quick / reference, median of rounds: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
