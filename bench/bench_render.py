"""The render phase of `markergen generate` alone: every output rendered and written,
the model loaded once.

Usage: python bench/bench_render.py DIR [PATTERNS...] [--repeat N] [--rounds R]
           [--fragments] [--check] [--python PY ...] [--profile]

Loads the model of PATTERNS (default ./...) in DIR once, then renders and writes every
output `generate` writes (the four, or six with --fragments) into a temporary directory
through the streamed writer, --repeat times (default 9), each time with a fresh
`Templates` as a run has (so the templates are loaded as a cold run loads them). Prints
the median and the smallest CPU time (process time) and wall time of one rendering.
Each rendering runs with the cyclic garbage collector paused, as in `generate`.
`--check` also times the checker on the same model (`pipeline.check_model`, as
`generate` runs it before rendering), --repeat times, on a line of its own before.

`--python PY` (repeatable) runs this script under PY instead (an environment of the
code before a change and one after): --rounds rounds (default 3), the interpreters in
turn within each, so that a busy spell of a shared machine hits both alike; a line per
round and interpreter, then the median of each interpreter's medians.
`--profile` prints a cProfile of one rendering (cumulative and own time) instead.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median


def _render(
    directory: Path, patterns: list[str], repeat: int, fragments: bool, profile: bool,
    check: bool = False,
) -> None:
    from markergen.emit.options import EmitOptions
    from markergen.emit.outputs import OUTPUTS, Inputs
    from markergen.emit.templating import Templates
    from markergen.emit.writer import write_outputs
    from markergen.gcpause import gc_paused
    from markergen.pipeline import check_model, load_model

    os.chdir(directory)
    model = load_model(patterns, directory)
    outputs = [o for o in OUTPUTS if not o.switch or fragments]
    if check and not profile:
        check_model(model)  # the imports of the rule modules, not timed
        times: list[float] = []
        found = 0
        for _ in range(repeat):
            with gc_paused():
                c = time.process_time()
                found = len(check_model(model))
                times.append(time.process_time() - c)
        print(f"check: {len(model.structs)} types, {found} diagnostics, {repeat} checks: "
              f"cpu median {median(times):.3f} s (min {min(times):.3f})")

    def once(out: Path) -> None:
        # as `generate` renders: with the cyclic collector paused (markergen.gcpause)
        with gc_paused():
            inputs = Inputs(model, EmitOptions(), Templates())
            write_outputs({out / o.filename: functools.partial(inputs.chunks, o) for o in outputs})

    with tempfile.TemporaryDirectory() as tmp:
        once(Path(tmp) / "warm")  # the imports of the render modules, not timed
        if profile:
            prof = cProfile.Profile()
            prof.enable()
            once(Path(tmp) / "profiled")
            prof.disable()
            stats = pstats.Stats(prof)
            stats.sort_stats("cumulative").print_stats(30)
            stats.sort_stats("tottime").print_stats(20)
            return
        cpu: list[float] = []
        wall: list[float] = []
        for i in range(repeat):
            c, w = time.process_time(), time.perf_counter()
            once(Path(tmp) / str(i))
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - w)
    print(f"{len(model.structs)} types, {len(outputs)} outputs, {repeat} renderings: "
          f"cpu median {median(cpu):.3f} s (min {min(cpu):.3f}), "
          f"wall median {median(wall):.3f} s (min {min(wall):.3f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("dir", type=Path)
    ap.add_argument("patterns", nargs="*", default=["./..."])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--fragments", action="store_true")
    ap.add_argument("--check", action="store_true", help="also time the checker")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--python", action="append", default=[])
    args = ap.parse_args(argv)
    directory = args.dir.resolve()
    if not args.python:
        _render(directory, args.patterns, args.repeat, args.fragments, args.profile, args.check)
        return 0
    flags = ["--repeat", str(args.repeat)] + (["--fragments"] if args.fragments else [])
    flags += ["--check"] if args.check else []
    if args.profile:
        flags.append("--profile")
    medians: dict[tuple[str, str], list[float]] = {}
    for r in range(args.rounds):
        for k, py in enumerate(args.python):
            proc = subprocess.run(
                [py, str(Path(__file__).resolve()), str(directory), *args.patterns, *flags],
                capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(),
            )
            load = os.getloadavg()[0]
            for line in proc.stdout.strip().splitlines():
                if "cpu median" not in line:
                    continue
                print(f"round {r + 1} #{k + 1}: {line} (load {load:.1f})", flush=True)
                what = "check" if line.startswith("check:") else "render"
                value = float(line.split("cpu median ")[1].split(" ")[0])
                medians.setdefault((py, what), []).append(value)
    for what in ("check", "render"):
        for k, py in enumerate(args.python):
            if (py, what) in medians:
                print(f"#{k + 1} {py}: {what} cpu median of medians "
                      f"{median(medians[(py, what)]):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
