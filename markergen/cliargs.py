"""The declarations of markergen's command line and the typer app built from them.

A command is declared once (`Command`, with its `Arg`s, in markergen.cli); the options a
command takes from the settings registry (markergen.config `setting(...)`) are added
here. `build_app` turns the declarations into a typer app: for every argument a
parameter of the command's signature (`Annotated[type, typer.Option(...)]`), so help,
parsing, usage errors ("did you mean"), and shell completion (typer's scripts for bash,
zsh, fish and PowerShell, asking the program itself for the values) all come from the
same declaration and no option is written twice.

typer and click are imported only when an app is built (not by `import markergen.cli`).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional

if TYPE_CHECKING:
    import inspect

    import click

    from markergen.config import Setting

Complete = Literal["none", "file", "dir", "choice", "code", "gitref"]

# What a command's body receives: one attribute per argument, by its `dest`.
Args = types.SimpleNamespace


@dataclass(frozen=True, slots=True)
class Arg:
    """A positional argument or an option of one command."""

    names: tuple[str, ...]  # ("PATTERNS",) for a positional; ("--format", "-f") for an option
    help: str
    dest: str
    metavar: str | None = None
    choices: tuple[str, ...] = ()
    default: Any = None
    action: Literal["store", "store_true", "append", "positional", "positionals"] = "store"
    required: bool = False
    complete: Complete = "none"
    optional_positional: bool = False  # a positional that may be left out
    # "module:NAME" of a tuple of choices declared elsewhere, imported only when this
    # command's parameters are built (so `markergen --version` never imports it).
    choices_from: str | None = None

    def resolved(self) -> Arg:
        """This argument with `choices_from` looked up."""
        if self.choices_from is None:
            return self
        import dataclasses
        import importlib

        module, _, name = self.choices_from.partition(":")
        values = tuple(str(v) for v in getattr(importlib.import_module(module), name))
        return dataclasses.replace(self, choices=values, choices_from=None)

    @property
    def is_option(self) -> bool:
        return self.names[0].startswith("-")


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    summary: str  # one line, shown in the command list
    description: str  # the command's own help
    args: tuple[Arg, ...]
    run: Callable[[Args], int]
    settings: bool = True  # also takes the settings markergen.config declares for it
    epilog: str = ""


def setting_dest(s: Setting) -> str:
    """The parameter name of a setting's flag."""
    return "setting_" + s.key.replace("-", "_")


def setting_args(command: str) -> tuple[Arg, ...]:
    """The options a command takes from the settings registry."""
    from markergen.config import settings_of

    out = []
    for s in settings_of(command):
        if s.kind == "bool":
            out.append(Arg((s.flag,), s.help, setting_dest(s), action="store_true", default=None))
            continue
        choices = s.choices if s.kind in ("choice", "mapping") else ()
        out.append(
            Arg(
                (s.flag,),
                s.help,
                setting_dest(s),
                metavar=s.metavar or (None if choices else "VALUE"),
                choices=choices,
                complete="choice" if choices else ("dir" if s.metavar == "DIR" else "file"),
            )
        )
    return tuple(out)


def command_args(command: Command) -> tuple[Arg, ...]:
    own = tuple(a.resolved() for a in command.args)
    return own + (setting_args(command.name) if command.settings else ())


# ---- the typer app ---------------------------------------------------------------------


class Interrupted(Exception):
    """A Ctrl-C inside a command's body, carried past click (which would turn a
    KeyboardInterrupt into its own "Aborted!") to markergen.cli's handler."""


class PipeClosed(Exception):
    """The reader of stdout left (`markergen dump | head`), carried past click (which
    would exit 1) to markergen.cli's handler."""


def _paragraphs(text: str) -> str:
    """click rewraps every paragraph; one with indented lines (an example, a command
    to type) is kept as written, which click spells with a leading \\b line."""
    out = []
    for paragraph in text.split("\n\n"):
        lines = paragraph.splitlines()
        if any(line.startswith(" ") for line in lines):
            out.append("\b\n" + paragraph)
        else:
            out.append(paragraph)
    return "\n\n".join(out)


def _codes(incomplete: str) -> list[tuple[str, str]]:
    """Diagnostic codes from the catalog, each with its title."""
    from markergen.diagnostics import CATALOG

    prefix = incomplete.upper()
    return [(c, CATALOG[c].title) for c in sorted(CATALOG) if c.startswith(prefix)]


