"""The tree-sitter Go front end on real Go files."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from markergen.golang.literals import unquote
from markergen.golang.parser import DecodeError, GoParser
from markergen.golang.source import prepare
from markergen.golang.syntax import (
    CommentGroup,
    CommentLine,
    FieldDecl,
    GoFile,
    JSONTag,
    Position,
    TypeDecl,
    TypeExpr,
    comment_line,
    field_decl,
    position,
)
from markergen.golang.tags import _JSON_NAME_PUNCT, _valid_json_name, json_tag, parse_struct_tag

ROOT = Path(__file__).resolve().parent.parent
KEP = ROOT / "testdata" / "kep"
GOLANG = ROOT / "testdata" / "golang" / "mod"


def load(path: Path) -> GoFile:
    return GoParser().parse(path.relative_to(ROOT).as_posix(), path.read_bytes())


def typ(f: GoFile, name: str) -> TypeDecl:
    matches = [t for t in f.types if t.name == name]
    assert len(matches) == 1, f"{name}: {[t.name for t in f.types]}"
    return matches[0]


def field(t: TypeDecl, name: str) -> FieldDecl:
    matches = [x for x in t.type.fields if x.name == name]
    assert len(matches) == 1, f"{name}: {[x.name for x in t.type.fields]}"
    return matches[0]


def texts(group: CommentGroup | None) -> list[str]:
    return [] if group is None else [line.text for line in group.lines]


def stripped(group: CommentGroup | None) -> list[str]:
    return [t.strip() for t in texts(group)]


# --------------------------------------------------------------------------- the 2019 KEP


def test_kep000_go_tags_example() -> None:
    """The 2019 KEP "Go tags": TopLevelUnion, Union (+union), Union2, InlinedUnion."""
    f = load(KEP / "kep000" / "types.go")
    assert f.package == "kep000"
    assert [t.name for t in f.types] == ["TopLevelUnion", "Union", "Union2", "InlinedUnion"]
    assert f.errors == ()

    top = typ(f, "TopLevelUnion")
    assert stripped(top.doc) == ["This will have one embedded union."]
    name, union = top.type.fields
    assert (name.name, name.json.name, name.embedded) == ("Name", "name", False)
    assert (union.name, union.embedded, union.json.inline, union.json.name) == (
        "Union",
        True,
        True,
        "",
    )
    assert union.type.kind == "ident" and union.type.name == "Union"

    u = typ(f, "Union")
    assert stripped(u.doc) == [
        "This will generate one union, with two fields and a discriminator.",
        "+union",
    ]
    assert u.type.kind == "struct"
    assert [x.name for x in u.type.fields] == ["UnionType", "FieldA", "FieldB"]
    assert stripped(field(u, "UnionType").doc) == ["+unionDiscriminator", "+optional"]
    assert field(u, "UnionType").json.name == "unionType"
    # FieldB's comment is indented with four spaces in the KEP: the text after `//`
    # starts at column 4 + 2 + 1.
    fb = field(u, "FieldB")
    assert fb.doc is not None and fb.doc.lines[0].pos.column == 7
    assert texts(fb.doc) == [" +optional"]
    assert fb.json.name == "fieldB" and not fb.json.omitempty

    u2 = typ(f, "Union2")
    assert stripped(field(u2, "Alpha").doc) == ["+unionDeprecated", "+optional"]
    assert stripped(field(u2, "Type").doc) == ["+unionDiscriminator"]

    inl = typ(f, "InlinedUnion")
    assert [x.name for x in inl.type.fields] == ["Name", "Field1", "Field2", "Union", "Union2"]
    f1 = field(inl, "Field1")
    assert f1.type.kind == "pointer" and f1.type.elem is not None
    assert f1.type.elem.name == "int"
    assert (f1.json.name, f1.json.omitempty) == ("field1", True)
    assert all(field(inl, n).embedded and field(inl, n).json.inline for n in ("Union", "Union2"))
    assert stripped(inl.doc)[0] == "This has 3 embedded unions:"


def test_kep001_go_tags_example() -> None:
    """The 2022 draft "Go tags": the fixed example keeps every marker line in place."""
    f = load(KEP / "kep001" / "types.go")
    assert f.errors == ()
    u = typ(f, "Union")
    # `// +unionMember` is indented with spaces in the KEP; it is still FieldA's doc.
    assert stripped(field(u, "FieldA").doc) == ["+optional", "+unionMember"]
    assert stripped(field(u, "FieldB").doc) == ["+optional"]
    u2 = typ(f, "Union2")
    assert stripped(field(u2, "Type").doc) == ["+unionDiscriminator", "+required"]
    assert stripped(field(u2, "Beta").doc) == ["+unionMember=type", "+optional"]
    inl = typ(f, "InlinedUnion")
    assert [x.name for x in inl.type.fields] == [
        "Name",
        "FieldType",
        "Field1",
        "Field2",
        "Union",
        "Union2",
    ]
    assert stripped(field(inl, "FieldType").doc) == ["+unionDiscriminator", "+optional"]
    assert stripped(field(inl, "Field2").doc) == ["+unionMember=fieldType", "+optional"]
    # The note explaining the fix is one blank line away: not part of the field's doc.
    union = field(inl, "Union")
    assert stripped(union.doc) == [
        "Union does not label its members, so it",
        "cannot be inlined",
    ]
    assert (union.embedded, union.json.name, union.type.name) == (False, "union", "Union")
    assert field(inl, "Union2").embedded


def test_kep004_basic_example() -> None:
    """The current KEP "Examples", first example: fields without json tags."""
    f = load(KEP / "kep004basic" / "types.go")
    ut = typ(f, "UnionType")
    assert stripped(ut.doc) == ["+enum"]
    assert ut.type.kind == "ident" and ut.type.name == "string" and not ut.alias
    assert [(c.name, c.value) for c in f.consts] == [
        ("FieldA", "FieldA"),
        ("FieldB", "FieldB"),
        ("FieldC", "FieldC"),
        ("FieldD", "FieldD"),
        ("FieldNone", ""),
    ]
    assert all(c.type is not None and c.type.name == "UnionType" for c in f.consts)
    assert [c.iota for c in f.consts] == [0, 1, 2, 3, 4]
    u = typ(f, "Union")
    assert u.doc is None
    disc = field(u, "UnionType")
    assert disc.type.name == "UnionType" and not disc.json.present and disc.tag_raw == ""
    assert stripped(disc.doc) == ["+unionDiscriminator", "+required"]
    assert stripped(field(u, "FieldB").doc) == ["+unionMember", "+optional"]


def test_kep004_inline_example_keeps_untyped_beta() -> None:
    """The current KEP "Examples", second example: `Beta = "BETA"` is untyped in Go."""
    f = load(KEP / "kep004inline" / "types.go")
    assert [t.name for t in f.types] == [
        "TopLevelUnion",
        "UnionType",
        "Union",
        "Union2Type",
        "Union2",
    ]
    consts = {c.name: c for c in f.consts}
    alpha, beta = consts["Alpha"], consts["Beta"]
    assert alpha.type is not None and alpha.type.name == "Union2Type"
    assert alpha.value == "ALPHA"
    assert beta.type is None and beta.value == "BETA" and not beta.implicit
    assert beta.block_pos == alpha.block_pos
    u2 = typ(f, "Union2")
    assert stripped(u2.doc) == [
        "This generates a union where the unionMember markers demonstrate how to",
        "customize the names used for each field in the discriminator.",
    ]
    t2 = field(u2, "Type2")
    assert t2.json.name == "type" and t2.type.name == "Union2Type"
    assert stripped(field(u2, "Alpha").doc) == ["+unionMember=ALPHA", "+optional"]
    assert stripped(field(u2, "Beta").doc) == ["+unionMember=BETA,optional", "+optional"]
    assert stripped(field(typ(f, "Union"), "FieldB").doc) == ["+unionMember,optional", "+optional"]


def test_kep004_openapi_example() -> None:
    """The current KEP "OpenAPI": the added Union1Type declaration and +unionDiscriminatedBy."""
    f = load(KEP / "kep004openapi" / "types.go")
    t = typ(f, "Union1Type")
    assert stripped(t.doc) == ["+enum"]
    # The note about the added declaration is in the package doc, not above the type.
    assert t.doc_extra is None
    u = typ(f, "Union")
    assert [x.name for x in u.type.fields] == ["Union1", "FieldA", "FieldB"]
    assert field(u, "Union1").json.name == "union1"
    assert stripped(field(u, "FieldA").doc) == [
        "+unionMember",
        "+unionDiscriminatedBy=Union1",
        "+optional",
    ]
    assert {c.name for c in f.consts} == {"FieldA", "FieldB", "FieldC", "FieldD", "FieldNone"}


# ---------------------------------------------------------------------------- markers


def test_every_marker_form_arrives_as_comment_text() -> None:
    """The marker forms: each line reaches the marker grammar verbatim."""
    f = load(GOLANG / "markers" / "markers.go")
    assert "+groupName=markers.example.com" in stripped(f.package_doc)
    strategy = typ(f, "Strategy")
    assert stripped(field(strategy, "RollingUpdate").doc) == [
        "+unionMember",
        "+unionMember=RollingUpdate",
        "+unionMember=RollingUpdate,optional",
        "+unionMember,optional",
        "+unionDiscriminatedBy=Type",
        "+optional",
        "+k8s:optional",
        '+k8s:unionMember(union: "u", memberName: "RollingUpdate")',
        '+k8s:alpha(since: "1.37")=+k8s:unionMember',
        "+k8s:beta=+k8s:required",
        "+k8s:ifEnabled(FeatureX)=+k8s:unionMember",
        "+k8s:item(positional)=payload",
        "+a:b:c=value",
        "+kubebuilder:validation:Optional",
    ]
    assert '+kubebuilder:validation:Enum=RollingUpdate;Recreate;""' in stripped(
        typ(f, "StrategyType").doc
    )
    # A `+` in the middle of a line stays in the text; telling markers apart is not
    # the front end's job, but the text must be intact.
    assert any("(like this +notAMarker)" in t for t in texts(strategy.doc))
    legacy = field(strategy, "Legacy")
    assert texts(legacy.trailing) == [" +optional"]
    assert stripped(legacy.doc)[1:] == ["+unionDescriminator", "+unionmember", "+Enum"]
    items = field(strategy, "Items")
    assert items.tag("patchStrategy") == "merge" and items.tag("patchMergeKey") == "name"


def test_doc_extra_is_the_group_one_blank_line_above() -> None:
    f = load(GOLANG / "markers" / "markers.go")
    st_type = typ(f, "StrategyType")
    assert stripped(st_type.doc_extra)[-1] == "+kubebuilder:object:root=true"
    assert stripped(st_type.doc)[0] == "StrategyType is the discriminator's enum."
    # Strategy's doc is preceded by the const block, not by a comment group.
    assert typ(f, "Strategy").doc_extra is None


def test_marker_column_is_position_after_slashes() -> None:
    f = load(GOLANG / "markers" / "markers.go")
    line = field(typ(f, "Strategy"), "Type").doc.lines[1]  # type: ignore[union-attr]
    assert line.text == " +unionDiscriminator"
    source_line = (GOLANG / "markers" / "markers.go").read_text().splitlines()[line.pos.line - 1]
    assert source_line == "\t// +unionDiscriminator"
    # tab (column 1), `//` (2-3): the text starts at column 4.
    assert line.pos.column == 4


# ----------------------------------------------------------------------------- consts


def test_const_implicit_repetition_iota_and_untyped() -> None:
    f = load(GOLANG / "consts" / "consts.go")
    c = {x.name: x for x in f.consts if x.name != "_"}
    pending = c["Pending"]
    assert pending.type is not None and pending.type.name == "Phase"
    assert (pending.value, pending.iota, pending.implicit) == ("Pending", 0, False)
    assert stripped(pending.doc) == ["A single typed constant outside a block."]
    assert pending.block_pos.line == pending.pos.line and pending.block_pos.column == 1
    assert c["Version"].type is None and c["Version"].value == "v1"

    done = c["Done"]
    assert done.implicit and done.type is not None and done.type.name == "Phase"
    assert (done.value, done.value_text, done.iota) == ("Running", '"Running"', 1)
    assert stripped(done.doc) == [
        "Done repeats Running's type and value (Go's implicit repetition)."
    ]
    assert texts(c["Failed"].trailing) == [" trailing comment"]
    assert c["Failed"].doc is None
    assert c["Unknown"].type is None and c["Unknown"].value == "Unknown"
    assert c["Running"].block_pos == c["Unknown"].block_pos != pending.block_pos

    levels = [x for x in f.consts if x.block_pos == c["Low"].block_pos]
    assert [(x.name, x.iota, x.implicit, x.value_text) for x in levels] == [
        ("Low", 0, False, "iota"),
        ("Medium", 1, True, "iota"),
        ("High", 2, True, "iota"),
        ("_", 3, True, "iota"),
        ("Max", 4, True, "iota"),
    ]
    assert all(x.value is None and x.type is not None and x.type.name == "Level" for x in levels)

    pairs = [
        (x.name, x.value, x.iota, x.implicit)
        for x in f.consts
        if x.name in ("First", "Second", "Third", "Fourth")
    ]
    assert pairs == [
        ("First", "first", 0, False),
        ("Second", "second", 0, False),
        ("Third", "first", 1, True),
        ("Fourth", "second", 1, True),
    ]
    assert c["Second"].pos.line == c["First"].pos.line
    assert c["Second"].pos.column > c["First"].pos.column


def test_string_literal_values_are_decoded() -> None:
    f = load(GOLANG / "consts" / "consts.go")
    v = {x.name: x.value for x in f.consts}
    assert v["Quote"] == 'a"b'
    assert v["Newline"] == "line\nbreak"
    assert v["Unicode"] == "café"
    assert v["Hex"] == "ABC"
    assert v["Octal"] == "ABC"
    assert v["BigU"] == "\U0001f600"
    assert v["Raw"] == 'raw\\n "quoted"'
    assert v["NotString"] is None
    assert {x.name: x.value_text for x in f.consts}["NotString"] == "1 << 3"


# ------------------------------------------------------------------------------ types


def test_imports_use_alias_or_last_element() -> None:
    f = load(GOLANG / "types" / "types.go")
    assert [(i.name, i.path, i.explicit_alias) for i in f.imports] == [
        ("json", "encoding/json", False),
        ("metav1", "k8s.io/apimachinery/pkg/apis/meta/v1", True),
        ("_", "embed", True),
        (".", "strings", True),
    ]
    assert f.import_path("metav1") == "k8s.io/apimachinery/pkg/apis/meta/v1"


def test_embedded_fields_and_inline() -> None:
    f = load(GOLANG / "types" / "types.go")
    h = typ(f, "Holder")
    assert [(x.name, x.embedded) for x in h.type.fields] == [
        ("TypeMeta", True),
        ("ObjectMeta", True),
        ("Target", True),
        ("Target2", True),
        ("A", False),
        ("B", False),
    ]
    tm = field(h, "TypeMeta")
    assert (tm.type.kind, tm.type.package, tm.json.inline) == ("qualified", "metav1", True)
    om = field(h, "ObjectMeta")
    assert om.type.kind == "pointer" and om.type.text == "*metav1.ObjectMeta"
    assert om.type.elem is not None and om.type.elem.package == "metav1"
    assert not om.json.present
    target = field(h, "Target")
    assert target.type.kind == "pointer" and target.json.inline and target.json.name == ""
    assert target.type.elem is not None and target.type.elem.kind == "ident"
    assert target.pos.column == 2  # the `*` after the tab
    a, b = field(h, "A"), field(h, "B")
    assert a.doc == b.doc and stripped(a.doc) == ["Named has two names in one declaration."]
    assert a.json.name == b.json.name == "a"
    assert a.pos.line == b.pos.line and (a.pos.column, b.pos.column) == (2, 5)


def test_aliases_and_grouped_types() -> None:
    f = load(GOLANG / "types" / "types.go")
    name = typ(f, "Name")
    assert name.alias and name.type.name == "string"
    assert stripped(name.doc) == ["Name is an alias."]
    g1 = typ(f, "Grouped1")
    assert stripped(g1.doc) == ["Grouped1 has its own doc."] and not g1.alias
    g2 = typ(f, "Grouped2")
    assert g2.alias and g2.type.name == "Grouped1"
    # Its trailing comment is not a doc comment, nor is the group's doc (two specs).
    assert g2.doc is None
    lone = typ(f, "Lone")
    assert stripped(lone.doc) == ["LoneGroupDoc is the doc of a group of one spec."]
    lst = typ(f, "List")
    assert lst.type_params == "[T any]" and lst.type.kind == "struct"


def test_type_expression_kinds() -> None:
    f = load(GOLANG / "types" / "types.go")
    e = typ(f, "Exprs")
    kinds = {x.name: x.type.kind for x in e.type.fields}
    assert kinds == {
        "Ident": "ident",
        "Qual": "qualified",
        "Ptr": "pointer",
        "Slice": "slice",
        "Array": "array",
        "Map": "map",
        "Inline": "struct",
        "Iface": "interface",
        "Fn": "func",
        "Ch": "chan",
        "Gen": "generic",
        "GenQual": "qualified",
        "Paren": "ident",
        "Raw": "qualified",
        "Bad": "ident",
        "Quoted": "ident",
    }
    sl = field(e, "Slice").type
    assert sl.elem is not None and sl.elem.kind == "pointer"
    assert sl.elem.elem is not None and sl.elem.elem.name == "Target"
    arr = field(e, "Array").type
    assert arr.length == "4" and arr.elem is not None and arr.elem.name == "byte"
    m = field(e, "Map").type
    assert m.key is not None and m.key.name == "string"
    assert m.elem is not None and m.elem.kind == "slice"
    assert m.elem.elem is not None and (m.elem.elem.package, m.elem.elem.name) == ("metav1", "Time")
    inline = field(e, "Inline").type
    assert [x.name for x in inline.fields] == ["X", "Y"]
    gen = field(e, "Gen").type
    assert (gen.name, gen.text) == ("List", "List[string]")
    ch = field(e, "Ch").type
    assert ch.elem is not None and ch.elem.name == "int"
    assert field(e, "Paren").type.name == "int"


def test_json_tags_as_encoding_json_reads_them() -> None:
    f = load(GOLANG / "types" / "types.go")
    e = typ(f, "Exprs")
    assert field(e, "Iface").json.skip
    fn = field(e, "Fn").json  # `json:"-,"` names the field "-"
    assert (fn.skip, fn.name) == (False, "-")
    ch = field(e, "Ch").json
    assert ch.string and ch.name == "ch"
    raw = field(e, "Raw").json
    assert raw.options == ("omitempty", "inline") and raw.omitempty and raw.inline
    bad = field(e, "Bad").json  # not a valid json name: encoding/json uses the Go name
    assert (bad.name, bad.omitempty) == ("", True)
    quoted = field(e, "Quoted")
    assert quoted.tag_raw == 'json:"quoted" yaml:"q"'
    assert quoted.tags == (("json", "quoted"), ("yaml", "q"))


def test_tags_with_odd_spacing() -> None:
    f = load(GOLANG / "types" / "types.go")
    t = typ(f, "Tags")
    assert field(t, "Spaces").tags == (
        ("json", "spaces,omitempty"),
        ("protobuf", "varint,1,opt,name=spaces"),
    )
    assert field(t, "Tabs").tags == (("json", "tabs"), ("patchStrategy", "retainKeys"))
    assert field(t, "Broken").tags == (("json", "ok"),)
    empty = field(t, "Empty").json
    assert empty.present and empty.name == ""
    none = field(t, "None")
    assert none.tag_raw == "" and none.tags == () and not none.json.present
    dup = field(t, "Dup")
    assert dup.json.name == "first" and dup.tag("json") == "first" and len(dup.tags) == 2


def test_columns_count_characters_after_non_ascii() -> None:
    f = load(GOLANG / "types" / "types.go")
    g = typ(f, "Größe")
    assert g.pos.column == 6  # after "type "
    wert = field(g, "Wert")
    assert wert.json.name == "wért"
    assert wert.trailing is not None
    line = wert.trailing.lines[0]
    src = (GOLANG / "types" / "types.go").read_text(encoding="utf-8").splitlines()
    text_line = src[line.pos.line - 1]
    assert text_line.index("// +optional after") + 3 == line.pos.column == 30
    assert line.text == " +optional after non-ASCII"


def test_block_comment_gives_one_line_each() -> None:
    f = load(GOLANG / "types" / "types.go")
    other = field(typ(f, "Größe"), "Other")
    assert other.doc is not None
    assert [(ln.text, ln.pos.line) for ln in other.doc.lines] == [
        (" block", other.pos.line - 2),
        ("\t   +inBlock ", other.pos.line - 1),
    ]
    assert other.doc.lines[1].pos.column == 1


def test_doc_and_trailing_placement() -> None:
    f = load(GOLANG / "types" / "types.go")
    p = typ(f, "Placement")
    x, y, z = (field(p, n) for n in "XYZ")
    assert x.doc is None and texts(x.trailing) == [" X's trailing comment"]
    assert texts(y.doc) == [" Y's doc"] and y.trailing is None
    assert z.doc is None


# ------------------------------------------------------------------ decoding, errors


def test_crlf_and_bom_files_give_the_same_records_as_lf() -> None:
    base = GOLANG / "lineendings"
    lf_bytes = (base / "lf" / "types.go").read_bytes()
    crlf_bytes = (base / "crlf" / "types.go").read_bytes()
    bom_bytes = (base / "bom" / "types.go").read_bytes()
    # The test data really has the bytes it claims (git must not have converted them).
    assert b"\r\n" not in lf_bytes and crlf_bytes == lf_bytes.replace(b"\n", b"\r\n")
    assert bom_bytes == b"\xef\xbb\xbf" + lf_bytes
    parser = GoParser()
    lf = parser.parse("types.go", lf_bytes)
    assert lf.types and lf.consts and lf.errors == ()
    assert parser.parse("types.go", crlf_bytes) == lf
    assert parser.parse("types.go", bom_bytes) == lf
    spec = typ(lf, "Spec")
    assert stripped(spec.doc) == ["Spec has a block comment", "+k8s:required", ""]
    assert texts(field(spec, "Value").trailing) == [" +optional"]


def test_invalid_utf8_raises_decode_error_with_position() -> None:
    data = (GOLANG / "badenc" / "latin1.go").read_bytes()
    with pytest.raises(DecodeError) as info:
        GoParser().parse("latin1.go", data)
    err = info.value
    assert err.path == "latin1.go" and err.line == 1
    # The first bad byte is the ö of "Größe" (Latin-1 0xf6).
    assert err.column == data.split(b"\n")[0].index(b"\xf6") + 1
    assert "UTF-8" in err.message and str(err).startswith("latin1.go:1:")


def test_syntax_error_keeps_other_declarations() -> None:
    f = load(GOLANG / "broken" / "broken.go")
    assert [t.name for t in f.types] == ["Before", "Broken", "After"]
    assert [x.name for x in typ(f, "Before").type.fields] == ["Name"]
    assert stripped(typ(f, "After").doc) == ["After is read too.", "+enum"]
    assert [c.name for c in f.consts] == ["AfterA"]
    # `B map[string` is the broken line: no made-up embedded field `B`.
    assert [x.name for x in typ(f, "Broken").type.fields] == ["A"]
    assert len(f.errors) >= 1
    err = f.errors[0]
    src = (GOLANG / "broken" / "broken.go").read_text().splitlines()
    assert src[err.pos.line - 1] == "\tB map[string"
    assert err.message.startswith("syntax error")
    assert err.end >= err.pos and err.pos.file == f.path


def test_an_error_inside_a_function_is_not_reported() -> None:
    # markergen never reads function bodies: a region tree-sitter cannot parse there
    # (a missing `)` here; Go 1.26's `new(expr)` in real code) changes no output.
    f = GoParser().parse("m.go", b"package m\n\nfunc f( {\n}\n\ntype T int\n")
    assert [t.name for t in f.types] == ["T"]
    assert f.errors == ()


def test_an_error_inside_a_type_declaration_names_it() -> None:
    f = GoParser().parse("m.go", b"package m\n\ntype T func(int\n\ntype U int\n")
    assert [t.name for t in f.types] == ["U"]
    assert [(e.pos.line, e.message) for e in f.errors] == [
        (3, "syntax error: cannot parse `type T func(int` in type T; markergen cannot read it")
    ]


def test_unexpected_token_message() -> None:
    f = GoParser().parse("u.go", b"package u\n\ntype A struct {\n\tX int\n\tY [\n}\n\ntype B int\n")
    assert [t.name for t in f.types] == ["A", "B"]
    assert [(e.pos.line, e.pos.column, e.message) for e in f.errors] == [
        (5, 4, "syntax error: unexpected `[` in type A; markergen cannot read it")
    ]


def test_file_header_generated_and_build_constraints() -> None:
    gen = load(GOLANG / "filters" / "zz_generated.deepcopy.go")
    assert gen.generated and gen.build_constraint == "!ignore_autogenerated"
    assert load(GOLANG / "filters" / "tools.go").build_constraint == "ignore"
    assert load(GOLANG / "filters" / "oldtools.go").build_constraint == "ignore"
    plain = load(GOLANG / "filters" / "api.go")
    assert not plain.generated and plain.build_constraint == ""
    # The header only counts before the package clause.
    late = GoParser().parse(
        "l.go", b"package l\n\n// Code generated by x. DO NOT EDIT.\ntype T int\n"
    )
    assert not late.generated
    old = GoParser().parse(
        "o.go", b"// +build linux,386 darwin,!cgo\n// +build go1.1\n\npackage o\n"
    )
    assert old.build_constraint == "((linux && 386) || (darwin && !cgo)) && go1.1"


def test_file_without_package_clause() -> None:
    f = GoParser().parse("np.go", b"type A int\n")
    assert f.package == "" and [t.name for t in f.types] == ["A"]


def test_function_bodies_are_not_walked() -> None:
    src = b"package f\n\nfunc g() {\n\ttype Local struct{}\n\tconst c = 1\n}\n\ntype T int\n"
    f = GoParser().parse("f.go", src)
    assert [t.name for t in f.types] == ["T"] and f.consts == ()


# ------------------------------------------------------------------ literals and tags


@pytest.mark.parametrize(
    "literal",
    ['"\\q"', '"\\x4"', '"\\400"', '"\\uD800"', '"a', '"a"b"', '"\\U00110000"', "'a'"],
)
def test_unquote_rejects_what_go_rejects(literal: str) -> None:
    with pytest.raises(ValueError):
        unquote(literal)


def _go_quote(s: str) -> str:
    out = []
    for ch in s:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(ch)
        elif ord(ch) > 0xFFFF:
            out.append(f"\\U{ord(ch):08x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    return '"' + "".join(out) + '"'


@given(st.text(alphabet=st.characters(codec="utf-8")))
def test_unquote_round_trips_go_quoted_text(s: str) -> None:
    assert unquote(_go_quote(s)) == s


def test_struct_tag_stops_at_first_malformed_pair() -> None:
    assert parse_struct_tag('json:"a" x y:"b"') == (("json", "a"),)
    assert parse_struct_tag('json:"a\\"b"') == (("json", 'a"b'),)
    assert parse_struct_tag('json:"unterminated') == ()
    assert parse_struct_tag('  a:"1"  \t b:"2" ') == (("a", "1"), ("b", "2"))


def test_json_tag_rules() -> None:
    assert json_tag((("json", "-"),)).skip
    assert json_tag(()).present is False
    t = json_tag((("yaml", "y"), ("json", "n,omitempty")))
    assert (t.present, t.name, t.omitempty) == (True, "n", True)


def test_comment_followed_by_code_on_its_line_is_no_trailing_comment() -> None:
    """go/parser: `X int /* c */ }` gives X no line comment (code follows on the line)."""
    f = GoParser().parse(
        "c.go",
        b"package c\n\ntype S struct{ X int /* c */ }\n\ntype T struct {\n\tY int /* y */\n}\n",
    )
    assert field(typ(f, "S"), "X").trailing is None
    assert texts(field(typ(f, "T"), "Y").trailing) == [" y "]


def test_new_go_syntax_outside_read_declarations_checks_clean(tmp_path: Path) -> None:
    """Go 1.21-1.26 syntax in function bodies and package-level vars (`new(expr)`,
    range over func and int, generic type aliases, min/max/clear) is valid Go: no
    diagnostic, exit 0, and the union beside it is read."""

    from helpers import run_cli

    root = ROOT / "testdata" / "golang" / "newsyntax"
    res = run_cli(["check", "--format", "json", "./..."], root)
    assert (res.code, json.loads(res.stdout)) == (0, [])
    dump = json.loads(run_cli(["dump", "./..."], root).stdout)
    assert "example.com/newsyntax/api/v1.Endpoint" in dump["structs"]
    # tree-sitter-go does fail on this file (else the test would prove nothing), and
    # markergen leaves those regions alone.
    import tree_sitter_go
    from tree_sitter import Language, Parser

    source = (root / "api" / "v1" / "types.go").read_bytes()
    assert Parser(Language(tree_sitter_go.language())).parse(source).root_node.has_error
    assert GoParser().parse("types.go", source).errors == ()


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
    f = GoParser().parse("t.go", (text + suffix).encode())
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


LICENSE = b"/*\nCopyright The Kubernetes Authors.\n\nLicensed under the Apache License.\n*/\n\n"


def _reflect_tags(tag: str) -> tuple[tuple[str, str], ...]:
    """The character-by-character reader the regex replaced (the oracle)."""
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


TAG_ALPHABET = st.sampled_from(
    ["json", ":", '"', "\\", " ", "\t", "a", ",", "omitempty", "-", "\x7f", "\n", "é", "x"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(TAG_ALPHABET, max_size=24).map("".join))
def test_struct_tags_read_as_before(tag: str) -> None:
    assert parse_struct_tag(tag) == _reflect_tags(tag)


def test_struct_tags_examples() -> None:
    tag = 'json:"name,omitempty" protobuf:"bytes,1,opt,name=name"\tpatchStrategy:"merge"'
    assert parse_struct_tag(tag) == (
        ("json", "name,omitempty"),
        ("protobuf", "bytes,1,opt,name=name"),
        ("patchStrategy", "merge"),
    )
    assert parse_struct_tag('json:"a\\"b" bad x:"y"') == (("json", 'a"b'),)


def test_columns_count_characters_in_files_with_and_without_non_ascii_text() -> None:
    # The ASCII fast path (byte column = character column) and the decoding path agree.
    for comment in ("e", "é", "日本"):
        src = f"package p\n\n// {comment}\ntype T struct {{\n\t/* {comment} */ A int\n}}\n"
        (decl,) = GoParser().parse("x.go", src.encode()).types
        (field,) = decl.type.fields
        assert (field.pos.line, field.pos.column) == (5, 9 + len(comment))
        assert decl.doc is not None and decl.doc.lines[0].text == f" {comment}"


IMPORTED = b"""package v1

