"""What the per-file syntax records save and cost, in one process: `load_model` of a Go
tree without them (--no-cache), with an empty store (a first run, which writes them),
and with every record stored (a run after an edit elsewhere), alternating.

Usage: python bench/bench_records.py API_DIR [PATTERNS...] [--repeat N]

CPU time (time.process_time) of each load, median and range over --repeat rounds
(default 7); in one process, so imports and interpreter start-up are not counted.
The records go to a temporary directory, removed afterwards.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from statistics import median


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("root", type=Path)
    ap.add_argument("patterns", nargs="*", default=["./..."])
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    from markergen.cache import SyntaxStore
    from markergen.pipeline import load_model

    root = args.root.resolve()
    load_model(args.patterns, root)  # imports and first reads, not counted
    times: dict[str, list[float]] = {"no records": [], "first run": [], "all stored": []}
    with tempfile.TemporaryDirectory(prefix="bench-records-") as tmp:
        for _ in range(args.repeat):
            store_dir = Path(tmp) / "cache"
            shutil.rmtree(store_dir, ignore_errors=True)
            start = time.process_time()
            load_model(args.patterns, root)
            times["no records"].append(time.process_time() - start)
            first = SyntaxStore(store_dir)
            start = time.process_time()
            load_model(args.patterns, root, records=first)
            times["first run"].append(time.process_time() - start)
            stored = SyntaxStore(store_dir)
            start = time.process_time()
            load_model(args.patterns, root, records=stored)
            times["all stored"].append(time.process_time() - start)
            written = first.misses
            served = stored.hits
    base = median(times["no records"])
    print(f"{root} {' '.join(args.patterns)}: {written} records written, {served} served; "
          f"{args.repeat} rounds, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for name, values in times.items():
        print(f"load_model, {name:11} {median(values):.3f} s CPU ({min(values):.3f}-"
              f"{max(values):.3f}), {median(values) / base:.2f} of no records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
