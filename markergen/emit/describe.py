"""Descriptions as openapi-gen writes them.

The model's descriptions are already formatted as openapi-gen does
(`markergen.doctext`); this module adds what depends on the output: the "Possible enum
values:" paragraph of enum properties (kube-openapi pkg/generators/enum.go) and Go's
`%q` quoting used in it.
"""

from __future__ import annotations

import re

from markergen.model import Enum, json_scalar

ENUM_HEADER = "Possible enum values:"
# After the values of an enum some of whose constants could not be read (MG020): the
# schema then has no `enum` list, and a reader of the description knows why.
INCOMPLETE_NOTE = (
    "(markergen: incomplete enum, some values are constants of a package that was not "
    "found; see MG020)"
)
_WHITESPACE = re.compile(r"\s+")


def with_enum_paragraph(description: str, enum: Enum) -> str:
    """`description` (already in openapi-gen form) plus the enum paragraph.

    This is what openapi-gen's formatting makes of the comment lines followed by
    `["", "Possible enum values:", " - ...", ...]`: a blank line starts a paragraph and
    each indented value line stays on a line of its own, trailing spaces trimmed.
    """
    return add_enum_paragraph(description, enum_paragraph(enum))


def enum_paragraph(enum: Enum) -> str:
    """The paragraph `with_enum_paragraph` adds ("" for none): the same for every
    property of the enum's type, so a renderer computes it once per enum."""
    lines = enum_description_lines(enum)
    return "\n".join(line.rstrip(" ") for line in lines[1:]) if lines else ""


def add_enum_paragraph(description: str, paragraph: str) -> str:
    if not paragraph:
        return description
    return f"{description}\n\n{paragraph}" if description else paragraph


def go_quote(value: str) -> str:
    """Go's strconv.Quote (`%q`): printable characters kept, others escaped."""
    if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return f'"{value}"'  # most values: printable ASCII is kept as it is
    named = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
             "\t": "\\t", "\v": "\\v", "\\": "\\\\", '"': '\\"'}
    parts = ['"']
    for ch in value:
        code = ord(ch)
        if ch in named:
            parts.append(named[ch])
        elif ch == " " or (ch.isprintable() and code != 0x7F):
            parts.append(ch)
        elif code < 0x80:
            parts.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            parts.append(f"\\u{code:04x}")
        else:
            parts.append(f"\\U{code:08x}")
    parts.append('"')
    return "".join(parts)


def enum_value_line(name: str, value: str, comment: str) -> str:
    comment = comment.strip()
    if name:
        comment = comment.removeprefix(name).strip()
    comment = _WHITESPACE.sub(" ", comment)
    return f" - `{go_quote(value)}` {comment}"


def enum_description_lines(enum: Enum) -> list[str]:
    """The lines openapi-gen appends to an enum property's comment (sorted as it does)."""
    if not enum.values_without_options:
        return ["", INCOMPLETE_NOTE] if enum.incomplete else []
    # The first constant of a value wins, as kube-openapi's addIfNotPresent keeps it.
    first: dict[str, tuple[str, str]] = {}
    for v in enum.values_without_options:
        first.setdefault(v.value, (v.name, v.description))
    lines = sorted(enum_value_line(n, value, d) for value, (n, d) in first.items())
    if enum.incomplete:
        return ["", ENUM_HEADER, *lines, "", INCOMPLETE_NOTE]
    return ["", ENUM_HEADER, *lines]


def enum_values_sorted(values: tuple[str, ...] | list[str]) -> list[str]:
    """Deduplicated values in openapi-gen's order (sorted by their Go-quoted form)."""
    return sorted(set(values), key=go_quote)


def typed_enum_values(values: tuple[str, ...] | list[str], schema_type: object) -> list[object]:
    """Enum values as JSON of the schema's type: `Enum=true;false` on a bool is
    `[false, true]`, `Enum=1;2;4` on an int is `[1, 2, 4]` (sorted by value); strings
    keep openapi-gen's order. A value that is not of the type is left out (the Go
    compiler or controller-gen rejects it anyway)."""
    if schema_type == "string":
        return list(enum_values_sorted(values))
    out: set[bool | int | float] = set()
    for text in values:
        value = json_scalar(text, str(schema_type))
        if value is not None and not isinstance(value, str):
            out.add(value)
    ordered: list[bool | int | float] = sorted(out, key=lambda v: (float(v), type(v).__name__))
    return list(ordered)
