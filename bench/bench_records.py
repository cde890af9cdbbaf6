"""What the per-file syntax records save and cost, in one process: `load_model` of a Go
tree without them (--no-cache), with an empty store (a first run, which writes them),
and with every record stored (a run after an edit elsewhere), alternating.

Usage: python bench/bench_records.py API_DIR [PATTERNS...] [--repeat N]

CPU time (time.process_time) of each load, median and range over --repeat rounds
(default 7); in one process, so interpreter start-up is not counted. Then what else a
run after an edit does, once each: importing the front end, model, rules and renderers
(the first import, timed), the run cache's key (every input file hashed), the rules,
and rendering the four outputs of `generate`.
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
    start = time.process_time()
    import markergen.emit.outputs
    import markergen.golang.parser
    import markergen.model.builder
    import markergen.rules  # noqa: F401
    from markergen.cache import OutputCache, SyntaxStore
    from markergen.pipeline import check_model, load_model

    imports = time.process_time() - start

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
    model = load_model(args.patterns, args.root.resolve())
    start = time.process_time()
    OutputCache.open(Path(tempfile.gettempdir()), args.patterns, args.root.resolve(), {}, "check")
    key = time.process_time() - start
    start = time.process_time()
    check_model(model)
    rules = time.process_time() - start
    from markergen.config import load_config
    from markergen.emit.options import EmitOptions
    from markergen.emit.outputs import OUTPUTS, Inputs

    cfg = load_config(args.root.resolve())
    options = EmitOptions(
        union_format=cfg.union_format,
        naming=cfg.naming,
        title=cfg.title,
        version=cfg.version,
        semantics=dict(cfg.semantics),
    )
    start = time.process_time()
    size = sum(len(c) for o in OUTPUTS for c in Inputs(model, options, None).chunks(o))
    render = time.process_time() - start
    base = median(times["no records"])
    print(
        f"{root} {' '.join(args.patterns)}: {written} records written, {served} served; "
        f"{args.repeat} rounds, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    for name, values in times.items():
        print(
            f"load_model, {name:11} {median(values):.3f} s CPU ({min(values):.3f}-"
            f"{max(values):.3f}), {median(values) / base:.2f} of no records"
        )
    print(
        f"imports {imports:.3f} s, run-cache key {key:.3f} s, rules {rules:.3f} s, "
        f"rendering every output ({size / 1e6:.1f} MB) {render:.3f} s CPU"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
