"""What the command line can answer without typer: `--version`, the top-level help
(`--help`, or no arguments at all), and `generate` with its plain options (cached or
not).

Importing typer costs about 0.12 s, and typer parses every option through pydantic
(another 0.1-0.2 s), which is most of a warm `make generate` and a quarter of a cold
one. `fast_main` runs before typer and handles only what it fully understands; for
anything else (another command, an option it does not know, any error) it returns None
and the typer application runs as if it had never been called. It never prints
anything before it knows it will handle the run, so falling back is invisible: a run
that fails here wrote nothing (the writer is all-or-nothing), and typer repeats it to
report the problem in its own words.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TextIO

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
    "--title": "title",
    "--api-version": "version",
}

# The typer application's top-level help below its usage line, as typer renders it on a
# terminal at least 80 columns wide (click caps the text at 78). Copied from the app, not
# written by hand: tests/test_perf_fastpath.py renders typer's own help and fails when
# this text differs, so a change to cli.py's commands or options shows up there.
_USAGE_ARGS = "[OPTIONS] COMMAND [ARGS]..."
_HELP_WIDTH = 78
_TOP_HELP_BODY = """\

  Check and generate KEP-1027 union and enum markers for Kubernetes Go API
  types.

Options:
  --debug    Show tracebacks of internal errors.
  --version  Print the version.
  --help     Show this message and exit.

Commands:
  dump       Print the parsed model (packages, structs, enums, unions) as...
  check      Check the union and enum markers; exit 1 when there is an...
  generate   Check, then write the OpenAPI documents and the runtime tables.
  crd        Add union CEL rules and discriminator enums to...
  normalize  Normalize an object's unions as the API server would on...
  validate   Validate an object's unions; print one Kubernetes-style...
  diff       Compare the unions and enums of two versions; classify each...
  explain    Print the documentation of one checker rule.
"""


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
    if args in ([], ["--help"]):
        return _top_help(out, err, no_args=not args)
    if args[:1] == ["--debug"]:
        args = args[1:]
    if args[:1] != ["generate"]:
        return None
    parsed = _parse_generate(args[1:])
    if parsed is None:
        return None
    return _generate(parsed, out, err)


def _top_help(out: TextIO, err: TextIO, *, no_args: bool) -> int | None:
    """typer's answer to `--help` (stdout, exit 0) and to no arguments (the same text
    on stderr, exit 2: `no_args_is_help`), or None where typer would render it
    differently (a narrow terminal, a long program name, shell completion)."""
    import shutil

    if any(name.endswith("_COMPLETE") for name in os.environ):
        return None
    if shutil.get_terminal_size().columns < _HELP_WIDTH + 2:
        return None
    usage = f"Usage: {program_name()} "
    if len(usage) + len(_USAGE_ARGS) > _HELP_WIDTH:
        return None
    text = f"{usage}{_USAGE_ARGS}\n{_TOP_HELP_BODY}"
    if no_args:
        err.write(text)
        return 2
    out.write(text)
    return 0


def program_name(argv0: str | None = None, main_package: str | None = None) -> str:
    """The program name typer (click) shows in the usage line: the script's file name,
    or `python -m <package>` when Python was started with `-m`."""
    path = argv0 if argv0 is not None else sys.argv[0]
    if main_package is None:
        main_package = getattr(sys.modules.get("__main__"), "__package__", None) or ""
    if not main_package:
        return os.path.basename(path)
    name = os.path.splitext(os.path.basename(path))[0]
    module = main_package if name == "__main__" else f"{main_package}.{name}"
    return f"python -m {module.lstrip('.')}"


class _GenerateArgs(NamedTuple):
    patterns: list[str]
    overrides: dict[str, object]
    verify: bool
    use_cache: bool


def _parse_generate(args: list[str]) -> _GenerateArgs | None:
    """`generate`'s arguments, or None for anything but the plain options (then typer
    parses them, with its messages)."""
    patterns: list[str] = []
    overrides: dict[str, object] = {}
    verify = False
    use_cache = True
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
        if arg == "--no-cache":
            use_cache = False
            continue
        if arg == "--include-generated":
            overrides["include_generated"] = True
            continue
        name, eq, value = arg.partition("=")
        if name not in _VALUE_OPTIONS:
            return None  # --help, a typo: typer's business
        if not eq:
            if i >= len(args):
                return None
            value = args[i]
            i += 1
        key = _VALUE_OPTIONS[name]
        overrides[key] = {"*": value} if key == "semantics" else value
    return _GenerateArgs(patterns, overrides, verify, use_cache)


def _generate(args: _GenerateArgs, out: TextIO, err: TextIO) -> int | None:
    from markergen.config import load_config
    from markergen.generate import run_and_report

    cwd = Path.cwd()
    try:
        cfg = load_config(cwd, args.overrides)
        return run_and_report(
            cfg,
            resolve_patterns(args.patterns, cfg, cwd),
            cwd,
            verify=args.verify,
            use_cache=args.use_cache,
            out=out,
            err=err,
        )
    except Exception as e:
        # A user error is reported here, in the words the typer path would use; only a
        # bug falls through to typer, which runs again to honour --debug. Nothing was
        # written either way: the writer is all-or-nothing.
        from markergen.errors import user_message

        message = user_message(e)
        if message is None:
            return None
        err.write(f"markergen: error: {message}\n")
        return 2


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
