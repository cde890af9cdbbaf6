"""`markergen crd` on a real project, cold, against a libyaml compose of the CRD files it
reads: the issue's "crd within 5x of a libyaml parse cold" on CRDs that are not copies of
one another (bench_crd.py patches 292 copies of one CRD, which a run's memos serve
from the first).

Usage: python bench/bench_crd_tree.py CHECKOUT [--workdir SUB] [--python PY]... [--runs N]

For each run, CHECKOUT is copied to a temporary directory (the run writes its CRDs) and
`PY -m markergen crd --no-cache` runs zero-config in the copy (or in SUB of it); with
several --python interpreters their runs alternate. The CRD files compared are those
the run read (`run_project`'s result, asked once of this interpreter's markergen); the
compose reads them with PyYAML's CSafeLoader, best of 3 (Helm templates as markergen
reads them, their action lines masked). Prints medians of wall and CPU
time with their ratio to the compose, peak memory, exit codes and the load average.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _run import Run, load_average, markergen_argv, run

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def crd_files_read(project: Path) -> list[Path]:
    """The CRD files a zero-config `crd` run considers in `project` (a copy: it writes)."""
    from markergen.crd.project import run_project

    return [Path(p) for p in run_project(project).result.files]


def compose_seconds(files: list[Path]) -> tuple[float, float]:
    """Best of 3; a Helm template's text as markergen reads it (its action lines
    masked, markergen.crd.helm), the masking not timed."""
    import yaml

    from markergen.crd.helm import mask_templates

    texts = []
    for f in files:
        masked = mask_templates(f.read_text(encoding="utf-8"))
        if not masked.inside_line:  # else markergen does not compose it either
            texts.append(masked.text)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    best = (float("inf"), float("inf"))
    for _ in range(3):
        start, cpu = time.perf_counter(), time.process_time()
        for text in texts:
            for _node in yaml.compose_all(text, Loader=loader):
                pass
        took = (time.perf_counter() - start, time.process_time() - cpu)
        best = (min(best[0], took[0]), min(best[1], took[1]))
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--workdir", default="", help="sub-directory to run in (a Go module)")
    ap.add_argument("--python", action="append", default=[])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    pythons = [os.path.abspath(p) if "/" in p else p for p in args.python] or [sys.executable]
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe"
        shutil.copytree(args.checkout, probe, symlinks=True)
        files = crd_files_read(probe / args.workdir)
        size = sum(f.stat().st_size for f in files)
        compose, compose_cpu = compose_seconds(files)
        shutil.rmtree(probe)
        print(f"{args.checkout.name}: {len(files)} CRD files read, {size / 1e6:.2f} MB")
        print(f"libyaml compose: {compose:.3f} s wall, {compose_cpu:.3f} s CPU; load {load_average()}")
        results: dict[str, list[Run]] = {py: [] for py in pythons}
        for _ in range(args.runs):
            for py in pythons:
                copy = Path(tmp) / "copy"
                shutil.rmtree(copy, ignore_errors=True)
                shutil.copytree(args.checkout, copy, symlinks=True)
                os.sync()
                argv_ = [*markergen_argv(py), "crd", "--no-cache"]
                results[py].append(run(argv_, copy / args.workdir))
        for py, rs in results.items():
            wall = statistics.median(r.seconds for r in rs)
            cpu = statistics.median(r.cpu_seconds for r in rs)
            print(
                f"{py}: cold {wall:.2f} s wall ({wall / compose:.1f}x), {cpu:.2f} s CPU "
                f"({cpu / compose_cpu:.1f}x), peak {max(r.peak_mb for r in rs):.0f} MB, "
                f"exit {sorted({r.code for r in rs})}, runs {len(rs)}"
            )
        print(f"load after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
