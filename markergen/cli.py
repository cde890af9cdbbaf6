"""The `markergen` command line: parse arguments, call the library, print, exit.

Exit codes (DESIGN section 1): 0 success; 1 error diagnostics, stale output or a
matched `--fail-on`; 2 usage, configuration or I/O error. A user error never prints
a traceback; `--debug` shows one for bugs. Imports of the heavy parts are lazy so
`--help` and `--version` stay fast.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from markergen import __version__

app = typer.Typer(
    name="markergen",
    help="Check and generate KEP-1027 union and enum markers for Kubernetes Go API types.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class _State:
    """Options of the top-level callback (typer passes them through the context)."""

    def __init__(self, debug: bool) -> None:
        self.debug = debug


def _version(value: bool) -> None:
    if value:
        typer.echo(f"markergen {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(
    ctx: typer.Context,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks of internal errors.")] = False,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    ctx.obj = _State(debug)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"markergen: error: {message}", err=True)
    return typer.Exit(2)


def _run(ctx: typer.Context, body: Callable[[], int]) -> None:
    """Run a command body, turning every user-facing failure into a message + exit 2."""
    from markergen.errors import user_message

    debug = isinstance(ctx.obj, _State) and ctx.obj.debug
    try:
        code = body()
    except KeyboardInterrupt:
        typer.echo("markergen: interrupted; every output is as it was or completely written", err=True)
        raise typer.Exit(2) from None
    except typer.Exit:
        raise
    except Exception as e:
        message = user_message(e)
        if message is not None:
            raise _fail(message) from None
        if debug:
            raise
        raise _fail(
            f"internal error: {type(e).__name__}: {e} (run with --debug for a traceback, "
            "and please report it)"
        ) from None
    raise typer.Exit(code)


def _config(overrides: dict[str, Any] | None = None) -> Any:
    from markergen.config import load_config

    return load_config(Path.cwd(), overrides)


def _patterns(given: Sequence[str], cfg: Any) -> list[str]:
    """Patterns from the command line (relative to cwd) or the config (relative to the
    module root; without config the whole module), expressed relative to cwd so that
    reported paths are too. One rule, shared with the fast path."""
    from markergen.fastpath import resolve_patterns

    return resolve_patterns(given, cfg, Path.cwd())


PatternsArg = Annotated[
    list[str] | None,
    typer.Argument(help="Go package patterns such as ./api/... (default: from the config)."),
]
IncludeGenerated = Annotated[
    bool,
    typer.Option("--include-generated", help="Also read files marked `Code generated ... DO NOT EDIT.`"),
]


@app.command()
def dump(
    ctx: typer.Context,
    patterns: PatternsArg = None,
    include_generated: IncludeGenerated = False,
) -> None:
    """Print the parsed model (packages, structs, enums, unions) as JSON."""

    def body() -> int:
        from markergen.dump import model_to_json
        from markergen.pipeline import load_model

        cfg = _config({"include_generated": include_generated or None})
        model = load_model(_patterns(patterns or [], cfg), Path.cwd(), cfg.include_generated)
        sys.stdout.write(model_to_json(model))
        return 0

    _run(ctx, body)


FormatOpt = Annotated[
    str,
    typer.Option("--format", "-f", help="Output format: text, json, github or sarif."),
]


def _summary(diags: Sequence[Any]) -> str:
    errors = sum(1 for d in diags if d.severity.value == "error")
    warnings = sum(1 for d in diags if d.severity.value == "warning")
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


@app.command()
def check(
    ctx: typer.Context,
    patterns: PatternsArg = None,
    fmt: FormatOpt = "text",
    include_generated: IncludeGenerated = False,
) -> None:
    """Check the union and enum markers; exit 1 when there is an error."""

    def body() -> int:
        from markergen.pipeline import InputError, check_model, load_model
        from markergen.report import FORMATS, render

        if fmt not in FORMATS:
            raise InputError(f"unknown --format {fmt!r}; use one of: {', '.join(FORMATS)}")
        cfg = _config({"include_generated": include_generated or None})
        model = load_model(_patterns(patterns or [], cfg), Path.cwd(), cfg.include_generated)
        diags = check_model(model)
        sys.stdout.write(render(diags, fmt, Path.cwd()))
        if fmt == "text" and diags:
            typer.echo(_summary(diags), err=True)
        return 1 if any(d.severity.value == "error" for d in diags) else 0

    _run(ctx, body)


@app.command()
def generate(
    ctx: typer.Context,
    patterns: PatternsArg = None,
    verify: Annotated[
        bool, typer.Option("--verify", help="Write nothing; print a diff and exit 1 if stale.")
    ] = False,
    out_dir: Annotated[
        str | None, typer.Option("--out-dir", help="Directory of the outputs (default: openapi).")
    ] = None,
    v2: Annotated[str | None, typer.Option("--v2", help="Path of the OpenAPI v2 document.")] = None,
    v3: Annotated[str | None, typer.Option("--v3", help="Path of the OpenAPI v3 document.")] = None,
    table_json: Annotated[
        str | None, typer.Option("--table-json", help="Path of the JSON runtime table.")
    ] = None,
    table_py: Annotated[
        str | None, typer.Option("--table-py", help="Path of the Python runtime table.")
    ] = None,
    union_format: Annotated[
        str | None,
        typer.Option("--union-format", help="fieldMembers (default), list or both."),
    ] = None,
    naming: Annotated[
        str | None, typer.Option("--naming", help="Definition names: openapi-gen or go.")
    ] = None,
    semantics: Annotated[
        str | None,
        typer.Option("--semantics", help="Force runtime semantics: kep1027, kep2019 or smd."),
    ] = None,
    templates: Annotated[
        str | None, typer.Option("--templates", help="Directory of templates overriding ours.")
    ] = None,
    title: Annotated[
        str | None, typer.Option("--title", help="info.title of the OpenAPI documents.")
    ] = None,
    api_version: Annotated[
        str | None,
        typer.Option("--api-version", help="info.version of the OpenAPI documents."),
    ] = None,
    include_generated: IncludeGenerated = False,
    no_cache: Annotated[
        bool,
        typer.Option("--no-cache", help="Recompute everything; do not read or write the cache."),
    ] = False,
) -> None:
    """Check, then write the OpenAPI documents and the runtime tables."""

    def body() -> int:
        from markergen.generate import run_and_report

        cfg = _config(
            {
                "out_dir": out_dir,
                "v2": v2,
                "v3": v3,
                "table_json": table_json,
                "table_py": table_py,
                "union_format": union_format,
                "naming": naming,
                "semantics": {"*": semantics} if semantics else None,
                "templates": templates,
                "title": title,
                "version": api_version,
                "include_generated": include_generated or None,
            }
        )
        return run_and_report(
            cfg,
            _patterns(patterns or [], cfg),
            Path.cwd(),
            verify=verify,
            use_cache=not no_cache,
            out=sys.stdout,
            err=sys.stderr,
        )

    _run(ctx, body)


@app.command()
def crd(
    ctx: typer.Context,
    paths: Annotated[
        list[str] | None,
        typer.Argument(help="CRD files or directories (default: the config's crd-dir)."),
    ] = None,
    types: Annotated[
        list[str] | None,
        typer.Option("--types", help="Go package patterns of the API types (repeatable)."),
    ] = None,
    verify: Annotated[
        bool, typer.Option("--verify", help="Write nothing; print a diff and exit 1 if stale.")
    ] = False,
    include_generated: IncludeGenerated = False,
) -> None:
    """Add union CEL rules and discriminator enums to controller-gen CRDs, in place."""

    def body() -> int:
        from markergen.crd import run_crd
        from markergen.pipeline import InputError, load_model
        from markergen.report import render

        cfg = _config({"include_generated": include_generated or None})
        targets = list(paths or [])
        if not targets:
            if not cfg.crd_dir:
                raise InputError(
                    "no CRD files given: pass files or directories, or set `crd-dir:` in "
                    "markergen.yaml"
                )
            targets = [os.path.relpath(cfg.root / cfg.crd_dir, Path.cwd())]
        model = load_model(_patterns(types or [], cfg), Path.cwd(), cfg.include_generated)
        result = run_crd([Path(t) for t in targets], model, verify)
        if result.diagnostics:
            typer.echo(render(list(result.diagnostics), "text", Path.cwd()), err=True, nl=False)
        if verify:
            sys.stdout.write("".join(result.diffs))
            stale = len(result.changed)
            typer.echo(
                f"markergen: {stale} CRD file(s) are stale" if stale
                else "markergen: CRDs are up to date",
                err=True,
            )
            return 1 if result.has_errors or stale else 0
        changed = ", ".join(os.path.relpath(p, Path.cwd()) for p in result.changed) or "nothing"
        typer.echo(f"markergen: patched {changed}", err=True)
        return 1 if result.has_errors else 0

    _run(ctx, body)


TableOpt = Annotated[
    str | None,
    typer.Option("--table", help="unions_table.json (default: the configured table-json path)."),
]
TypeOpt = Annotated[
    str, typer.Option("--type", help="Definition name, or a unique suffix such as Deployment.")
]
OldOpt = Annotated[
    str | None, typer.Option("--old", help="The stored object, for an update.")
]
SemanticsOpt = Annotated[
    str | None,
    typer.Option("--semantics", help="Force one semantics for every union: kep1027, kep2019, smd."),
]


def _runtime_inputs(
    table: str | None, type_name: str, semantics: str | None, obj: str, old: str | None
) -> tuple[Any, str, Any, Any]:
    """(table, definition name, the object as loaded, the old object's value or None)
    of a normalize / validate command."""
    from markergen.objects import load_object, resolve_type
    from markergen.runtime import Table

    path = table or str(_config().output_path("table_json"))
    loaded = Table.load(path, semantics=semantics)
    name = resolve_type(sorted(loaded.types), type_name)
    return loaded, name, load_object(obj), load_object(old).value if old else None


@app.command()
def normalize(
    ctx: typer.Context,
    new: Annotated[str, typer.Argument(help="The new object (YAML or JSON file, or -).")],
    type_name: TypeOpt,
    old: OldOpt = None,
    table: TableOpt = None,
    semantics: SemanticsOpt = None,
) -> None:
    """Normalize an object's unions as the API server would on create or update."""

    def body() -> int:
        from markergen.objects import dump_object
        from markergen.runtime import UnionError
        from markergen.runtime import normalize as run_normalize

        tbl, name, new_obj, old_value = _runtime_inputs(table, type_name, semantics, new, old)
        try:
            result = run_normalize(tbl, name, old_value, new_obj.value)
        except UnionError as e:
            for err in e.errors:
                typer.echo(str(err))
            return 1
        sys.stdout.write(dump_object(result, new_obj.was_json))
        return 0

    _run(ctx, body)


@app.command()
def validate(
    ctx: typer.Context,
    obj: Annotated[str, typer.Argument(help="The object (YAML or JSON file, or -).")],
    type_name: TypeOpt,
    old: OldOpt = None,
    table: TableOpt = None,
    semantics: SemanticsOpt = None,
) -> None:
    """Validate an object's unions; print one Kubernetes-style error per line."""

    def body() -> int:
        from markergen.runtime import validate as run_validate

        tbl, name, loaded, old_value = _runtime_inputs(table, type_name, semantics, obj, old)
        errors = run_validate(tbl, name, loaded.value, old=old_value)
        for err in errors:
            typer.echo(str(err))
        return 1 if errors else 0

    _run(ctx, body)


@app.command()
def diff(
    ctx: typer.Context,
    base: Annotated[
        str,
        typer.Argument(help="Base side: a git revision, a directory, or a generated JSON file."),
    ],
    head: Annotated[
        str | None, typer.Argument(help="Head side (default: the working tree).")
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="Output format: text, markdown or json.")
    ] = "text",
    fail_on: Annotated[
        str,
        typer.Option("--fail-on", help="Exit 1 on: breaking, any or none (default)."),
    ] = "none",
) -> None:
    """Compare the unions and enums of two versions; classify each change."""

    def body() -> int:
        from markergen.diff import run_diff
        from markergen.pipeline import InputError

        if fail_on not in ("breaking", "any", "none"):
            raise InputError(f"unknown --fail-on {fail_on!r}; use breaking, any or none")
        if fmt not in ("text", "markdown", "json"):
            raise InputError(f"unknown --format {fmt!r}; use text, markdown or json")
        result = run_diff(base, head, Path.cwd(), fmt)
        sys.stdout.write(result.text)
        return 1 if result.fails(fail_on) else 0

    _run(ctx, body)


@app.command()
def explain(
    ctx: typer.Context,
    code: Annotated[str, typer.Argument(help="A checker code such as MG303.")],
) -> None:
    """Print the documentation of one checker rule."""

    def body() -> int:
        from markergen.explain import explain as explain_code

        sys.stdout.write(explain_code(code))
        return 0

    _run(ctx, body)


def main() -> None:
    """Kept for `python -c 'from markergen.cli import main'`; the console script is
    markergen.entry:main, which tries the fast path first."""
    from markergen.entry import main as entry_main

    entry_main()
