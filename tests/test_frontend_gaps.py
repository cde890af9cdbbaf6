"""The front end reads the comments of a list without syntax errors from the bytes of
the gaps between its code nodes (`_FileReader.attached`, `comments.gap`) and keeps
`comments.items` for lists with errors. Both must attach the same groups to the same
declarations: here random field lists, const groups and top levels, made of the pieces
where the two readings could part (blank lines with and without white space, trailing
comments, `/* */` blocks alone or after code, `//` inside comments, non-ASCII text,
`;` between declarations), are read both ways, and so is every Go fixture file of
testdata/, whole, with LF and CRLF line ends. No timing is asserted here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from frontend_records import ROOT, fixture_files, records
from hypothesis import given, settings
from hypothesis import strategies as st
from tree_sitter import Node

from markergen.golang.parser import _TOP_LEVEL_KINDS, GoParser, _FileReader
from markergen.golang.source import Source, prepare
from markergen.golang.syntax import CommentGroup

_PARSER = GoParser()

_COMMENTS = [
    "// doc",
    "// +optional",
    "//",
    "// see http://x//y",
    "// caf\u00e9 \u65e5",
    "/* block */",
    "/* two\n   lines */",
    "/* a */ /* b */",
    "// a /* not a block",
]
_BLANKS = ["", "\t", "  \t ", "\f"]


def _comment(indent: str) -> st.SearchStrategy[str]:
    return st.sampled_from(_COMMENTS).map(lambda c: indent + c)


def _lines(code: st.SearchStrategy[str], indent: str) -> st.SearchStrategy[str]:
    """Lines of code (each maybe with a trailing comment), comments and blank lines."""
    trailing = st.sampled_from(["", " // t", "// u", "\t// +t", " /* c */", " /* c */ // d"])
    code_line = st.tuples(code, trailing).map(lambda p: indent + p[0] + p[1])
    blank = st.sampled_from(_BLANKS)
    line = st.one_of(code_line, _comment(indent), blank)
    return st.lists(line, min_size=1, max_size=12).map("\n".join)


_FIELDS = st.sampled_from(
    ["A int", 'B string `json:"b"`', "C, D int", "*E", "pkg.F", "G []H; K int", "L /* c */ int"]
)
_CONSTS = st.sampled_from(['A T = "a"', "B", "C, D = 1, 2", "E = /* c */ 3", "F; G = 4"])
_TOP = st.sampled_from(
    ['import "fmt"', "type A int", "type (\n\tB int\n)", "const C = 1", "var v = 1",
     "func f() {}", "func (T) MarshalJSON() ([]byte, error) { return nil, nil }",
     "type D struct{}; type E int"]
)  # fmt: skip


def _reader(text: str) -> tuple[_FileReader, Node]:
    data = prepare("x.go", text.encode())
    tree = _PARSER._parser.parse(data)
    return _FileReader(Source("x.go", data)), tree.root_node


def _find(node: Node, kind: str) -> Iterator[Node]:
    if node.type == kind:
        yield node
    for child in node.children:
        yield from _find(child, kind)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["", " // c", " /* c */"]), _lines(_FIELDS, "\t"))
def test_fields_from_the_gaps_are_the_fields_from_the_items(brace: str, body: str) -> None:
    reader, root = _reader(f"package p\n\ntype T struct {{{brace}\n{body}\n}}\n")
    for fields in _find(root, "field_declaration_list"):
        if not fields.has_error:
            assert reader.fields(fields) == reader._fields_with_errors(fields, 0)


@settings(max_examples=300, deadline=None)
@given(_lines(_CONSTS, "\t"))
def test_const_specs_from_the_gaps_are_the_const_specs_from_the_items(body: str) -> None:
    text = f"package p\n\nconst (\n{body}\n)\n"
    reader, root = _reader(text)
    (decl,) = _find(root, "const_declaration")
    if decl.has_error:
        return
    gaps = reader.const_decls(decl, None, None)
    # the same specs read through comments.items (the reading of a group with errors)
    with mock.patch.object(reader, "attached", return_value=None):
        assert gaps == reader.const_decls(decl, None, None)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["// Copyright", "//go:build linux", "/* l */", ""]), max_size=4),
    _lines(_TOP, ""),
)
def test_declarations_from_the_gaps_are_the_declarations_from_the_items(
    header: list[str], body: str
) -> None:
    reader, root = _reader("\n".join([*header, "// Package p.", "package p", body, ""]))
    if root.has_error:
        return
    gaps_header: list[CommentGroup] = []
    items_header: list[CommentGroup] = []
    gaps = reader.declarations(root.children, gaps_header)
    items = reader.declarations_with_errors(root.children, items_header)
    assert gaps == [d for d in items if d[0].kind_id in _TOP_LEVEL_KINDS]
    assert gaps_header == items_header
    # and the whole record, through both readings
    whole = reader.read(root)
    with mock.patch.object(reader, "declarations", return_value=None):
        assert whole == reader.read(root)


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_fixture_file_reads_the_same_through_the_items(path: Path) -> None:
    # Every list through comments.items (as if each had a syntax error): the records
    # of the whole file, read whole and without struct fields, are those of the gaps.
    rel = path.relative_to(ROOT).as_posix()
    data = path.read_bytes()
    crlf = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    for text in (data, crlf):
        gaps = records(GoParser(), rel, text)
        with (
            mock.patch.object(_FileReader, "attached", return_value=None) as attached,
            mock.patch.object(_FileReader, "declarations", return_value=None),
        ):
            items: Any = records(GoParser(), rel, text)
        assert items == gaps
        if "decode_error" not in gaps and not gaps["full"]["errors"] and b"struct {" in text:
            assert attached.called  # the items did the reading
