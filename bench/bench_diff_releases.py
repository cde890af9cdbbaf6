"""`markergen diff` over consecutive release tags of a real checkout.

    .venv/bin/python bench/bench_diff_releases.py /tmp/api --tags v0.33.0 v0.34.0 v0.35.0
    .venv/bin/python bench/bench_diff_releases.py /tmp/gateway-api --last 6 [--patterns ./apis/...]

Runs the library's `run_diff` on each consecutive pair (git revisions of the checkout,
read with `git archive`: the checkout is never modified) and prints, per pair, the
counts per class and kind, how many breaking changes `--fail-on breaking` counts (GA,
ungated), how many changes lack a file and line, and the breaking changes themselves.
Without `--tags`, the last `--last` final release tags (vX.Y.0) in version order.
"""

from __future__ import annotations

import argparse
import itertools
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from markergen.diff import run_diff

_FINAL = re.compile(r"^v(\d+)\.(\d+)\.0$")


def release_tags(checkout: Path, last: int) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(checkout), "tag"], capture_output=True, text=True, check=True
    ).stdout.split()
    finals = sorted(
        (t for t in out if _FINAL.match(t)),
        key=lambda t: tuple(int(x) for x in _FINAL.match(t).groups()),  # type: ignore[union-attr]
    )
    return finals[-last:]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--tags", nargs="+", help="the releases, oldest first")
    ap.add_argument("--last", type=int, default=6, help="without --tags: how many releases")
    ap.add_argument("--patterns", nargs="*", default=[], help="package patterns, as check")
    ap.add_argument("--show", type=int, default=15, help="breaking changes printed per pair")
    args = ap.parse_args(argv)
    tags = args.tags or release_tags(args.checkout, args.last)
    totals: Counter[str] = Counter()
    for base, head in itertools.pairwise(tags):
        start = time.perf_counter()
        result = run_diff(base, head, args.checkout, "json", patterns=args.patterns)
        seconds = time.perf_counter() - start
        kinds = Counter(f"{c.classification}/{c.kind}" for c in result.changes)
        no_line = sum(1 for c in result.changes if not (c.file and c.line))
        print(
            f"== {base} -> {head}: {len(result.changes)} changes, {result.breaking} breaking "
            f"({result.breaking_at_ga} at GA ungated: --fail-on breaking "
            f"{'FAILS' if result.fails('breaking') else 'passes'}), {result.compatible} "
            f"compatible, {result.not_compared} not compared, {no_line} without file:line "
            f"[{seconds:.1f}s]"
        )
        for kind, n in sorted(kinds.items()):
            print(f"   {n:5d}  {kind}")
        shown = [c for c in result.changes if c.breaking][: args.show]
        for c in shown:
            stage = c.stage + (f", {c.gate}" if c.gate else "")
            print(
                f"   ! {c.file}:{c.line} {c.go_type}.{c.go_field} [{stage}] {c.kind}: {c.message[:140]}"
            )
        totals.update(kinds)
        totals["pairs"] += 1
        totals["without file:line"] += no_line
    print("== totals")
    for kind, n in sorted(totals.items()):
        print(f"   {n:5d}  {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
