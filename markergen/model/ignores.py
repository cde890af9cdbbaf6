"""`// markergen:ignore MGnnn reason` comments: where each one applies.

An ignore comment sits in the doc comment of a field, a type or a constant:

- above a field (on the line before one of its markers, or before the field): it covers
  the lines below it down to the field's own line;
- above a struct type: it covers the type line and every field of the struct;
- above a constant: it covers the lines below it down to the constant's own line (a
  constant left out of its type's Enum list on purpose, MG105); an MG105 ignore above
  the enum type covers every constant its list leaves out (the rule reports those at the
  type's line, markergen.rules.enums).

Several codes may be listed (`MG302,MG305` or `MG302 MG305`); the reason is required,
as linters require one, so that the next reader knows why. Suppressing, and reporting
an ignore that suppressed nothing, happen after every rule ran (markergen.policy); a CRD
finding is silenced at the Go place it is about (markergen.crd.reasons.silence).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from markergen import hints
from markergen.diagnostics import CATALOG, Diagnostic, diag
from markergen.golang.syntax import CommentGroup, GoFile, Position

DIRECTIVE = "markergen:ignore"
_CODES = re.compile(r"MG\d{3}(?:\s*[,\s]\s*MG\d{3})*")


@dataclass(frozen=True, slots=True)
class Ignore:
    """One ignore comment: the codes it silences on lines `first`..`last` of `pos.file`."""

    codes: tuple[str, ...]
    reason: str
    pos: Position  # the comment's `markergen:ignore`
    first: int
    last: int
    text: str = ""  # the comment as written, from `markergen:ignore` on
    owner: str = ""  # the Go name of the field or type whose comment holds it
    written_codes: str = ""  # the codes as written (`MG302,MG305`)

    def covers(self, d: Diagnostic) -> bool:
        return self.covers_at(d.code, d.pos)

    def covers_at(self, code: str, pos: Position) -> bool:
        """Whether the comment silences `code` at `pos` (a CRD finding's Go place too)."""
        return (
            code in self.codes and pos.file == self.pos.file and self.first <= pos.line <= self.last
        )


def _read(
    group: CommentGroup | None, last: int, owner: str
) -> tuple[list[Ignore], list[Diagnostic]]:
    found: list[Ignore] = []
    problems: list[Diagnostic] = []
    if group is None:
        return found, problems
    for index, text in enumerate(group.texts):
        if DIRECTIVE not in text:
            continue  # nearly every line: one substring test
        line = group.line(index)
        text = line.text.strip()
        if not text.startswith(DIRECTIVE):
            continue
        offset = line.text.index(DIRECTIVE)
        pos = Position(line.pos.file, line.pos.line, line.pos.column + offset)
        rest = text[len(DIRECTIVE) :].strip()
        match = _CODES.match(rest)
        if match is None:
            problems.append(
                diag(
                    "MG011",
                    pos,
                    f"`{text}` names no code: write `// {DIRECTIVE} MGnnn <reason>`",
                    hint=hints.replace(f"{DIRECTIVE} MGnnn <why this is fine here>", text),
                )
            )
            continue
        codes = tuple(re.findall(r"MG\d{3}", match.group(0)))
        reason = rest[match.end() :].strip()
        unknown = [c for c in codes if c not in CATALOG]
        if unknown or not reason:
            why = f"unknown code {', '.join(unknown)}" if unknown else "no reason after the codes"
            problems.append(
                diag(
                    "MG011",
                    pos,
                    f"`{text}`: {why}; the comment is not applied",
                    hint=hints.replace(
                        f"{DIRECTIVE} {','.join(c for c in codes if c in CATALOG) or 'MGnnn'} "
                        f"{reason or '<why this is fine here>'}",
                        text,
                    ),
                )
            )
            continue
        found.append(
            Ignore(codes, reason, pos, line.pos.line + 1, last, text, owner, match.group(0))
        )
    return found, problems


def file_ignores(file: GoFile) -> tuple[list[Ignore], list[Diagnostic]]:
    """The ignore comments of one file's type, field and constant doc comments."""
    ignores: list[Ignore] = []
    problems: list[Diagnostic] = []
    for decl in file.types:
        fields = decl.type.fields if decl.type.kind == "struct" else ()
        end = 0  # the last line the type's comments cover, found when one is needed
        for group in (decl.doc_extra, decl.doc):
            if _has_directive(group):
                if not end:
                    end = max([decl.pos.line, *(f.pos.line for f in fields)])
                got, bad = _read(group, end, decl.name)
                ignores += got
                problems += bad
        for f in fields:
            if _has_directive(f.doc):
                got, bad = _read(f.doc, f.pos.line, f.name)
                ignores += got
                problems += bad
    for c in file.consts:
        if _has_directive(c.doc):
            got, bad = _read(c.doc, c.pos.line, c.name)
            ignores += got
            problems += bad
    return ignores, problems


def _has_directive(group: CommentGroup | None) -> bool:
    """Whether a line of `group` may hold an ignore comment (`_read` finds none in
    any other): one search of the whole comment, as nearly every comment has none."""
    return group is not None and DIRECTIVE in "\n".join(group.texts)


def unused(
    ignores: Iterable[Ignore],
    used: set[tuple[Ignore, str]],
    accounted: Callable[[str], bool] = lambda code: True,
) -> list[Diagnostic]:
    """MG010 for each (comment, code) that silenced nothing, of the codes `accounted`
    says this step decides (markergen.policy: the rules' codes, then the CRD findings')."""
    out = []
    for ig in ignores:
        for code in ig.codes:
            if (ig, code) in used or not accounted(code):
                continue
            out.append(
                diag(
                    "MG010",
                    ig.pos,
                    f"`// {DIRECTIVE} {code}` silences nothing: no {code} is reported on the "
                    "lines it covers",
                    hint=_unused_hint(ig, code),
                )
            )
    return out


def _unused_hint(ig: Ignore, code: str) -> str:
    """Delete the code from the comment; the whole comment when it names no other."""
    others = [c for c in ig.codes if c != code]
    if not others:
        return hints.remove(f"// {ig.text}", ig.owner)
    return hints.replace(",".join(others), ig.written_codes)
