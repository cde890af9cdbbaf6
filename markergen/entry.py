"""The console entry point: the fast path first, then the typer application.

Kept apart from cli.py so that `markergen --version`, the top-level `--help` and a
`markergen generate` with plain options never import typer (markergen.fastpath explains
why), and so that an interrupt at any point of a run, imports included, ends with one
line and exit code 2.
"""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from markergen.fastpath import fast_main

        code = fast_main(sys.argv[1:])
        if code is not None:
            sys.exit(code)
        from markergen.cli import app

        app()
    except KeyboardInterrupt:
        # Every writer is all-or-nothing: whatever was interrupted left each output
        # either as it was or completely rewritten.
        sys.stderr.write("markergen: interrupted; every output is as it was or completely written\n")
        sys.exit(2)
