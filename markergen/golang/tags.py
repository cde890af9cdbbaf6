"""Struct tags, read as Go's reflect.StructTag and encoding/json read them."""

from __future__ import annotations

import re

from markergen.golang.literals import unquote
from markergen.golang.syntax import JSONTag

# encoding/json's isValidTag accepts these punctuation characters besides letters and
# digits; a json name with anything else is ignored (the Go name is used instead).
_JSON_NAME_PUNCT = frozenset("!#$%&()*+-./:;<=>?@[]^_{|}~ ")
# The same rule for ASCII names, in one regular expression (ASCII isalnum is [A-Za-z0-9]).
_ASCII_JSON_NAME = re.compile(r"[A-Za-z0-9!#$%&()*+\-./:;<=>?@\[\]^_{|}~ ]+")

# One `key:"value"` pair after optional blanks: reflect's key is a run of characters
# above the space other than `:`, `"` and DEL; the value is a quoted string whose
# backslash escapes (of any character) are skipped while looking for its closing quote.
_PAIR = re.compile(r'[ \t]*([^\x00-\x20:"\x7f]+):("(?:[^"\\]|\\.)*")', re.DOTALL)
# The common tag: well-formed pairs whose values hold no escape, nothing after them.
# Its pairs are read in one pass, and each value is its text between the quotes.
_PLAIN_PAIRS = re.compile(r'(?:[ \t]*[^\x00-\x20:"\x7f]+:"[^"\\\n]*")*')
_PLAIN_PAIR = re.compile(r'[ \t]*([^\x00-\x20:"\x7f]+):"([^"\\\n]*)"')


def parse_struct_tag(tag: str) -> tuple[tuple[str, str], ...]:
    """Every `key:"value"` pair of a struct tag, in order, values unquoted.

    Follows reflect.StructTag.Lookup: scanning stops at the first malformed pair, and the
    pairs read before it are kept. One deliberate difference: tabs between pairs are
    skipped like spaces (reflect stops there), because API authors do write them and
    the pairs are clearly meant; a checker may still warn about them.
    """
    if _PLAIN_PAIRS.fullmatch(tag):
        return tuple(_PLAIN_PAIR.findall(tag))
    pairs: list[tuple[str, str]] = []
    pos = 0
    while True:
        m = _PAIR.match(tag, pos)
        if m is None:
            break
        try:
            value = unquote(m.group(2))
        except ValueError:
            break
        pairs.append((m.group(1), value))
        pos = m.end()
    return tuple(pairs)


def _valid_json_name(name: str) -> bool:
    if not name:
        return False
    if name.isascii():
        return _ASCII_JSON_NAME.fullmatch(name) is not None
    return all(c.isalnum() or c in _JSON_NAME_PUNCT for c in name)


def json_tag(pairs: tuple[tuple[str, str], ...]) -> JSONTag:
    """The `json` tag of a field as encoding/json reads it (first `json` key wins)."""
    for key, value in pairs:
        if key != "json":
            continue
        if value == "-":
            return JSONTag(present=True, skip=True)
        # `json:"-,"` names the field "-": only the bare "-" means skip.
        name, _, opts = value.partition(",")
        options = tuple(opts.split(",")) if opts else ()
        return JSONTag(
            present=True,
            name=name if _valid_json_name(name) else "",
            omitempty="omitempty" in options,
            inline="inline" in options,
            string="string" in options,
            options=options,
        )
    return JSONTag()
