"""Cold `markergen generate` on synthetic modules of 10, 100, 1000 and 10000 types.

Usage: python bench/bench_scaling.py [--sizes 10,100,1000,10000] [--repeat N]

Prints, per size, the wall time (median of --repeat runs, each with an empty cache) and
the peak RSS (the largest of the runs), and the time ratio per tenfold input (target: at
most 11).
The corpus is written by bench/corpus.py into a temporary directory.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _run import compile_package, markergen_argv, run
from corpus import write_corpus


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--sizes", default="10,100,1000,10000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    compile_package()
    mg = markergen_argv()
    previous: float | None = None
    print(f"{'types':>6} {'files':>6} {'seconds':>8} {'peak MB':>8} {'x per 10x':>9}")
    for n in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "module"
            files = write_corpus(root, n)
            runs = [
                run(
                    [*mg, "generate", "./...", "--out-dir", str(Path(tmp) / "out")],
                    root,
                    {"MARKERGEN_CACHE_DIR": str(Path(tmp) / f"cache{i}")},
                )
                for i in range(args.repeat)
            ]
        best = median(r.seconds for r in runs)
        ratio = f"{best / previous:.1f}" if previous else "-"
        print(f"{n:>6} {files:>6} {best:>8.2f} {max(r.peak_mb for r in runs):>8.0f} {ratio:>9}"
              f"{'' if runs[0].code == 0 else f'  (exit {runs[0].code})'}")
        previous = best
    return 0


if __name__ == "__main__":
    sys.exit(main())
