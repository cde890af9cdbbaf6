"""`markergen check` over real API checkouts: diagnostics per code, for issue notes.

Usage: python bench/bench_check_corpus.py CHECKOUT... [--pattern P] [--files N]

Each CHECKOUT is a Go module (openshift/api, gateway-api, kubernetes/api, a
kubebuilder project). The script loads `./...` (or the given patterns) from the
checkout's root in-process, exactly as `markergen check` does, and prints per checkout:
the number of packages and files read, the count of diagnostics per code and severity,
and for errors (and with `--files`, for every code) the files they fall in. The check
only reads the checkout; copy it to /tmp first if you mean to edit it.

Not part of CI: it needs checkouts that the repository does not hold.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from markergen.pipeline import check_model, load_model
from markergen.report import display_path


def run_one(root: Path, patterns: list[str], show_files: int) -> int:
    start = time.perf_counter()
    model = load_model(patterns, root)
    diags = check_model(model)
    seconds = time.perf_counter() - start
    files = sum(len(p.files) for p in model.packages)
    by_code: Counter[tuple[str, str]] = Counter((d.code, d.severity.value) for d in diags)
    errors = sum(n for (_, sev), n in by_code.items() if sev == "error")
    warnings = sum(n for (_, sev), n in by_code.items() if sev == "warning")
    infos = sum(n for (_, sev), n in by_code.items() if sev == "info")
    print(f"== {root}  ({len(model.packages)} packages, {files} files, {seconds:.1f} s)")
    print(f"   {errors} errors, {warnings} warnings, {infos} infos")
    per_file: dict[str, Counter[str]] = defaultdict(Counter)
    for d in diags:
        per_file[d.code][display_path(d.pos.file, root)] += 1
    for (code, sev), n in sorted(by_code.items()):
        print(f"   {code} {sev:<7} {n:5d}")
        if sev == "error" or show_files:
            limit = show_files or 20
            for path, k in per_file[code].most_common(limit):
                print(f"        {k:4d}  {path}")
    return errors


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("checkouts", nargs="+", type=Path)
    ap.add_argument(
        "--pattern", action="append", default=[], help="Go package pattern (default ./...)"
    )
    ap.add_argument("--files", type=int, default=0, help="list up to N files for every code")
    args = ap.parse_args(argv)
    total = 0
    for root in args.checkouts:
        total += run_one(root.resolve(), args.pattern or ["./..."], args.files)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
