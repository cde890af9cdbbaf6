"""What the front end and the model builder share or make lazily must equal what they
would make eagerly (docs/performance.md, issue 29): a comment group's texts and single
line records read before its lines, type expression records shared among equal types,
resolved types remembered per file, descriptions of plain docs read in one pass, and
`make_field`'s record with its tags read in one pass. No timing is asserted here."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from frontend_records import ROOT, fixture_files
from hypothesis import given, settings
from hypothesis import strategies as st

from markergen.doctext import comment_lines, description, format_description
from markergen.golang.parser import DecodeError, GoParser
from markergen.golang.syntax import (
    CommentGroup,
    CommentLine,
    GoFile,
    Position,
    TypeDecl,
    TypeExpr,
)
from markergen.markers import REGISTRY
from markergen.model import Field
from markergen.model.fields import make_field
from markergen.model.markerread import MarkerReader
from markergen.model.resolve import Resolver, TypeIndex


def _groups(file: GoFile) -> Iterator[CommentGroup]:
    yield from file.package_comments
    if file.package_doc is not None:
        yield file.package_doc
    for decl in file.types:
        yield from (g for g in (decl.doc, decl.doc_extra) if g is not None)
        yield from _field_groups(decl.type)
    for spec in file.consts:
        yield from (g for g in (spec.doc, spec.trailing) if g is not None)
    for marked in file.marked:
        yield marked.doc


def _field_groups(expr: TypeExpr) -> Iterator[CommentGroup]:
    for f in expr.fields:
        yield from (g for g in (f.doc, f.trailing, f.doc_extra) if g is not None)
        yield from _field_groups(f.type)


def _parse(path: Path) -> GoFile | None:
    data = path.read_bytes()
    try:
        return GoParser().parse(path.relative_to(ROOT).as_posix(), data)
    except DecodeError:
        return None


CRLF_AND_ODD = [
    b"package p\r\n\r\n// A is\r\n// a type.\r\ntype A struct {\r\n\t// X is\r\n\tX int // x\r\n}\r\n",
    b"package p\n\n// caf\xc3\xa9 \xe6\x97\xa5\n//\t+optional\ntype A int\n",
    b"package p\n\n/* a\n b */\n// c\ntype A int\n\ntype B struct {\n\t/* d */ // e\n\tY int\n}\n",
    b"package p\n\ntype C struct {\n\t// lone \r carriage\n\t// two\n\n\n\t// three\n\tZ int\n}\n",
    # a license block above the clause (its texts read from the bytes), a mixed group
    b"/*\r\nCopyright \xc3\xa9\r\n\r\n  x */\r\n// +groupName=a /* b\r\n/* c */\r\npackage p\r\n",
]


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_texts_and_single_lines_equal_the_line_records(path: Path) -> None:
    first = _parse(path)
    if first is None:
        return
    texts_first = list(_groups(first))
    one_line_first = list(_groups(_parse(path) or first))
    lines_first = list(_groups(_parse(path) or first))
    for by_texts, by_line, by_lines in zip(texts_first, one_line_first, lines_first, strict=True):
        texts = by_texts.texts  # read before the lines are made
        singles = [by_line.line(i) for i in range(len(by_lines.lines))]
        assert texts == tuple(line.text for line in by_lines.lines)
        assert tuple(singles) == by_lines.lines
        assert by_texts.lines == by_lines.lines and by_texts.texts == texts


@pytest.mark.parametrize("data", CRLF_AND_ODD)
def test_texts_and_single_lines_on_crlf_non_ascii_and_block_comments(data: bytes) -> None:
    groups = list(_groups(GoParser().parse("x.go", data)))
    eager = list(_groups(GoParser().parse("x.go", data)))
    assert groups
    for lazy, made in zip(groups, eager, strict=True):
        lines = made.lines
        assert lazy.texts == tuple(line.text for line in lines)
        assert all(lazy.line(i) == line for i, line in enumerate(lines))


REPEATED = b"""package p

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type A struct {
	X map[string]*metav1.Time `json:"x"`
	Y map[string]*metav1.Time `json:"y"`
	Z []struct{ N int } `json:"z"`
	W []struct{ N int } `json:"w"`
}