import "k8s.io/apimachinery/pkg/types"

// Protocol defines network protocols.
// +enum
type Protocol string

const (
	// TCP is the TCP protocol.
	ProtocolTCP Protocol = "TCP"
	ProtocolUDP Protocol = "UDP"
)

type (
	// UID is an alias.
	UID = types.UID
	// Port is a port.
	Port struct {
		// +optional
		Protocol Protocol `json:"protocol,omitempty"`
		Inner struct{ X int }
	}
)

// Pod has fields.
type Pod struct {
	Name string `json:"name"`
}
"""


def test_imported_files_are_read_without_struct_fields_and_otherwise_alike() -> None:
    """Files of imported packages are read with struct_fields=False: only constants and
    non-struct type declarations are used there, and everything else must equal the
    full reading (the struct types keep their kind and text, with no fields)."""

    from markergen.golang.parser import GoParser

    parser = GoParser()
    full = parser.parse_prepared("v1/types.go", IMPORTED)
    shallow = parser.parse_prepared("v1/types.go", IMPORTED, struct_fields=False)
    assert [t.name for t in full.types] == ["Protocol", "UID", "Port", "Pod"]
    assert all(t.type.fields for t in full.types if t.type.kind == "struct")
    assert all(not t.type.fields for t in shallow.types)
    fieldless = tuple(
        replace(t, type=replace(t.type, fields=())) if t.type.kind == "struct" else t
        for t in full.types
    )
    assert shallow == replace(full, types=fieldless)


SWAGGER = (
    LICENSE
    + b"""// Package v1 is a test.
