"""Descriptions from doc comments, as openapi-gen writes them.

openapi-gen (kube-openapi pkg/generators) builds a description from gengo's comment
lines, which are go/ast's `CommentGroup.Text()` split at newlines. This module does the
same two steps on our `CommentGroup` records:

1. `comment_lines`: what `Text()` yields — the first space after `//` removed,
   directive lines (`//go:generate`, `//nolint:x`, `//line ...`) dropped, trailing
   white space (and a trailing carriage return) removed, leading blank lines dropped,
   runs of blank lines collapsed to one, trailing blank lines dropped.
2. `format_description`: openapi-gen's formatting — stop at a line that is exactly
   `---`; drop lines that start, after spaces, with `TODO`; drop marker lines; a blank
   line separates paragraphs (`\\n\\n`); an indented line (leading space or tab) stays
   on its own line; other lines are joined with single spaces; the result is trimmed.

Deliberate differences from openapi-gen:

- No Go-source escaping: the text goes into JSON, so quotes, tabs and newlines stay as
  they are (openapi-gen escapes them because it writes Go string literals).
- A line whose first non-white-space character is `+` is dropped whatever the white
  space before it (openapi-gen looks past spaces only, so a tab-indented `+marker`
  would stay in its description). This keeps descriptions consistent with what
  `markergen.markers` reads as a marker.
- `/* */` comments are not distinguished from `//` lines (the syntax records do not
  say which a line came from); every line is treated as a `//` line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from markergen.golang.syntax import CommentGroup

_GO_WHITESPACE = " \t\n\r"  # go/ast's stripTrailingWhitespace set
_DIRECTIVE_PREFIXES = ("line ", "extern ", "export ")
# Go's unicode.IsSpace, which strings.TrimSpace uses (Python's str.isspace differs).
_GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_LOWER_DIGIT = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def _is_directive(text: str) -> bool:
    """go/ast's rule: `//line `, `//extern `, `//export `, or `//[a-z0-9]+:[a-z0-9]`."""
    if text.startswith(_DIRECTIVE_PREFIXES):
        return True
    colon = text.find(":")
    if colon <= 0 or colon + 1 >= len(text):
        return False
    return all(ch in _LOWER_DIGIT for ch in text[:colon]) and text[colon + 1] in _LOWER_DIGIT


def comment_lines(group: CommentGroup | None) -> list[str]:
    """The lines of `group` as go/ast's `CommentGroup.Text()` gives them (gengo's input)."""
    if group is None:
        return []
    lines: list[str] = []
    for text in group.texts:
        if text.startswith(" "):
            text = text[1:]
        elif text and _is_directive(text):
            continue
        text = text.rstrip(_GO_WHITESPACE)
        if text == "" and (not lines or lines[-1] == ""):
            continue  # leading blank lines go, runs of blank lines become one
        lines.append(text)
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def _is_marker(line: str) -> bool:
    return line.lstrip().startswith("+")


def format_description(lines: Iterable[str]) -> str:
    """openapi-gen's description of a list of comment lines (without Go escaping)."""
    buf = ""
    for line in lines:
        if line == "---":
            break
        line = line.rstrip(" ")
        if line == "":
            buf = buf[:-1] + "\n\n"  # openapi-gen first deletes the " " or "\n" before
        elif line.lstrip(" ").startswith("TODO") or _is_marker(line):
            continue
        elif line.startswith((" ", "\t")):
            buf = buf[:-1] + "\n" + line + "\n"
        else:
            buf += line + " "
    return buf.strip(_GO_SPACE)


def description(group: CommentGroup | None, *extra: CommentGroup | Sequence[str] | None) -> str:
    """The description openapi-gen writes for a declaration with doc comment `group`.

    `extra` items are appended line by line, as openapi-gen appends the lines of an
    enum's "Possible enum values" block to a field's comment lines: a CommentGroup is
    read like `group`, a sequence of strings is taken as lines already in gengo form.
    """
    if group is not None and not extra:
        plain = _plain_description(group.texts)
        if plain is not None:
            return plain
    lines = comment_lines(group)
    for item in extra:
        if item is None:
            continue
        if isinstance(item, CommentGroup):
            lines.extend(comment_lines(item))
        elif isinstance(item, str):
            lines.append(item)
        else:
            lines.extend(item)
    return format_description(lines)


def _plain_description(texts: Sequence[str]) -> str | None:
    """`format_description(comment_lines(...))` of the usual doc comment in one pass, or
    None when it is not one: every line is `// text` (one space, then no white space) or
    blank, with no `---`, `TODO` or directive line. Then every line is kept as it is
    but for trailing white space and marker lines; lines are joined with spaces, and a
    blank line makes a paragraph break as `format_description` makes it."""
    # `format_description` appends `line + " "` for a line, and for a blank line first
    # deletes the last character (the space after a line, or the second newline of a
    # break) and appends "\n\n". Here a kept line carries its leading space as the
    # separator after a line; after a break it is appended without it, and a second
    # break (only markers between) adds one newline. The line's second character
    # decides every test: white space or nothing (a blank line or an indented one), `+`
    # (a marker line), `-` or `T` (`---`, `TODO`).
    kept: list[str] = []
    after_break = False
    open_line = False  # comment_lines' last line is not blank (a marker line counts)
    for text in texts:
        first = text[1:2]
        if text[:1] != " " or not first or first.isspace():
            if text.rstrip(_GO_WHITESPACE):
                return None  # indented, directive or no leading space: the general way
            if open_line:  # leading blank lines and runs of them count once
                kept.append("\n" if after_break else "\n\n")
                after_break = True
                open_line = False
            continue
        open_line = True
        if first == "+":
            continue
        line = text.rstrip(_GO_WHITESPACE)
        if (first == "-" and line == " ---") or (first == "T" and line.startswith(" TODO")):
            return None
        if after_break:
            line = line[1:]
            after_break = False
        kept.append(line)
    return "".join(kept).strip(_GO_SPACE)


__all__ = ["comment_lines", "description", "format_description"]
