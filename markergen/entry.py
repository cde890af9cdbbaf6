"""The console script and `python -m markergen`: markergen.cli.run, imported here.

A Ctrl-C that lands while the command line's modules are imported (before
markergen.cli installs its handler) is reported as any other interrupt, one line and
exit code 130, instead of Python's traceback: nothing has been read or written yet.
"""

from __future__ import annotations

import sys

from markergen.interrupts import INTERRUPTED, caused_by_interrupt


def run() -> None:
    try:
        from markergen.cli import run as cli_run
    except BaseException as e:
        if not caused_by_interrupt(e):
            raise
        sys.stderr.write(INTERRUPTED + "\n")
        raise SystemExit(130) from None
    cli_run()
