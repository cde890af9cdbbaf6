"""What the command line can answer without typer: `--version`, and a `generate` run
whose results are in the cache.

Importing typer costs about 0.12 s, and typer parses every option through pydantic
(another 0.1-0.2 s), which is most of a warm `make generate`. `fast_main` runs before
typer and handles only what it fully understands; for anything else (another command,
an option it does not know, a cache miss, any error) it returns None and the typer
application runs as if it had never been called. It never prints anything before it
knows it will handle the run, so falling back is invisible.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from markergen.config import Config

# generate's options that take a value → the config override they set (cli.py).
_VALUE_OPTIONS = {
    "--out-dir": "out_dir",
    "--v2": "v2",
    "--v3": "v3",
    "--table-json": "table_json",
    "--table-py": "table_py",
    "--union-format": "union_format",
    "--naming": "naming",
    "--semantics": "semantics",
    "--templates": "templates",
}


def fast_main(
    argv: Sequence[str], stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int | None:
    """The exit code of a run handled here, or None: then run the typer app."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    if list(argv) == ["--version"]:
        from markergen import __version__

        out.write(f"markergen {__version__}\n")
        return 0
    args = list(argv)
    if args[:1] == ["--debug"]:
        args = args[1:]
    if args[:1] != ["generate"]:
        return None
    parsed = _parse_generate(args[1:])
    if parsed is None:
        return None
    patterns, overrides, verify = parsed
    return _generate_from_cache(patterns, overrides, verify, out, err)


def _parse_generate(args: list[str]) -> tuple[list[str], dict[str, object], bool] | None:
    """(patterns, config overrides, verify) of `generate`'s arguments, or None for
    anything but the plain options (then typer parses them, with its messages)."""
    patterns: list[str] = []
    overrides: dict[str, object] = {}
    verify = False
    i = 0
    only_patterns = False
    while i < len(args):
        arg = args[i]
        i += 1
        if only_patterns or not arg.startswith("-") or arg == "-":
            patterns.append(arg)
            continue
        if arg == "--":
            only_patterns = True
            continue
        if arg == "--verify":
            verify = True
            continue
        if arg == "--include-generated":
            overrides["include_generated"] = True
            continue
        name, eq, value = arg.partition("=")
        if name not in _VALUE_OPTIONS:
            return None  # --help, --no-cache, a typo: typer's business
        if not eq:
            if i >= len(args):
                return None
            value = args[i]
            i += 1
        key = _VALUE_OPTIONS[name]
        overrides[key] = {"*": value} if key == "semantics" else value
    return patterns, overrides, verify


def _generate_from_cache(
    patterns: list[str],
    overrides: dict[str, object],
    verify: bool,
    out: TextIO,
    err: TextIO,
) -> int | None:
    from markergen.config import load_config
    from markergen.generate import generate_cached

    cwd = Path.cwd()
    try:
        cfg = load_config(cwd, overrides)
        result = generate_cached(cfg, resolve_patterns(patterns, cfg, cwd), cwd, verify=verify)
    except Exception:
        # Whatever went wrong, nothing was written (the writer is all-or-nothing): the
        # typer path repeats the run and reports the problem in its own words.
        return None
    if result is None:
        return None
    if result.diagnostics:
        from markergen.report import render

        err.write(render(result.diagnostics, "text", cwd))
    if result.stdout:
        out.write(result.stdout)
    if result.message:
        err.write(result.message + "\n")
    return result.exit_code


def resolve_patterns(given: Sequence[str], cfg: Config, cwd: Path) -> list[str]:
    """Patterns from the command line, else the config's inputs (default `./...` of the
    module), made relative to `cwd` — the rule of cli.py's `_patterns`, which can call
    this instead of keeping its own copy."""
    if given:
        return list(given)
    out = []
    for pattern in cfg.inputs or ("./...",):
        tail = ""
        base = pattern
        if pattern == "..." or pattern.endswith("/..."):
            base, tail = pattern[: -len("...")].rstrip("/") or ".", "/..."
        rel = os.path.relpath(cfg.root / base, cwd)
        out.append(("./" + rel if not rel.startswith(("..", "/")) else rel) + tail)
    return out