def _git_refs(incomplete: str) -> list[str]:
    """HEAD and the branches and tags of the repository around the working directory;
    none outside a repository, where the shell completes file names instead."""
    import subprocess

    try:
        proc = subprocess.run(
            ["git", "for-each-ref", "--format=%(refname:short)", "refs/heads", "refs/tags",
             "refs/remotes"],
            capture_output=True, text=True, timeout=10, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return []
    if proc.returncode != 0:
        return []
    return [r for r in ["HEAD", *proc.stdout.split()] if r.startswith(incomplete)]


# How a value completes beyond click's own (a choice completes its choices; a file or a
# directory is left to the shell, which typer's scripts fall back to when markergen
# offers nothing). typer reads each function's signature: `incomplete` is the word.
_COMPLETERS: Mapping[str, Callable[[str], list[Any]]] = {
    "code": _codes,
    "gitref": _git_refs,
}


def _parameter(arg: Arg) -> inspect.Parameter:
    """The typer parameter of one declared argument."""
    import inspect

    import click
    import typer

    kw: dict[str, Any] = {"help": arg.help, "show_default": False}
    if arg.choices:
        kw["click_type"] = click.Choice(arg.choices)
    if arg.complete in _COMPLETERS:
        kw["autocompletion"] = _COMPLETERS[arg.complete]
    annotation: Any
    default: Any
    if not arg.is_option:
        kw["metavar"] = arg.names[0] + ("..." if arg.action == "positionals" else "")
        if arg.action == "positionals":
            annotation, default = Optional[list[str]], None  # noqa: UP045 (typer reads it)
        elif arg.optional_positional:
            annotation, default = Optional[str], None  # noqa: UP045
        else:
            annotation, default = str, ...
        info = typer.Argument(**kw)
    else:
        if arg.metavar:
            kw["metavar"] = arg.metavar
        if arg.action == "store_true":
            annotation, default = bool, False
        elif arg.action == "append":
            annotation, default = Optional[list[str]], None  # noqa: UP045
        elif arg.required:
            annotation, default = str, ...
        else:
            annotation, default = Optional[str], arg.default  # noqa: UP045
        info = typer.Option(*arg.names, **kw)
    return inspect.Parameter(
        arg.dest, inspect.Parameter.KEYWORD_ONLY, default=default,
        annotation=Annotated[annotation, info],
    )  # fmt: skip


def _callback(
    name: str, params: Sequence[inspect.Parameter], body: Callable[[dict[str, Any]], Any]
) -> Callable[..., Any]:
    """A function whose signature is `params` (what typer reads to build the command)
    and that calls `body` with the parsed values."""
    import inspect

    def command(**values: Any) -> Any:
        return body(values)

    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params}
    command.__name__ = command.__qualname__ = name.replace("-", "_")
    return command


def _values(args: Sequence[Arg], values: dict[str, Any]) -> dict[str, Any]:
    """Parsed values as the command bodies take them: lists never None."""
    out = dict(values)
    for a in args:
        if a.action in ("positionals", "append") and out.get(a.dest) is None:
            out[a.dest] = []
    return out


def build_app(
    *,
    prog: str,
    description: str,
    epilog: str,
    commands: Sequence[Command],
    top_args: Sequence[Arg],
    everywhere: Sequence[Arg],
    version: str,
    only: str | None = None,
) -> click.Command:
    """The click command of the typer app. `top_args` are options of `prog` alone
    (`--version`), `everywhere` options that every command takes too (`--debug`,
    `--quiet`: anywhere on the line). With `only`, the other commands get no parameters
    (only their names and summaries, for the command list): `markergen --help` and a
    run build the parameters of one command, not of every command."""
    import inspect

    import click
    import typer
    import typer.completion
    import typer.core
    import typer.main

    # typer's bash/zsh/fish/PowerShell protocols (typer.completion re-exports them
    # without declaring it)
    typer.completion.completion_init()  # type: ignore[attr-defined]
    app = typer.Typer(
        name=prog,
        help=_paragraphs(description),
        epilog=_paragraphs(epilog),
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
        add_completion=False,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
        no_args_is_help=True,
        # click (8.4 and later) says "Did you mean" for a mistyped command, and typer's
        # own suggestion would say it a second time.
        suggest_commands=False,
    )

    def show_version(value: bool) -> None:
        if value:
            typer.echo(f"{prog} {version}")
            raise typer.Exit(0)

    tops = []
    for a in top_args:
        if a.dest == "version":
            info = typer.Option(*a.names, help=a.help, callback=show_version, is_eager=True)
            tops.append(
                inspect.Parameter(
                    a.dest,
                    inspect.Parameter.KEYWORD_ONLY,
                    default=False,
                    annotation=Annotated[bool, info],
                )
            )
        else:
            tops.append(_parameter(a))
    app.callback()(_callback(prog, tops + [_parameter(a) for a in everywhere], lambda v: None))

    class TyperCommand(typer.core.TyperCommand):
        def format_arguments(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
            """Nothing: typer lists the arguments with the options (click 8.3 and later
            would list them a second time)."""

    for c in commands:
        full = only is None or only == c.name
        args = (*command_args(c), *everywhere) if full else ()

        def body(values: dict[str, Any], c: Command = c, args: tuple[Arg, ...] = args) -> int:
            # An option of `everywhere` given before the command counts as after it.
            given = click.get_current_context().find_root().params
            for a in everywhere:
                values[a.dest] = values.get(a.dest) or given.get(a.dest) or False
            try:
                return c.run(Args(**_values(args, values)))
            except KeyboardInterrupt as e:
                raise Interrupted() from e
            except BrokenPipeError as e:
                raise PipeClosed() from e

        app.command(
            c.name,
            cls=TyperCommand,
            help=_paragraphs(c.description),
            short_help=c.summary,
            epilog=_paragraphs(c.epilog) if c.epilog else None,
        )(_callback(c.name, [_parameter(a) for a in args], body))
    group = typer.main.get_command(app)
    _keep_argument_help(group, commands)
    return group


def _keep_argument_help(group: click.Command, commands: Sequence[Command]) -> None:
    """typer (0.25) hands an argument's help to click.Argument, whose constructor (click
    8.3 and later) sets it back to None: restore it from the declaration."""
    import click

    if not isinstance(group, click.Group):
        return
    for c in commands:
        declared = {a.dest: a.help for a in c.args}
        for param in group.commands[c.name].params:
            if isinstance(param, click.Argument) and param.name in declared:
                param.help = declared[param.name]


def completion_script(prog: str, shell: str) -> str:
    """typer's completion script for `shell`: it asks `prog` itself for completions
    (with `_<PROG>_COMPLETE` set), so values come from the same declarations."""
    from typer.completion import get_completion_script  # type: ignore[attr-defined]

    var = f"_{prog.replace('-', '_').upper()}_COMPLETE"
    return get_completion_script(prog_name=prog, complete_var=var, shell=shell) + "\n"


SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
