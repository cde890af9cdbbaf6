"""Shared test helpers (import as `from helpers import ...`): paths of the repository and a way to run the real CLI."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
TESTDATA = REPO / "testdata"


@dataclass(frozen=True)
class Result:
    code: int
    stdout: str
    stderr: str


def run_cli(args: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> Result:
    """Run `python -m markergen` in a real subprocess (exit codes and streams as a user
    sees them). A run inside testdata/ keeps its cache in a temporary directory of its
    own (unless `env` names one), so that no test writes into the source tree."""
    full_env = dict(os.environ)
    full_env.pop("PYTHONHASHSEED", None)
    if env:
        full_env.update(env)
    with tempfile.TemporaryDirectory(prefix="markergen-test-cache-") as cache:
        if Path(os.path.abspath(cwd)).is_relative_to(TESTDATA) and not (
            env and "MARKERGEN_CACHE_DIR" in env
        ):
            full_env["MARKERGEN_CACHE_DIR"] = cache
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


def run_main(args: Sequence[str], cwd: Path | None = None) -> Result:
    """`markergen.cli.main` in this process (in `cwd`, then back), with its streams
    captured: for tests that patch the library to see what a command calls."""
    from markergen.cli import main

    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(old)
    return Result(code, out.getvalue(), err.getvalue())


def count_model_loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one whenever a command loads the model (a run not served
    from the cache)."""
    from markergen import pipeline

    calls: list[int] = []
    real = pipeline.load_model

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "load_model", counted)
    return calls


def as_nobody(work: Callable[[], str]) -> str:
    """Run `work` in a forked child that dropped root to uid/gid 65534 and return what it
    returned (or `EXC <type>: <message>` when it raised). Tests run as root here, and
    root ignores file permissions; a permission test needs another user."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        os.close(r)
        try:
            os.setgid(65534)
            os.setuid(65534)
            msg = work()
        except BaseException as e:
            msg = f"EXC {type(e).__name__}: {e}"
        os.write(w, msg.encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read().decode()
    os.waitpid(pid, 0)
    return data


def yaml_documents(values: list[Any]) -> str:
    """Whole documents as controller-gen writes them, each after a `---` line: the text
    markergen's CRD writer renders (markergen.yamlio.render_block)."""
    from markergen.yamlio import render_block

    return "".join("---\n" + render_block(v, 0) for v in values)
