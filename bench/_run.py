"""Helpers of the bench scripts: run a command, measure wall time and peak RSS."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mb: float
    code: int
    cpu_seconds: float = 0.0  # user + system time of the child


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, printed beside every timing."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def markergen_argv(python: str | None = None) -> list[str]:
    """The command line users run: `python -m markergen`, with this interpreter or
    `python` (another environment, to compare two versions of markergen)."""
    return [python or sys.executable, "-m", "markergen"]


def run(argv: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> Run:
    """Wall time and peak resident memory of one child process (os.wait4's rusage)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    start = time.perf_counter()
    proc = subprocess.Popen(
        list(argv), cwd=cwd, env=full_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        sys.stderr.write(err.decode("utf-8", "replace"))
    cpu = usage.ru_utime + usage.ru_stime
    return Run(seconds, usage.ru_maxrss / 1024, proc.returncode, cpu)


def compile_package() -> None:
    """Write markergen's .pyc files, as installing a wheel does (this environment sets
    PYTHONDONTWRITEBYTECODE, which would make every run recompile every module)."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(Path(__file__).resolve().parent.parent / "markergen")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
