"""Behaviour kept by the third round of model-build speed work (docs/performance.md,
issue 29): the marker reading that parses each distinct line text once and makes a line
record only for a marker, the reader's memory of markers accepted without a word, the
constant evaluation that takes a string literal's value from its record, and the
paragraph docs read in one pass must give exactly what the code they replace gave. No
timing is asserted here."""

from __future__ import annotations

from pathlib import Path

import pytest
from frontend_records import ROOT, fixture_files
from hypothesis import given, settings
from hypothesis import strategies as st

from markergen.doctext import _plain_description, comment_lines, description, format_description
from markergen.golang.constexpr import Const, evaluate
from markergen.golang.parser import DecodeError, GoParser, parse_file
from markergen.golang.syntax import (
    BlockCommentLine,
    CommentGroup,
    CommentLine,
    GoFile,
    Position,
)
from markergen.markers import REGISTRY, LineCache, Marker, MarkerError, Target, parse_line
from markergen.model.markerread import MarkerReader


def _parse(path: Path) -> GoFile | None:
    try:
        return GoParser().parse(path.relative_to(ROOT).as_posix(), path.read_bytes())
    except DecodeError:
        return None


def _uncached_group(group: CommentGroup) -> tuple[list[Marker], list[MarkerError]]:
    """parse_group as it was: every line of the group parsed alone at its record."""
    markers: list[Marker] = []
    errors: list[MarkerError] = []
    for line in group.lines:
        result = parse_line(line.text, line.pos)
        if isinstance(result, Marker):
            if isinstance(line, BlockCommentLine):
                object.__setattr__(result, "in_block", True)
            markers.append(result)
        elif isinstance(result, MarkerError):
            errors.append(result)
    return markers, errors


def _doc_groups(file: GoFile) -> list[CommentGroup]:
    groups = [*file.package_comments]
    for decl in file.types:
        groups += [g for g in (decl.doc_extra, decl.doc) if g is not None]
        for f in decl.type.fields:
            groups += [g for g in (f.doc_extra, f.doc, f.trailing) if g is not None]
    groups += [spec.doc for spec in file.consts if spec.doc is not None]
    return groups


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_cached_group_reading_equals_a_fresh_parse_of_every_line(path: Path) -> None:
    file = _parse(path)
    if file is None:
        return
    cache = LineCache(REGISTRY)
    for _ in range(2):  # the second time every line text is a cache hit
        for group in _doc_groups(file):
            got = cache.group(group)
            assert got == _uncached_group(group)
            # a fresh record per use: setting `in_block` on one never shows on another
            assert all(a is not b for a, b in zip(got[0], cache.group(group)[0], strict=True))


_LINE = st.lists(
    st.sampled_from(
        ["+", "optional", "unionMember", "k8s:alpha", "k8s:ifEnabled", "unoinMember", "=",
         "(", ")", ",", '"', "Gate", "A", ";", " ", "\t", "=+", "+k8s:optional", "x", "1+2"]
    ),
    max_size=8,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(_LINE, min_size=1, max_size=6), column=st.integers(1, 30))
def test_group_of_any_lines_reads_as_each_line_alone(texts: list[str], column: int) -> None:
    lines = tuple(CommentLine(t, Position("a.go", i + 1, column)) for i, t in enumerate(texts))
    block = tuple(BlockCommentLine(t, Position("a.go", i + 1, column)) for i, t in enumerate(texts))
    cache = LineCache(REGISTRY)
    for group in (CommentGroup(lines), CommentGroup(block), CommentGroup(lines)):
        assert cache.group(group) == _uncached_group(group)


def test_the_reader_remembers_only_what_it_accepts_without_a_word() -> None:
    # MG003 (a misspelt union marker) and MG005 (a union marker where it has no effect)
    # are reported at each place; a wrapped member tag on a type is kept each time, and
    # that does not make the bare one on another type acceptable.
    src = (
        "package p\n\n"
        "type S struct {\n"
        "\t// +unoinMember\n\t// +optional\n\tA *int\n"
        "\t// +unoinMember\n\t// +optional\n\tB *int\n"
        "}\n\n"
        "// +k8s:eachVal=+k8s:unionMember\ntype L1 []int\n\n"
        "// +k8s:unionMember\ntype L2 []int\n\n"
        "// +k8s:eachVal=+k8s:unionMember\ntype L3 []int\n\n"
        "// +unionMember\nconst X = 1\n\n// +unionMember\nconst Y = 2\n"
    )
    file = parse_file("p.go", src.encode())
    reader = MarkerReader(REGISTRY)
    s, *lists = file.types
    fields = [reader.read((f.doc,), Target.FIELD, f"field S.{f.name}") for f in s.type.fields]
    types = [reader.read((t.doc,), Target.TYPE, f"type {t.name}") for t in lists]
    consts = [reader.read((c.doc,), Target.CONST, f"constant {c.name}") for c in file.consts]
    assert [[m.name for m in ms] for ms in fields] == [["unoinMember", "optional"]] * 2
    assert [[m.name for m in ms] for ms in types] == [["k8s:unionMember"], [], ["k8s:unionMember"]]
    assert consts == [(), ()]
    assert [(d.code, d.pos.line) for d in reader.diagnostics] == [
        ("MG003", 4),
        ("MG003", 7),
        ("MG005", 15),
        ("MG005", 21),
        ("MG005", 24),
    ]


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_string_literal_constant_is_what_evaluating_its_text_gives(path: Path) -> None:
    file = _parse(path)
    if file is None:
        return

    class NoNames:
        def constant(self, qualifier: str, name: str) -> Const | None:
            raise AssertionError("a literal names nothing")

        def type_name(self, qualifier: str, name: str) -> tuple[str, str] | None:
            raise AssertionError("a literal names nothing")

    for spec in file.consts:
        if spec.value is not None:
            assert evaluate(spec.value_text, NoNames(), spec.iota) == Const(spec.value)


def test_paragraphs_of_plain_lines_are_read_in_one_pass() -> None:
    texts = (" First line", " goes on.", "", "", " +optional", "", " Second.", " +k8s:x", "")
    lines = tuple(CommentLine(t, Position("a.go", i + 1, 3)) for i, t in enumerate(texts))
    group = CommentGroup(lines)
    assert _plain_description(texts) is not None
    assert description(group) == format_description(comment_lines(group))
    assert description(group) == "First line goes on.\n\n\nSecond."
