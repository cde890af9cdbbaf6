"""CRD files wrapped in Helm template lines (`{{- if .Values.crds.enabled }}` ... `{{- end }}`).

A file whose only templating is whole `{{ ... }}` lines outside the YAML documents is
patched like a plain file: those lines are masked as YAML comments of the same length for
parsing (so every mark and line number stays valid) and are never edited. Templating
inside a document (a templated value, or a template line between two keys) makes the
file something only Helm can read; it is skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markergen.crd.yamlio import split_lines

_WHOLE_LINE = re.compile(r"^\s*\{\{.*\}\}\s*$")
_INLINE = re.compile(r"\{\{-?\s*(?:[.$]|[a-zA-Z_]+\b)")
# A template comment over several lines (a chart's license block):
# `{{- /*` on a line of its own start ... `*/ -}}` ending a line.
_COMMENT_START = re.compile(r"^\s*\{\{-?\s*/\*")
_COMMENT_END = re.compile(r"\*/\s*-?\}\}\s*$")


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
            out.append("#" + " " * (len(body) - 1) + line[len(body) :])
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


def _whole_lines(lines: list[str]) -> list[bool]:
    """Which lines are template lines of their own: `{{ ... }}` on one line, or every
    line of a `{{/* ... */}}` comment written over several lines."""
    whole: list[bool] = []
    in_comment = False
    for line in lines:
        if in_comment:
            whole.append(True)
            in_comment = not _COMMENT_END.search(line)
        elif _WHOLE_LINE.match(line):
            whole.append(True)
        elif _COMMENT_START.match(line):
            whole.append(True)
            in_comment = not _COMMENT_END.search(line)
        else:
            whole.append(False)
    return whole


def _outside(lines: list[str], whole: list[bool], i: int, step: int) -> bool:
    """True when the nearest YAML line from `i` in direction `step` is `---` or the file end."""
    j = i + step
    while 0 <= j < len(lines):
        if not whole[j] and _code(lines[j]):
            return lines[j].strip() == "---" or lines[j].startswith("--- ")
        j += step
    return True
