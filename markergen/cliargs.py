"""The declarations of markergen's command line: a command, its arguments and options.

markergen.cli builds its argparse parser from these and markergen.completion its shell
completion scripts, so the two cannot disagree. A command's settings (the options that
markergen.yaml also takes) are declared in markergen.config and added here.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from markergen.config import Setting

Complete = Literal["none", "file", "dir", "choice", "code"]


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
    # command's parser is built (so `markergen --version` never imports it).
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
    run: Callable[[argparse.Namespace], int]
    settings: bool = True  # also takes the settings markergen.config declares for it
    epilog: str = ""



def setting_dest(s: Setting) -> str:
    """The argparse destination of a setting's flag."""
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