type B map[string]*metav1.Time
"""


def test_equal_type_expressions_are_one_record_and_resolve_alike() -> None:
    file = GoParser().parse("x.go", REPEATED)
    a, b = file.types
    x, y, z, w = a.type.fields
    assert x.type is y.type and b.type is x.type
    assert z.type is not w.type  # a struct type's fields have positions of their own
    assert z.type.elem is not None and z.type.elem.fields[0].pos.line == 8
    assert w.type.elem is not None and w.type.elem.fields[0].pos.line == 9
    fresh = GoParser().parse("x.go", REPEATED)  # another parser: nothing shared with the first
    assert fresh.types == file.types
    index = TypeIndex(frozenset({("p", "A"), ("p", "B")}))
    remembered = Resolver(index, "p", file)
    for f in (x, y, z, w):
        assert remembered.resolve(f.type) == Resolver(index, "p", file).resolve(f.type)
    assert remembered.resolve(b.type) == remembered.resolve(x.type)


FIELDS = b"""package p

// +kubebuilder:validation:Optional
type S struct {
	// A is a field.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +default="x"
	A []Item `json:"a,omitempty" patchStrategy:"merge" patchMergeKey:"name"`

	// +kubebuilder:validation:Enum=a;b
	// +openshift:validation:FeatureGateAwareEnum:featureGate=G,enum=a;b;c
	// <gateway:experimental:validation:Enum=a;b>
	B string `json:"b"`
	c int
	Item `json:",inline"`
}

type Item struct {
	Name string `json:"name"`
}
"""


def test_make_field_builds_the_record_the_dataclass_builds() -> None:
    file = GoParser().parse("x.go", FIELDS)
    decl: TypeDecl = file.types[0]
    resolver = Resolver(TypeIndex(frozenset({("p", "Item")})), "p", file)
    names = {f.name for f in dataclasses.fields(Field)}
    for optional_by_default in (False, True):
        for fd in decl.type.fields:
            made = make_field(fd, resolver, MarkerReader(REGISTRY), "S", optional_by_default)
            assert set(vars(made)) == names
            assert made == Field(**{n: getattr(made, n) for n in names})
            assert hash(made.json) == hash(fd.json)
    a = make_field(decl.type.fields[0], resolver, MarkerReader(REGISTRY), "S", False)
    assert (a.patch_strategy, a.patch_merge_key, a.list_map_keys) == ("merge", "name", ("name",))
    b = make_field(decl.type.fields[1], resolver, MarkerReader(REGISTRY), "S", False)
    assert b.enum_values == ("a", "b") and [g.gate for g in b.enum_gates] == [
        "G",
        "gateway:experimental",
    ]


_TEXT = st.lists(
    st.one_of(
        st.sampled_from(
            [
                " A doc line.",
                " +optional",
                " ---",
                " TODO: x",
                "",
                " ",
                "\tindented",
                "  two spaces",
                " +k8s:enum",
                "go:generate x",
                " trailing  ",
                " a\xa0",
                " \xa0b",
                " \x1cc",
                "nospace",
                " TODOx",
                " +",
                "\r",
                " \t",
                "\t",
                "  ",
                " b",
            ]
        ),
        st.text(alphabet=" \t+-TOD\xa0ab\r", max_size=6).map(lambda t: " " + t),
    ),
    min_size=1,
    max_size=8,
)


@given(_TEXT)
@settings(max_examples=600, deadline=None)
def test_descriptions_of_plain_docs_are_the_general_reading(texts: list[str]) -> None:
    lines = tuple(CommentLine(t, Position("x.go", i + 1, 3)) for i, t in enumerate(texts))
    group = CommentGroup(lines)
    assert description(group) == format_description(comment_lines(group))


def test_a_gap_of_many_comment_lines_before_a_block_comment_is_read_in_linear_time() -> None:
    # Comment lines holding `//` and ending in blanks, then a `/* */`: a regular
    # expression matching the whole gap would backtrack 2^40 ways before failing.
    lines = "".join(f"\t// see http://x/{i}//y   \n" for i in range(40))
    src = f"package p\n\ntype T struct {{\n\tA int\n\n{lines}\t/* c */\n\tB int\n}}\n"
    (decl,) = GoParser().parse("x.go", src.encode()).types
    a, b = decl.type.fields
    assert b.doc is not None and len(b.doc.texts) == 41 and b.doc.texts[-1] == " c "
    assert b.doc.texts[0] == " see http://x/0//y   " and a.trailing is None
    # a group of `//` lines and a `/* */` block: each line the record of its kind
    assert [type(line).__name__ for line in b.doc.lines[-2:]] == [
        "CommentLine",
        "BlockCommentLine",
    ]
    (eager,) = GoParser().parse("x.go", src.encode()).types
    assert decl == eager
