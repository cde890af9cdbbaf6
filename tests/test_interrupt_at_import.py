"""A Ctrl-C while the command line's modules are still being imported.

markergen.cli installs its interrupt handler only once it is imported; before that a
Ctrl-C is Python's KeyboardInterrupt, raised wherever the import is (seen under load in
test_robust_faults' SIGINT runs: during `pathlib` -> `urllib.parse` -> `ipaddress`,
printed as a traceback with exit code 1). markergen.entry, the console script and
`python -m markergen`, reports it as any other interrupt. Each test raises the interrupt
from a real import in a real interpreter: a finder that fails one module's import.
"""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest
from helpers import REPO

from markergen.interrupts import INTERRUPTED

# Runs `start` with a finder in front of the import system that raises `error` when
# markergen.cliargs (imported by markergen.cli at its top) is first imported.
_PROGRAM = """
import sys

class Interrupting:
    def find_spec(self, name, path=None, target=None):
        if name == "markergen.cliargs":
            {error}
        return None

sys.meta_path.insert(0, Interrupting())
{start}
"""

_STARTS = {
    "python -m markergen": "import runpy; runpy.run_module('markergen', run_name='__main__')",
    "console script": "from markergen.entry import run; sys.exit(run())",
}


def _run(error: str, start: str) -> subprocess.CompletedProcess[str]:
    program = _PROGRAM.format(error=error, start=_STARTS[start])
    return subprocess.run(
        [sys.executable, "-c", program, "check"],
        cwd=REPO / "testdata" / "example",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("start", sorted(_STARTS))
@pytest.mark.parametrize(
    "error",
    [
        "raise KeyboardInterrupt",
        # as when the interrupt lands in a class body or a module's own error handling
        "raise ImportError('cannot import') from KeyboardInterrupt()",
    ],
    ids=["plain", "wrapped"],
)
def test_an_interrupt_during_the_imports_is_one_line(error: str, start: str) -> None:
    proc = _run(error, start)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr == INTERRUPTED + "\n"
    assert proc.stdout == ""


@pytest.mark.parametrize("start", sorted(_STARTS))
def test_any_other_import_error_is_not_taken_for_an_interrupt(start: str) -> None:
    proc = _run("raise ImportError('broken install')", start)
    assert proc.returncode == 1
    assert "ImportError: broken install" in proc.stderr
    assert INTERRUPTED not in proc.stderr


def test_the_console_script_is_the_entry() -> None:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert 'markergen = "markergen.entry:run"' in text
    main = (REPO / "markergen" / "__main__.py").read_text(encoding="utf-8")
    assert "markergen.entry" in main


def test_an_interrupt_after_the_command_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The other end of the run: a Ctrl-C that escapes main (it lands while main puts the
    previous handler back, after `markergen: patched ...`), seen in the SIGINT test of
    `crd` under load as exit 130 with no message."""
    from markergen import cli

    def finished_then_interrupted(argv: object = None) -> int:
        sys.stderr.write("markergen: patched config/crd/bases/x.yaml\n")
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "main", finished_then_interrupted)
    previous = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as exit_:
            cli.run()
    finally:
        signal.signal(signal.SIGINT, previous)  # run() ignores SIGINT from then on
    assert exit_.value.code == 130
    assert capsys.readouterr().err.endswith(INTERRUPTED + "\n")
