"""Start-up of the command line, several installs side by side in one run: `--version`,
`--help`, `generate --help`, a warm `generate` and a warm `check` (nothing changed:
served from the cache) of a project.

Usage: python bench/bench_cli_startup.py LABEL=PYTHON [LABEL=PYTHON ...] \\
           [--project DIR] [--repeat N]

Each PYTHON is the interpreter of an environment where markergen is installed (for
example a checkout's .venv/bin/python, with `pip install -e .`); it runs
`PYTHON -m markergen ...`. DIR (default: testdata/example of this checkout) is copied
once per install, and each install fills its own cache with one run of each command
first. Runs are interleaved (install A, install B, A, B, ...) so that a busy machine
slows them alike; each figure is the median of N runs (default 9), with the best in
parentheses; wall time and CPU time (user + system, which moves less when other jobs
share the machine). Nothing is fetched.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))

import os
import subprocess
import time
from collections.abc import Sequence


def run(argv: Sequence[str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one child process. CPU time moves
    less than wall time when other jobs share the machine."""
    start = time.perf_counter()
    proc = subprocess.Popen(list(argv), cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {code}")
    return wall, usage.ru_utime + usage.ru_stime

COMMANDS = {
    "--version": ["--version"],
    "--help": ["--help"],
    # the command with the most options: its settings are built for its help
    "generate --help": ["generate", "--help"],
    "warm generate": ["generate"],
    "warm check": ["check"],
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("installs", nargs="+", metavar="LABEL=PYTHON")
    ap.add_argument("--project", type=Path,
                    default=Path(__file__).resolve().parent.parent / "testdata" / "example")  # fmt: skip
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args(argv)
    installs = dict(item.split("=", 1) for item in args.installs)
    times: dict[tuple[str, str], list[float]] = {}
    cpu: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        dirs = {}
        for label, python in installs.items():
            work = Path(tmp) / label.replace("/", "_")
            shutil.copytree(args.project, work)
            dirs[label] = work
            for argv_ in COMMANDS.values():  # fill this install's cache
                run([python, "-m", "markergen", *argv_], work)
        for _ in range(args.repeat):
            for name, argv_ in COMMANDS.items():
                for label, python in installs.items():
                    wall, used = run([python, "-m", "markergen", *argv_], dirs[label])
                    times.setdefault((name, label), []).append(wall)
                    cpu.setdefault((name, label), []).append(used)
    labels = list(installs)
    for title, table in (("wall", times), ("CPU (user + system)", cpu)):
        print(f"{title}: median (best) of {args.repeat}")
        print("command         " + "".join(f"{label:>22}" for label in labels))
        for name in COMMANDS:
            cells = []
            for label in labels:
                values = table[(name, label)]
                cells.append(f"{median(values):9.3f} s ({min(values):.3f})")
            print(f"{name:<16}" + "".join(f"{c:>22}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
