"""CRD files wrapped in Helm template lines (`{{- if .Values.crds.enabled }}` ... `{{- end }}`).

A file whose only templating is whole `{{ ... }}` lines outside the YAML documents is
patched like a plain file: those lines are masked as YAML comments of the same length for
parsing (so every mark and line number stays valid) and are never edited. Templating
inside a document (a templated value, or a template line between two keys) makes the
file something only Helm can read; it is skipped. An action may span whole lines: a line
that opens `{{` without closing it runs to the first line that ends with `}}` (the
license header charts put in `{{- /* ... */ -}}`), and all of them are masked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markergen.yamlio import split_lines

_WHOLE_LINE = re.compile(r"^\s*\{\{.*\}\}\s*$")
_INLINE = re.compile(r"\{\{-?\s*(?:[.$]|[a-zA-Z_]+\b)")
_OPENS = re.compile(r"^\s*\{\{")
_CLOSES = re.compile(r"\}\}\s*$")


@dataclass(frozen=True)
class Masked:
    text: str  # what YAML reads: template lines turned into comments
    inside_line: int  # 1-based line of templating inside a document, 0 when none


def _code(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith("#")


def mask_templates(text: str) -> Masked:
    if "{{" not in text:
        return Masked(text, 0)  # no template at all: spare splitting and matching every line
    lines = split_lines(text)
    whole = _whole_lines(lines)
    if not any(whole):
        return Masked(text, 0)
    out: list[str] = []
    for i, line in enumerate(lines):
        if whole[i]:
            body = line.rstrip("\r\n\x85\u2028\u2029")
            # an empty line inside a multi-line action stays empty: same length
            out.append(("#" + " " * (len(body) - 1) if body else "") + line[len(body) :])
        else:
            out.append(line)
    for i, line in enumerate(lines):
        if not whole[i]:
            if _INLINE.search(line):
                return Masked(text, i + 1)
            continue
        if not (_outside(lines, whole, i, -1) or _outside(lines, whole, i, 1)):
            return Masked(text, i + 1)
    return Masked("".join(out), 0)


def templated(text: str) -> bool:
    """True when the text has a Helm action: a line that starts with `{{`, or an inline
    action; such a file may be YAML only once Helm renders it."""
    return "{{" in text and any(
        _OPENS.match(line) or _INLINE.search(line) for line in split_lines(text)
    )


def _whole_lines(lines: list[str]) -> list[bool]:
    """Which lines belong to an action that fills whole lines (one line, or from a line
    that opens `{{` to the first line that ends with `}}`)."""
    whole = [False] * len(lines)
    i = 0
    while i < len(lines):
        if _WHOLE_LINE.match(lines[i]):
            whole[i] = True
        elif _OPENS.match(lines[i]) and "}}" not in lines[i]:
            end = next((j for j in range(i + 1, len(lines)) if "}}" in lines[j]), -1)
            if end >= 0 and _CLOSES.search(lines[end]):
                for j in range(i, end + 1):
                    whole[j] = True
                i = end
        i += 1
    return whole


def _outside(lines: list[str], whole: list[bool], i: int, step: int) -> bool:
    """True when the nearest YAML line from `i` in direction `step` is `---` or the file end."""
    j = i + step
    while 0 <= j < len(lines):
        if not whole[j] and _code(lines[j]):
            return lines[j].strip() == "---" or lines[j].startswith("--- ")
        j += step
    return True
