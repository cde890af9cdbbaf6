"""Shared test helpers (import as `from helpers import ...`): paths of the repository and a way to run the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TESTDATA = REPO / "testdata"


@dataclass(frozen=True)
class Result:
    code: int
    stdout: str
    stderr: str


def run_cli(args: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> Result:
    """Run `python -m markergen` in a real subprocess (exit codes and streams as a user
    sees them)."""
    full_env = dict(os.environ)
    full_env.pop("PYTHONHASHSEED", None)
    if env:
        full_env.update(env)
    proc = subprocess.run(
        [sys.executable, "-m", "markergen", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)
