"""Behaviour kept by the second round of speed work (docs/performance.md): the marker
line cache, the ASCII json-name check, the comment reader that makes lines as it groups
them, and the collector pause must give exactly what the code they replace gave. No
timing is asserted here."""

from __future__ import annotations

import gc
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from markergen.gcpause import gc_paused
from markergen.golang.parser import parse_file
from markergen.golang.syntax import Position
from markergen.golang.tags import _JSON_NAME_PUNCT, _valid_json_name
from markergen.markers import REGISTRY, LineCache, Marker, MarkerError, parse_line

# Pieces of marker lines: real names (known, prefixed, misspelt), values, arguments
# and the characters that make a line malformed.
_PIECES = st.sampled_from(
    [
        "+", "optional", "unionMember", "unionDiscriminator", "k8s:alpha", "k8s:beta",
        "k8s:ifEnabled", "k8s:unionMember", "listType", "enum", "unoinMember", "=",
        "(", ")", ",", '"', "since:", ' "1.37"', "Gate", "A", ";", " ", "\t", "optional",
        "=+", "+k8s:optional", "{", "}", "x=y",
    ]
)
_LINES = st.lists(_PIECES, max_size=10).map("".join)


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(_LINES, min_size=1, max_size=6), column=st.integers(1, 40))
def test_cached_marker_lines_equal_fresh_parses(lines: list[str], column: int) -> None:
    # KEP-1027 "Proposal" markers, read through one cache as the builder reads a tree:
    # every line, repeated at other positions, must give what a fresh parse gives.
    cache = LineCache(REGISTRY)
    for row, text in enumerate(lines + lines, start=1):
        pos = Position("types.go", row, column + row % 3)
        assert parse_line(text, pos, REGISTRY, cache) == parse_line(text, pos)


def test_a_cache_hit_is_a_new_record_at_the_new_position() -> None:
    cache = LineCache(REGISTRY)
    first = parse_line(" +unionMember=A", Position("a.go", 3, 3), REGISTRY, cache)
    again = parse_line("   +unionMember=A", Position("b.go", 9, 3), REGISTRY, cache)
    assert isinstance(first, Marker) and isinstance(again, Marker)
    assert first.pos == Position("a.go", 3, 4)
    assert again.pos == Position("b.go", 9, 6)
    assert replace(again, pos=first.pos) == first
    assert again is not first


def test_a_cached_error_points_at_the_fault_of_each_line() -> None:
    cache = LineCache(REGISTRY)
    text = " +k8s:alpha=optional"  # payload is not a marker: MG004 at the payload
    fresh = parse_line(text, Position("a.go", 1, 3))
    cached = [parse_line(text, Position("a.go", 1, c), REGISTRY, cache) for c in (3, 3, 8)]
    assert isinstance(fresh, MarkerError)
    assert cached[0] == cached[1] == fresh
    assert isinstance(cached[2], MarkerError)
    assert cached[2].pos.column == fresh.pos.column + 5


def _slow_valid_json_name(name: str) -> bool:
    # encoding/json's isValidTag, character by character (the code the regex replaces).
    return bool(name) and all(c.isalnum() or c in _JSON_NAME_PUNCT for c in name)


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(
            st.characters(max_codepoint=127), st.sampled_from(["é", "ß", "٣", "²", "\u00a0"])
        ),
        max_size=12,
    )
)
def test_json_name_check_matches_encoding_json_rule(name: str) -> None:
    assert _valid_json_name(name) == _slow_valid_json_name(name)


COMMENTED = """// Package doc.
package v1

/* block
   comment */ // and a line comment on the same line

// Thing doc, line one.
// line two
//
// line four after an empty comment line
type Thing struct {
\t// A doc.
\tA string `json:"a"` // trailing of A
\t// B doc.
\t/* inline */ B int `json:"b"`
\tC int /* c */ `json:"c"`

\t// orphan

\t// D doc with ünïcödé.
\tD bool `json:"d"` /* block trailing ü */ // and line trailing
}
"""


def _lines(group: object) -> list[tuple[str, int, int]]:
    from markergen.golang.syntax import CommentGroup

    assert group is None or isinstance(group, CommentGroup)
    if group is None:
        return []
    return [(ln.text, ln.pos.line, ln.pos.column) for ln in group.lines]


@pytest.mark.parametrize("suffix", ["", "// ascii only\n", "// non-ASCII: café\n"])
def test_comment_groups_and_positions(suffix: str) -> None:
    # go/parser's attachment, on a file with and without non-ASCII
    # bytes (which take the byte-to-character column path).
    text = COMMENTED
    if "ascii" in suffix:
        text = text.replace("ünïcödé", "unicode").replace("ü */", "u */")
    f = parse_file("t.go", (text + suffix).encode())
    thing = f.types[0]
    assert _lines(thing.doc) == [
        (" Thing doc, line one.", 7, 3),
        (" line two", 8, 3),
        ("", 9, 3),
        (" line four after an empty comment line", 10, 3),
    ]
    fields = {fd.name: fd for fd in thing.type.fields}
    assert _lines(fields["A"].doc) == [(" A doc.", 12, 4)]
    assert _lines(fields["A"].trailing) == [(" trailing of A", 13, 24)]
    # go/parser: a group ending on the line of the next token is not a lead comment.
    assert fields["B"].doc is None
    assert fields["C"].doc is None and fields["C"].trailing is None
    d_doc = "ünïcödé" if "ascii" not in suffix else "unicode"
    assert _lines(fields["D"].doc) == [(f" D doc with {d_doc}.", 20, 4)]
    # `/* block trailing */ // and line trailing`: one trailing group of two lines; the
    # second line's column counts characters, not bytes.
    assert _lines(fields["D"].trailing) == [
        (" block trailing " + ("u " if "ascii" in suffix else "ü "), 21, 22),
        (" and line trailing", 21, 45),
    ]
    assert _lines(f.package_doc) == [(" Package doc.", 1, 3)]


def test_gc_paused_restores_the_collector() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), gc_paused():
        raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # a caller's own choice is left alone
    finally:
        gc.enable()
