"""Read a Go file's header from its raw bytes, to skip files without parsing them.

About half the Go files of an API tree are generated (`generated.pb.go`,
`zz_generated.deepcopy.go`, ...) and they hold most of its bytes; parsing them only to
skip them afterwards was the biggest cost of a run. This scan decides *before* parsing,
and only when it is certain: it reads the leading lines, and gives a verdict only when
nothing but blank lines and comments stand before the package clause. Anything else
returns None and the parser, which reads the same header from the syntax tree, decides
as before. `/* */` blocks are stepped over
(generated files open with a license block); a `//`-style line inside one could only add
to what the parser finds, so a "skip" verdict here always agrees with the parser's
`GoFile.generated` / `GoFile.build_constraint`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The same expression the parser applies to each comment line of the header (go/ast's
# IsGenerated rule).
GENERATED_LINE = re.compile(r"^// Code generated .* DO NOT EDIT\.$")

# A header longer than this is not worth scanning in Python; the parser decides.
_MAX_HEADER_LINES = 400


def header_line(text: str, plus_build: list[str]) -> bool:
    """Read one comment line of a file's header (its text after `//`): whether it is
    the generated-code line; an old `// +build` line's expression is added to
    `plus_build`. The parser and `scan_header` both read the header through this."""
    stripped = text.strip()
    if stripped.startswith("+build ") or stripped == "+build":
        plus_build.append(stripped[len("+build") :].strip())
    # " Code generated " first: the regular expression needs it, and most lines lack it.
    return text.startswith(" Code generated ") and GENERATED_LINE.match("//" + text) is not None


def go_build_of(text: str) -> str:
    """The expression of a `//go:build` line (its text after `//`), else ""."""
    return text[len("go:build") :].strip() if text.startswith("go:build") else ""


@dataclass(frozen=True)
class Header:
    """What the leading `//` comments of a file say."""

    generated: bool
    build_constraint: str  # `//go:build` expression (or old `+build` lines), "" if none


def scan_header(data: bytes) -> Header | None:
    """The header of prepared source bytes (BOM stripped, LF line ends), or None when
    the header holds anything but comments and blank lines before `package`."""
    generated = False
    go_build = ""
    plus_build: list[str] = []
    pos = 0
    size = len(data)
    for _ in range(_MAX_HEADER_LINES):
        if pos >= size:
            return None
        end = data.find(b"\n", pos)
        if end < 0:
            return None  # no package clause on a line of its own: let the parser decide
        raw = data[pos:end]
        line = raw.strip()
        if not line:
            pos = end + 1
            continue
        if line.startswith(b"package") and line[7:8] in (b" ", b"\t"):
            return Header(generated, go_build or plus_build_expr(plus_build))
        if line.startswith(b"/*"):
            # A block comment (the license header of most generated files). Its lines
            # could only add header facts for the parser, never remove any: step over
            # it when it holds no build line, and give up when it might.
            opened = pos + raw.index(b"/*")
            close = data.find(b"*/", opened + 2)
            if close < 0 or b"build" in data[opened:close]:
                return None
            end = data.find(b"\n", close)
            if end < 0 or data[close + 2 : end].strip():
                return None
            pos = end + 1
            continue
        if not line.startswith(b"//"):
            return None
        try:
            text = raw.lstrip(b" \t")[2:].decode("utf-8").removesuffix("\r")
        except UnicodeDecodeError:
            return None
        # Exactly the parser's tests (the one function both call).
        generated = header_line(text, plus_build) or generated
        if not go_build:
            go_build = go_build_of(text)
        pos = end + 1
    return None


def ignored(constraint: str) -> bool:
    """True for `ignore`, alone or ANDed with other terms: such a file never builds."""
    if not constraint or "||" in constraint or "(" in constraint:
        return False
    return any(term.strip() == "ignore" for term in constraint.split("&&"))


def plus_build_expr(lines: list[str]) -> str:
    """Old `// +build` lines as one //go:build expression (the rewrite `go fix` makes).

    Options on a line are ORed, comma-joined terms ANDed, and the lines ANDed together.
    """
    clauses: list[str] = []
    for line in lines:
        options = []
        for option in line.split():
            terms = [t for t in option.split(",") if t]
            joined = " && ".join(terms)
            options.append(f"({joined})" if len(terms) > 1 and len(line.split()) > 1 else joined)
        if not options:
            continue
        clause = " || ".join(options)
        clauses.append(clause)
    if len(clauses) > 1:
        clauses = [f"({c})" if " || " in c else c for c in clauses]
    return " && ".join(clauses)


# The declarations of a `types_swagger_doc_generated.go` (kubernetes/api, openshift/api):
# `var map_T = map[string]string{...}` maps of doc strings and `func (T) SwaggerDoc()`
# methods returning them. Such a file has no generated-file header, so it is parsed,
# yet markergen reads nothing in those declarations. `doc_tail` finds them from the
# raw bytes so that only the part before them is parsed. The grammar below is strict,
# line by line: each text it accepts is valid Go made only of var and method
# declarations with no marker comment (no `+` in any comment line), no type, const or
# import declaration, no marshalling method and no syntax error, so the declarations
# add nothing to the file's record; anything else (another layout, an escape Go would
# reject, a `\r`) fails the match and the whole file is parsed.
_GO_STRING = rb'"(?:[^"\\\r\n]|\\(?:[abfnrtv\\\'"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}))*+"'
_DOC_TAIL = re.compile(
    rb"(?:"
    rb"[ \t]*\n"  # a blank line
    rb"|//[^+\r\n]*\n"  # a comment line without `+`
    rb"|var map_\w+ = map\[string\]string\{\n"
    rb"(?:\t" + _GO_STRING + rb":[ \t]*" + _GO_STRING + rb",\n)*+"
    rb"\}\n"
    rb"|func \(\w+\) SwaggerDoc\(\) map\[string\]string \{\n\treturn map_\w+\n\}\n"
    rb")*+"
)
_DOC_TAIL_START = re.compile(rb"^var map_\w+ = map\[string\]string\{$", re.MULTILINE)


def doc_tail(data: bytes) -> int | None:
    """Where the swagger doc declarations that end the file begin (the offset of the
    first `var map_...` line), when everything from there to the end is such
    declarations, blank lines and comment lines without `+`; else None."""
    if b"SwaggerDoc()" not in data:
        return None
    start = _DOC_TAIL_START.search(data)
    if start is None:
        return None
    tail = _DOC_TAIL.match(data, start.start())
    if tail is None or tail.end() != len(data):
        return None
    return start.start()


# `type Name struct` at the top level or inside a `type ( ... )` group (one tab in).
_STRUCT_DECL = re.compile(rb"^(?:type[ \t]+|\t)([A-Z]\w*)[ \t]+struct\b", re.MULTILINE)


def generated_struct_names(data: bytes) -> frozenset[str] | None:
    """The exported struct types a generated file declares (from its raw bytes, without
    parsing), or None when the file is not generated. A load skips generated files;
    controller-gen reads them, so a CRD's root type may be declared in one
    (`zz_generated.*-resource.go` of a resource generator)."""
    header = scan_header(data.replace(b"\r\n", b"\n").removeprefix(b"\xef\xbb\xbf"))
    if header is None or not header.generated:
        return None
    return frozenset(m.decode() for m in _STRUCT_DECL.findall(data))
