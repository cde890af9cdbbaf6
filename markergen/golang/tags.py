"""Struct tags, read as Go's reflect.StructTag and encoding/json read them."""

from __future__ import annotations

from markergen.golang.literals import unquote
from markergen.golang.syntax import JSONTag

# encoding/json's isValidTag accepts these punctuation characters besides letters and
# digits; a json name with anything else is ignored (the Go name is used instead).
_JSON_NAME_PUNCT = frozenset("!#$%&()*+-./:;<=>?@[]^_{|}~ ")


def parse_struct_tag(tag: str) -> tuple[tuple[str, str], ...]:
    """Every `key:"value"` pair of a struct tag, in order, values unquoted.

    Follows reflect.StructTag.Lookup: scanning stops at the first malformed pair, and the
    pairs read before it are kept. One deliberate difference: tabs between pairs are
    skipped like spaces (reflect stops there), because API authors do write them and
    the pairs are clearly meant; a checker may still warn about them.
    """
    pairs: list[tuple[str, str]] = []
    rest = tag
    while rest:
        rest = rest.lstrip(" \t")
        if not rest:
            break
        i = 0
        while i < len(rest) and rest[i] > " " and rest[i] not in ':"\x7f':
            i += 1
        if i == 0 or i + 1 >= len(rest) or rest[i] != ":" or rest[i + 1] != '"':
            break
        key = rest[:i]
        rest = rest[i + 1 :]
        # Scan the quoted value, honouring backslash escapes.
        j = 1
        while j < len(rest) and rest[j] != '"':
            if rest[j] == "\\":
                j += 1
            j += 1
        if j >= len(rest):
            break
        quoted = rest[: j + 1]
        rest = rest[j + 1 :]
        try:
            value = unquote(quoted)
        except ValueError:
            break
        pairs.append((key, value))
    return tuple(pairs)


def _valid_json_name(name: str) -> bool:
    if not name:
        return False
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
