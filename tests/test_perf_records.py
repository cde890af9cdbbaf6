"""Behaviour kept by the third round of speed work (docs/performance.md, "What the front
end does to stay fast"): records built through their slots are the records their
constructors build, a JSON tag shared between fields reads the same for each, the plain
Python-literal writer gives the general writer's text, and line ends are prepared as
before. No timing is asserted here."""

from __future__ import annotations

import ast
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from markergen.emit import render
from markergen.golang.parser import GoParser
from markergen.golang.source import prepare
from markergen.golang.syntax import (
    CommentLine,
    FieldDecl,
    JSONTag,
    Position,
    TypeExpr,
    comment_line,
    field_decl,
    position,
    type_expr,
)


def test_slot_built_records_are_the_constructed_records() -> None:
    pos = position("a/b.go", 300, 7)
    assert pos == Position("a/b.go", 300, 7) and hash(pos) == hash(Position("a/b.go", 300, 7))
    assert pos < Position("a/b.go", 300, 8)
    line = comment_line(" +optional", "a/b.go", 12, 4)
    assert line == CommentLine(" +optional", Position("a/b.go", 12, 4))
    elem = type_expr("ident", "string", name="string")
    assert elem == TypeExpr("ident", "string", name="string")
    slice_ = type_expr("slice", "[]string", elem=elem)
    assert slice_ == TypeExpr("slice", "[]string", elem=TypeExpr("ident", "string", name="string"))
    assert slice_.key is None and slice_.fields == () and slice_.length == ""
    tag = JSONTag(present=True, name="x")
    args = ("X", slice_, False, 'json:"x"', (("json", "x"),), tag, None, None, pos)
    built = field_decl(*args)
    assert built == FieldDecl(*args)
    assert repr(built) == repr(FieldDecl(*args))
    assert built.tag("json") == "x"
    for record in (pos, line, slice_, built):
        assert not hasattr(record, "__dict__")  # slotted
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, dataclasses.fields(record)[0].name, "changed")


def test_fields_with_the_same_json_tag_each_read_it_right() -> None:
    parser = GoParser()
    first = parser.parse(
        "a.go",
        b'package p\n\ntype A struct {\n\tX int `json:"x,omitempty"`\n'
        b'\tY int `json:"x,omitempty" protobuf:"varint,2"`\n\tZ int `json:"-"`\n}\n',
    )
    second = parser.parse(
        "b.go",
        b'package p\n\ntype B struct {\n\tX int `json:"x,omitempty"`\n\tW int `yaml:"w"`\n'
        b'\tV int `json:"v"`\n}\n',
    )
    a = {f.name: f for f in first.types[0].type.fields}
    b = {f.name: f for f in second.types[0].type.fields}
    expected = JSONTag(present=True, name="x", omitempty=True, options=("omitempty",))
    assert a["X"].json == a["Y"].json == b["X"].json == expected
    assert a["Y"].tags == (("json", "x,omitempty"), ("protobuf", "varint,2"))
    assert a["Z"].json == JSONTag(present=True, skip=True)
    assert b["W"].json == JSONTag() and b["W"].tag("yaml") == "w"
    assert b["V"].json == JSONTag(present=True, name="v")


PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4)
    | st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(PLAIN, st.integers(min_value=0, max_value=3))
def test_pyliteral_matches_the_general_writer(value: object, level: int) -> None:
    text = render.pyliteral(value, 4, level)
    assert text == render._py(value, 4, level)
    plain = ast.literal_eval(text)
    assert plain == _lists(value)


def _lists(value: object) -> object:
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    return value


def test_pyliteral_hands_unusual_values_to_the_general_writer() -> None:
    class Name(str):
        pass

    assert render.pyliteral({"a": [Name("x"), 1.5]}) == render._py({"a": [Name("x"), 1.5]}, 4, 0)
    with pytest.raises(TypeError, match="dict key 1 is not a string"):
        render.pyliteral({"a": {1: "x"}})
    with pytest.raises(ValueError, match="has no Python literal"):
        render.pyliteral([float("inf")])


@pytest.mark.parametrize(
    ("raw", "prepared"),
    [
        (b"package p\r\n// a\r\n", b"package p\n// a\n"),
        (b"package p\r// lone\r\n", b"package p\r// lone\n"),
        (b"package p\r", b"package p\r"),
        (b"\xef\xbb\xbfpackage p\n", b"package p\n"),
    ],
)
def test_prepare_line_ends(raw: bytes, prepared: bytes) -> None:
    assert prepare("x.go", raw) == prepared
