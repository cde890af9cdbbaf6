"""Run check and the runtime table over a kubernetes/api checkout and print counts.

    python bench/bench_k8s_corpus.py /tmp/kubernetes-api

Prints the diagnostics by severity, the unions by dialect, the structs that still hold
two union entries with the same members (issue 15 item 3: must be 0), and how many k8s
unions are wrapped in a gate. Not run in CI (it reads a checkout outside the repo).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.pipeline import check_model, load_model


def main(root: Path) -> int:
    model = load_model(["./..."], root)
    diags = check_model(model)
    print("diagnostics:", dict(Counter(d.severity.name for d in diags)))
    for d in diags:
        if d.severity.name == "ERROR":
            print("  ", d)
    table = build_table(model, EmitOptions(semantics={"k8s": "k8s"}))
    unions = [u for t in table["types"].values() for u in t.get("unions", [])]
    print("unions by dialect:", dict(Counter(u["dialect"] for u in unions)))
    twice = [
        name
        for name, t in table["types"].items()
        if len({frozenset(m["field"] for m in u["members"]) for u in t.get("unions", [])})
        != len(t.get("unions", []))
    ]
    print("structs with a union written twice:", len(twice), twice[:5])
    print("gated k8s unions:", sum(1 for u in unions if u.get("gate")))
    return 1 if any(d.severity.name == "ERROR" for d in diags) or twice else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
