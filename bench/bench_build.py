"""Time the model build alone: `ModelBuilder.add` and `ModelBuilder.finish`, in-process.

Usage: python bench/bench_build.py TREE [PATTERN...] [--python PY]... [--runs N]

In a fresh process per run, started in TREE, the packages the patterns select (default
`./...`) are read first and not timed (the Go front end); then each package is given to
`ModelBuilder.add`, as `generate` gives them, and `finish` builds the model. Both are
timed, wall and CPU (user + system of the process), with the cyclic collector paused as
`generate` pauses it. Each `--python` (default: this interpreter) is a markergen
version; with several, the runs alternate between them so that a slow spell of a shared
machine hits all alike. Prints, per version, the median and range of each figure and
the model's size (structs, types, diagnostics), which must agree between versions.

An interpreter may be a wrapper script that sets PYTHONPATH to another checkout of
markergen, to compare a commit with the working tree without a second environment
(write that checkout's .pyc first: `python -m compileall -q CHECKOUT/markergen`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def _child(patterns: list[str]) -> None:
    import gc

    from markergen.golang.imports import ImportedPackages
    from markergen.golang.packages import load_packages
    from markergen.golang.syntax import GoPackage
    from markergen.model.builder import ModelBuilder

    class Keep:
        def __init__(self) -> None:
            self.expected: list[str] = []
            self.packages: list[GoPackage] = []

        def expect(self, import_paths: Iterable[str]) -> None:
            self.expected = list(import_paths)

        def add(self, pkg: GoPackage) -> None:
            self.packages.append(pkg)

    cwd = Path(os.path.abspath("."))
    gc.disable()
    keep = Keep()
    load_packages(patterns, cwd, sink=keep)
    builder = ModelBuilder(imports=ImportedPackages(cwd, None))
    builder.expect(keep.expected)
    wall, cpu = time.perf_counter(), time.process_time()
    for pkg in keep.packages:
        builder.add(pkg)
    add_wall, add_cpu = time.perf_counter() - wall, time.process_time() - cpu
    wall, cpu = time.perf_counter(), time.process_time()
    model = builder.finish()
    fin_wall, fin_cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(json.dumps({
        "add": add_wall, "add_cpu": add_cpu, "finish": fin_wall, "finish_cpu": fin_cpu,
        "size": [len(model.structs), len(model.types), len(model.diagnostics)],
        "packages": len(keep.packages),
    }))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("tree", type=Path)
    ap.add_argument("patterns", nargs="*", default=["./..."])
    ap.add_argument("--python", action="append", default=[],
                    help="interpreter of a markergen version; repeat to compare")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    # relative to where this script was started, not to the tree
    pythons = [os.path.abspath(p) if "/" in p else p for p in args.python] or [sys.executable]
    script = str(Path(__file__).resolve())
    results: dict[str, list[dict[str, Any]]] = {p: [] for p in pythons}
    for _ in range(args.runs):
        for py in pythons:
            out = subprocess.run(
                [py, script, "--child", *args.patterns],
                cwd=args.tree, capture_output=True, text=True, check=True,
            )
            results[py].append(json.loads(out.stdout.strip().splitlines()[-1]))
    load = os.getloadavg()
    for py, runs in results.items():
        line = [f"{py}: {runs[0]['packages']} packages"]
        for key in ("add", "add_cpu", "finish", "finish_cpu"):
            values = sorted(float(r[key]) for r in runs)
            line.append(
                f"{key} {statistics.median(values):.3f} ({values[0]:.3f}-{values[-1]:.3f})"
            )
        line.append(f"model {runs[0]['size']}")
        print(", ".join(line))
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")
    sizes = {json.dumps(r["size"]) for runs in results.values() for r in runs}
    return 0 if len(sizes) == 1 else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2:] or ["./..."])
    else:
        sys.exit(main())
