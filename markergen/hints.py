"""Hints as edits: the phrases a diagnostic's hint is written in.

A hint says what to change in the user's Go file, as edits that can be followed
without guessing (tests/test_hints.py applies every rule's hint to its bad example in
docs/rules.md and checks again):

- "write `NEW` instead of `OLD`": replace the text OLD with NEW on the diagnostic's line,
  or, when OLD is not there, in the comment and line of the declaration the diagnostic
  is in; "on NAME, write ..." looks in the declaration NAME instead;
- "add `LINE` above NAME": a new line right above the comment of the declaration NAME
  (a field of the struct concerned, or a type);
- "add `LINE` below NAME": a new line right after the declaration NAME's line;
- "remove `LINE` from NAME": delete that line of NAME's comment.

The k8s rules also say "replace `OLD` with `NEW` on this line", "delete this line",
"write `A` and `B` above NAME [in STRUCT]" and "write the field as `DECL`" (the field's
name and type), and may lead in with a few words ending in ": ".

Edits are joined with "; " (or "and") and are all to be made. What follows " (" is an
alternative for a reader whose intent differs, or an explanation; it need not be an edit.
"""

from __future__ import annotations

from collections.abc import Sequence

from markergen.golang.syntax import JSONTag


def replace(new: str, old: str, on: str | None = None) -> str:
    edit = f"write `{new}` instead of `{old}`"
    return f"on {on}, {edit}" if on else edit


def add_above(line: str, name: str) -> str:
    return f"add `{line}` above {name}"


def add_below(line: str, name: str) -> str:
    return f"add `{line}` below {name}"


def remove(line: str, name: str) -> str:
    return f"remove `{line}` from {name}"


def edits(*parts: str, otherwise: str | None = None) -> str:
    """Edits to make together, and an optional alternative in prose."""
    text = "; ".join(parts)
    return f"{text} (or {otherwise})" if otherwise else text


def marker_line(raw: str) -> str:
    """The comment line of a marker, as gofmt writes it: `// +name=value`."""
    return f"// {raw}"


def json_tag(tag: JSONTag) -> str:
    """A field's json tag as written (`json:"name,omitempty"`); `json:"-"` for a skip."""
    if tag.skip:
        return 'json:"-"'
    return _tag_text(tag.name, tag.options)


def _tag_text(name: str, options: Sequence[str]) -> str:
    return 'json:"' + ",".join((name, *options)) + '"'


def json_options(tag: JSONTag, add: tuple[str, ...] = (), drop: tuple[str, ...] = ()) -> str | None:
    """The edit of a json tag that adds and drops options; None without a json tag
    (there is no text to replace, so the caller says it in words)."""
    if not tag.present or tag.skip:
        return None
    options = [o for o in tag.options if o not in drop]
    options += [o for o in add if o not in options]
    new = _tag_text(tag.name, options)
    old = json_tag(tag)
    return None if new == old else replace(new, old)