// +groupName=example.com
package v1

import "fmt"

// This file contains a collection of methods that can be used from go-restful.
//
// AUTO-GENERATED FUNCTIONS START HERE. DO NOT EDIT.
var map_Pod = map[string]string{
	"":     "Pod is a pod. The type of \\"it\\" is \xc3\xa9t\xc3\xa9 \\u00e9.",
	"spec": "Spec: see https://example.com/a+b",
}

func (Pod) SwaggerDoc() map[string]string {
	return map_Pod
}

var map_PodList = map[string]string{
	"": "PodList is a list.",
}

func (PodList) SwaggerDoc() map[string]string {
	return map_PodList
}

// AUTO-GENERATED FUNCTIONS END HERE
"""
)


def _full_reading(data: bytes) -> object:
    import tree_sitter_go
    from tree_sitter import Language, Parser

    from markergen.golang.parser import _FileReader
    from markergen.golang.source import Source

    tree = Parser(Language(tree_sitter_go.language())).parse(data)
    return _FileReader(Source("v1/x.go", data), {}).read(tree.root_node)


def test_swagger_doc_declarations_are_not_parsed_and_the_record_is_the_same() -> None:
    from markergen.golang.header import doc_tail

    cut = doc_tail(SWAGGER)
    assert cut is not None and SWAGGER[cut:].startswith(b"var map_Pod ")
    got = GoParser().parse("v1/x.go", SWAGGER)
    assert got == _full_reading(SWAGGER)
    assert got.package == "v1" and [i.path for i in got.imports] == ["fmt"]
    assert any(
        "+groupName=example.com" in line.text for g in (got.package_doc,) if g for line in g.lines
    )


# Each of these changes makes the tail hold something markergen reads (or may read):
# the file must be parsed whole, with the record the parser gives.
NOT_A_DOC_TAIL = [
    (
        b"// AUTO-GENERATED FUNCTIONS END HERE\n",
        b"// +k8s:enum\n// AUTO-GENERATED FUNCTIONS END HERE\n",
    ),
    (
        b"// AUTO-GENERATED FUNCTIONS END HERE\n",
        b"// AUTO-GENERATED FUNCTIONS END HERE\n\ntype T string\n",
    ),
    (
        b"// AUTO-GENERATED FUNCTIONS END HERE\n",
        b"// AUTO-GENERATED FUNCTIONS END HERE\n\nconst C = 1\n",
    ),
    (b"var map_PodList =", b"// +optional\nvar map_PodList ="),  # MG005: a marker on a var
    (b"func (PodList)", b"// +genclient\nfunc (PodList)"),  # MG005: a marker on a func
    (b"func (PodList) SwaggerDoc()", b"func (PodList) MarshalJSON()"),
    (b'"spec": "Spec', b'"spec": "\\q Spec'),  # an escape Go rejects
    (b'"spec": "Spec', b'"spec": "Sp\nec'),  # a string cut by a newline
    (b"\tspec", b"\tspec"),  # unchanged: control
    (b"}\n\nfunc (Pod)", b"\nfunc (Pod)"),  # a map left open
    (b"// AUTO-GENERATED FUNCTIONS END HERE\n", b"// AUTO-GENERATED FUNCTIONS END HERE\r\n"),
]


def test_a_tail_with_anything_markergen_reads_is_parsed() -> None:
    from markergen.golang.header import doc_tail

    for old, new in NOT_A_DOC_TAIL:
        data = SWAGGER.replace(old, new)
        if data == SWAGGER:
            assert doc_tail(data) is not None
            continue
        assert old in SWAGGER
        assert doc_tail(data) is None, new
        assert GoParser().parse("v1/x.go", data) == _full_reading(data)
    with_marker = GoParser().parse(
        "v1/x.go", SWAGGER.replace(b"func (PodList)", b"// +genclient\nfunc (PodList)")
    )
    assert [m.name for m in with_marker.marked] == ["PodList.SwaggerDoc"]
    typed = GoParser().parse("v1/x.go", SWAGGER + b"\ntype T string\n")
    assert [t.name for t in typed.types] == ["T"]


def test_a_head_that_does_not_parse_alone_is_read_whole() -> None:
    """An unterminated block comment before the doc declarations would swallow them in
    the whole file: the head's parse has an error, so the whole file is parsed."""
    data = SWAGGER.replace(b'import "fmt"\n', b'import "fmt"\n/* open\n').replace(
        b"// AUTO-GENERATED FUNCTIONS END HERE\n", b"// */\n"
    )
    from markergen.golang.header import doc_tail

    assert doc_tail(data) is not None
    assert GoParser().parse("v1/x.go", data) == _full_reading(data)


def test_slot_built_records_are_the_constructed_records() -> None:
    pos = position("a/b.go", 300, 7)
    assert pos == Position("a/b.go", 300, 7) and hash(pos) == hash(Position("a/b.go", 300, 7))
    assert pos < Position("a/b.go", 300, 8)
    line = comment_line(" +optional", "a/b.go", 12, 4)
    assert line == CommentLine(" +optional", Position("a/b.go", 12, 4))
    slice_ = TypeExpr("slice", "[]string", elem=TypeExpr("ident", "string", name="string"))
    tag = JSONTag(present=True, name="x")
    args = ("X", slice_, False, 'json:"x"', (("json", "x"),), tag, None, None, pos)
    built = field_decl(*args)
    assert built == FieldDecl(*args)
    assert repr(built) == repr(FieldDecl(*args))
    assert built.tag("json") == "x"
    for record in (pos, line, built):
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
