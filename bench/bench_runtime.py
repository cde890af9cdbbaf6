"""Throughput of markergen.runtime: normalize + validate of a Deployment-sized object.

The object uses three unions of testdata/runtime/kep004.json: the strategy (kep1027 with an
empty member), volumes (undiscriminated exactly-one, a list-map) and metrics (kep1027).
Run: .venv/bin/python bench/bench_runtime.py [iterations]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from markergen.runtime import Table, normalize, validate

ROOT = Path(__file__).resolve().parent.parent
TYPE = "io.example.v1.Deployment"


def deployment(strategy: str) -> dict[str, Any]:
    return {
        "metadata": {"name": "web", "labels": {f"k{i}": f"v{i}" for i in range(10)}},
        "spec": {
            "replicas": 3,
            "strategy": {"type": strategy, "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
            "volumes": [
                {"name": f"vol{i}", "configMap": {"name": f"cm{i}"}}
                if i % 2
                else {"name": f"vol{i}", "emptyDir": {}}
                for i in range(12)
            ],
            "metrics": [
                {"type": "Resource", "resource": {"name": "cpu", "target": 80}} for _ in range(3)
            ],
            "probes": {"liveness": {"httpGet": {"path": "/healthz", "port": 8080}}},
        },
    }


def main() -> None:
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    table = Table.load(ROOT / "testdata" / "runtime" / "kep004.json")
    old = deployment("RollingUpdate")
    new = deployment("RollingUpdate")
    new["spec"]["replicas"] = 5
    for _ in range(50):  # warm up
        validate(table, TYPE, normalize(table, TYPE, old, new), old)
    start = time.perf_counter()
    for _ in range(iterations):
        out = normalize(table, TYPE, old, new)
        errors = validate(table, TYPE, out, old)
    elapsed = time.perf_counter() - start
    assert errors == [], errors
    print(
        f"normalize+validate: {iterations / elapsed:,.0f} objects/second ({iterations} iterations)"
    )


if __name__ == "__main__":
    main()
