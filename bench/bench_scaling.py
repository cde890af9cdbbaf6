"""Cold `markergen generate` on synthetic modules of 1,000, 10,000 and 50,000 types.

Usage: python bench/bench_scaling.py [--sizes 1000,10000,50000] [--repeat N]

Prints, per size, the wall time (median of --repeat runs, each with an empty cache) and
the peak RSS (the largest of the runs), the time and memory per thousand types (flat
when the growth is linear) and the time ratio to the previous size with the ratio of
the sizes beside it.

`--python PY` (repeatable) runs `PY -m markergen` instead of this interpreter's: with two,
e.g. an environment of the code before a change and one after, their runs alternate on
each corpus (before, after, before, ...) so that a busy spell of a shared machine hits
both alike, and each gets its own line.
The corpus is written by bench/corpus.py into a temporary directory.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _run import Run, compile_package, markergen_argv, run
from corpus import write_corpus


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--sizes", default="1000,10000,50000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--python", action="append", default=[],
                    help="interpreter whose markergen runs (repeat to interleave several)")
    args = ap.parse_args(argv)
    compile_package()
    pythons = args.python or [sys.executable]
    for py in pythons:
        subprocess.run([py, "-c", "import compileall, markergen, os; "
                        "compileall.compile_dir(os.path.dirname(markergen.__file__), quiet=1)"],
                       check=True)
    previous: dict[str, tuple[int, float]] = {}
    print(f"{'python':<8} {'types':>6} {'files':>6} {'seconds':>8} {'peak MB':>8} {'s/1k types':>10} "
          f"{'MB/1k types':>11} {'time x':>7} {'size x':>6}")
    for n in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "module"
            files = write_corpus(root, n)
            by_python: dict[str, list[Run]] = {py: [] for py in pythons}
            for i in range(args.repeat):
                for k, py in enumerate(pythons):
                    by_python[py].append(run(
                        [*markergen_argv(py), "generate", "./...", "--out-dir",
                         str(Path(tmp) / f"out{k}")],
                        root,
                        {"MARKERGEN_CACHE_DIR": str(Path(tmp) / f"cache{k}-{i}")},
                    ))
        for k, (py, runs) in enumerate(by_python.items()):
            best = median(r.seconds for r in runs)
            peak = max(r.peak_mb for r in runs)
            prev = previous.get(py)
            ratio = f"{best / prev[1]:.1f}" if prev else "-"
            size_ratio = f"{n / prev[0]:.0f}" if prev else "-"
            print(f"{'#' + str(k + 1):<8} {n:>6} {files:>6} {best:>8.2f} {peak:>8.0f} "
                  f"{best / n * 1000:>10.3f} {peak / n * 1000:>11.2f} {ratio:>7} {size_ratio:>6}"
                  f"{'' if runs[0].code == 0 else f'  (exit {runs[0].code})'}")
            previous[py] = (n, best)
    for k, py in enumerate(pythons):
        print(f"#{k + 1}: {py}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
