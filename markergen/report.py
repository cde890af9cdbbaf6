"""Output formats of `markergen check`.

text   `path:line:col: error MG303: message` and an indented `hint:` line (compiler style)
json   one JSON array of {code, severity, message, file, line, column[, hint]}
github workflow commands, so a pull request's checks annotate the diff
sarif  SARIF 2.1.0 for code scanning, with the catalog as the rules array

Paths are shown from the top of the git repository that holds `cwd` (in every format,
as `markergen diff` shows them: GitHub and SARIF place annotations by that path, and two
reports name a file the same way wherever they run), else relative to `cwd`; a relative
path is taken as relative to `cwd`. Output is deterministic:
diagnostics are sorted by position, code and message, and JSON keys are sorted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal, get_args

import markergen
from markergen.diagnostics import CATALOG, Diagnostic, Severity

Format = Literal["text", "json", "github", "sarif"]
FORMATS: tuple[Format, ...] = get_args(Format)
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
DEFAULT_HELP_BASE = "docs/rules.md"


def count(n: int, noun: str) -> str:
    """`1 output`, `2 outputs`: a count with its noun (a regular English plural)."""
    return f"{n} {noun}{'s' * (n != 1)}"


def repository_top(cwd: Path) -> Path:
    """The top of the git work tree holding `cwd` (a `.git` directory or file), else
    `cwd`. Looked up on disk: no git process on every run."""
    here = Path(os.path.abspath(cwd))
    for d in (here, *here.parents):
        if (d / ".git").exists():
            return d
    return here


def display_path(file: str, cwd: Path) -> str:
    path = Path(file)
    if not path.is_absolute():
        return path.as_posix()
    # relpath, not Path.relative_to: a file outside cwd is shown as ../x, like compilers do.
    return Path(os.path.relpath(path, cwd)).as_posix()


def _from_top(diags: Sequence[Diagnostic], cwd: Path, top: Path) -> list[Diagnostic]:
    """The diagnostics with relative paths made absolute (they are relative to `cwd`),
    so that the formats show them from `top`."""
    if top == cwd:
        return list(diags)
    out = []
    for d in diags:
        if d.pos.file and not Path(d.pos.file).is_absolute():
            pos = replace(d.pos, file=os.path.join(cwd, d.pos.file))
            d = replace(d, pos=pos)
        out.append(d)
    return out


def _sorted(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(diags, key=Diagnostic.sort_key)


def format_text(diags: Iterable[Diagnostic], cwd: Path) -> str:
    lines: list[str] = []
    for d in _sorted(diags):
        path = display_path(d.pos.file, cwd)
        lines.append(
            f"{path}:{d.pos.line}:{d.pos.column}: {d.severity.value} {d.code}: {d.message}"
        )
        if d.hint:
            lines.append(f"    hint: {d.hint}")
    return "".join(line + "\n" for line in lines)


def _json_dump(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def format_json(diags: Iterable[Diagnostic], cwd: Path) -> str:
    out: list[dict[str, Any]] = []
    for d in _sorted(diags):
        # the cache's record, with the path as the user reads it and no empty hint
        item = d.to_record() | {"file": display_path(d.pos.file, cwd)}
        if not d.hint:
            del item["hint"]
        out.append(item)
    return _json_dump(out)


def escape_data(text: str) -> str:
    # GitHub's escaping of a workflow command's message (actions/toolkit escapeData).
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    # Properties also escape the separators of `key=value,key=value::`.
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


_GITHUB_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def format_github(diags: Iterable[Diagnostic], cwd: Path) -> str:
    lines = []
    for d in _sorted(diags):
        props = ",".join(
            f"{key}={escape_property(value)}"
            for key, value in (
                ("file", display_path(d.pos.file, cwd)),
                ("line", str(d.pos.line)),
                ("col", str(d.pos.column)),
                ("title", d.code),
            )
        )
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        lines.append(f"::{_GITHUB_COMMAND[d.severity]} {props}::{escape_data(message)}")
    return "".join(line + "\n" for line in lines)


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule_name(title: str) -> str:
    """SARIF's `name` is an identifier-like string: the title in PascalCase."""
    words = "".join(c if c.isalnum() else " " for c in title).split()
    return "".join(w[:1].upper() + w[1:] for w in words)


def sarif_document(
    diags: Iterable[Diagnostic], cwd: Path, help_base: str = DEFAULT_HELP_BASE
) -> dict[str, Any]:
    # Only SARIF carries the codes' documentation: the other formats (and a run served
    # from the cache) do not read docs/rules.md.
    from markergen.explain import ExplainError, sections, summary

    codes = sorted(CATALOG)
    try:
        docs = sections()
    except ExplainError:
        docs = {}  # no documentation installed: the titles still describe the rules
    rules = []
    for code in codes:
        info = CATALOG[code]
        rules.append(
            {
                "id": code,
                "name": _rule_name(info.title),
                "shortDescription": {"text": info.title},
                "fullDescription": {"text": summary(code, docs) or info.title},
                "helpUri": f"{help_base}#{code.lower()}",
                "defaultConfiguration": {"level": _SARIF_LEVEL[info.severity]},
            }
        )
    results = []
    for d in _sorted(diags):
        text = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        result: dict[str, Any] = {
            "ruleId": d.code,
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": text},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": display_path(d.pos.file, cwd)},
                        "region": {"startLine": d.pos.line, "startColumn": d.pos.column},
                    }
                }
            ],
        }
        if d.code in CATALOG:
            result["ruleIndex"] = codes.index(d.code)
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "markergen",
                        "version": markergen.__version__,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }


def format_sarif(diags: Iterable[Diagnostic], cwd: Path) -> str:
    return _json_dump(sarif_document(diags, cwd))


_FORMATTERS: dict[str, Callable[[Iterable[Diagnostic], Path], str]] = {
    "text": format_text,
    "json": format_json,
    "github": format_github,
    "sarif": format_sarif,
}


def render(
    diags: Sequence[Diagnostic], fmt: str, cwd: Path | None = None, *, color: bool = False
) -> str:
    """The diagnostics in one of FORMATS; ValueError names the known formats. `color`
    (text only) marks severities with ANSI colours, for a terminal."""
    try:
        formatter = _FORMATTERS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}; use one of: {', '.join(FORMATS)}") from None
    here = Path(os.path.abspath(cwd if cwd is not None else Path.cwd()))
    top = repository_top(here)
    text = formatter(_from_top(diags, here, top), top)
    return _colored(text) if color and fmt == "text" else text


# Bold red errors, bold yellow warnings, cyan notes: what compilers print on a terminal.
_COLORS = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "info": "\x1b[36m"}


def _colored(text: str) -> str:
    out = []
    for line in text.splitlines(keepends=True):
        for word, code in _COLORS.items():
            marker = f": {word} MG"
            if marker in line:
                line = line.replace(marker, f": {code}{word}\x1b[0m MG", 1)
                break
        out.append(line)
    return "".join(out)
