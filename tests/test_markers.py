"""The marker grammar and registry."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from frontend_records import ROOT, fixture_files
from hypothesis import given, settings
from hypothesis import strategies as st

from markergen.golang.parser import DecodeError, GoParser
from markergen.golang.syntax import (
    BlockCommentLine,
    CommentGroup,
    CommentLine,
    GoFile,
    Position,
)
from markergen.markers import (
    REGISTRY,
    LineCache,
    Marker,
    MarkerDef,
    MarkerError,
    Registry,
    Shape,
    Target,
    default_registry,
    edit_distance,
    parse_group,
    parse_line,
)
from markergen.model.markerread import MarkerReader

POS = Position("api/v1/types.go", 12, 4)


def ok(text: str, pos: Position = POS) -> Marker:
    result = parse_line(text, pos)
    assert isinstance(result, Marker), result
    return result


def err(text: str, pos: Position = POS) -> MarkerError:
    result = parse_line(text, pos)
    assert isinstance(result, MarkerError), result
    return result


# --- not markers -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        " plain prose",
        " a + b is not a marker",
        " see +unionMember below",
        " +",
        " +   ",
        " + optional",
        "\t+\tx",
        " +1 for this",
        " +-5%",
        " +=",
    ],
)
def test_not_a_marker(text: str) -> None:
    assert parse_line(text, POS) is None


# --- the marker forms -------------------------------------------------------------


def test_bare_name() -> None:
    m = ok(" +unionDiscriminator")
    assert (m.name, m.value, m.flags, m.args, m.positional) == (
        "unionDiscriminator",
        None,
        (),
        (),
        (),
    )
    assert m.raw == "+unionDiscriminator"
    assert m.pos == Position("api/v1/types.go", 12, 5)
    assert (m.stage, m.since, m.gate, m.gate_disabled) == ("", "", "", False)


def test_name_value() -> None:
    m = ok(" +unionDiscriminatedBy=Union1")
    assert (m.name, m.value, m.flags) == ("unionDiscriminatedBy", "Union1", ())


def test_name_value_flag() -> None:
    # the current KEP "Go Markers": +unionMember[=<memberName>][,optional]
    m = ok(" +unionMember=BETA,optional")
    assert (m.name, m.value, m.flags) == ("unionMember", "BETA", ("optional",))
    assert m.has_flag("optional")


def test_name_flag_without_value() -> None:
    m = ok(" +unionMember,optional")
    assert (m.name, m.value, m.flags) == ("unionMember", None, ("optional",))


def test_colon_separated_name() -> None:
    m = ok(" +a:b:c=value")
    assert (m.name, m.value, m.flags, m.args) == ("a:b:c", "value", (), ())


def test_enum_list() -> None:
    m = ok(" +kubebuilder:validation:Enum=A;B;C")
    assert m.name == "kubebuilder:validation:Enum"
    assert m.value == "A;B;C"
    assert m.values == ("A", "B", "C")


def test_enum_list_quoted_and_empty_items() -> None:
    m = ok(' +kubebuilder:validation:Enum="";"A;1";B')
    assert m.values == ("", "A;1", "B")


def test_enum_list_brace_form() -> None:
    m = ok(" +kubebuilder:validation:Enum={Always, Never}")
    assert m.values == ("Always", "Never")


def test_named_args() -> None:
    m = ok(' +k8s:name(key: "v", key2: "w")')
    assert m.name == "k8s:name"
    assert m.args == (("key", "v"), ("key2", "w"))
    assert m.positional == ()
    assert m.value is None
    assert m.arg("key2") == "w"
    assert m.arg("missing") is None


def test_positional_arg_and_payload() -> None:
    m = ok(" +k8s:name(positional)=payload")
    assert (m.name, m.positional, m.args, m.value) == ("k8s:name", ("positional",), (), "payload")


def test_mixed_args_and_value_kinds() -> None:
    m = ok(' +k8s:thing(Gate, n: 3, neg: -1.5, b: true, raw: `a "q"`, s: "x\\ty\\u00e9\\x41")')
    assert m.positional == ("Gate",)
    assert m.args == (
        ("n", "3"),
        ("neg", "-1.5"),
        ("b", "true"),
        ("raw", 'a "q"'),
        ("s", "x\tyéA"),
    )


def test_go_string_byte_escapes_form_utf8() -> None:
    m = ok(' +k8s:thing(s: "\\xc3\\xa9\\303\\251")')
    assert m.args == (("s", "éé"),)


def test_empty_parentheses() -> None:
    m = ok(" +k8s:optional()")
    assert (m.name, m.args, m.positional, m.value) == ("k8s:optional", (), (), None)


def test_known_k8s_union_markers() -> None:
    d = ok(' +k8s:unionDiscriminator(union: "u")')
    assert (d.name, d.args) == ("k8s:unionDiscriminator", (("union", "u"),))
    m = ok(' +k8s:unionMember(union: "u", memberName: "X")')
    assert m.args == (("union", "u"), ("memberName", "X"))


def test_default_raw_keeps_commas_and_quotes() -> None:
    m = ok(' +default="a,b"')
    assert (m.name, m.value, m.flags) == ("default", '"a,b"', ())


def test_kubebuilder_default_raw_json() -> None:
    m = ok(' +kubebuilder:default={"a": 1, "b": [1,2]}')
    assert (m.name, m.value, m.flags) == ("kubebuilder:default", '{"a": 1, "b": [1,2]}', ())


def test_patch_strategy_keeps_comma() -> None:
    # the retainKeys proposal: patchStrategy:"merge,retainKeys"
    m = ok(" +patchStrategy=merge,retainKeys")
    assert (m.value, m.flags) == ("merge,retainKeys", ())


def test_stage_prefix_alpha_with_since() -> None:
    text = ' +k8s:alpha(since: "1.37")=+k8s:unionMember'
    m = ok(text)
    assert m.name == "k8s:unionMember"
    assert (m.stage, m.since, m.gate) == ("alpha", "1.37", "")
    assert (m.value, m.args, m.positional) == (None, (), ())
    assert m.raw == text.strip()
    assert m.pos.column == POS.column + 1


def test_stage_prefix_beta() -> None:
    m = ok(" +k8s:beta=+k8s:required")
    assert (m.name, m.stage, m.since, m.gate) == ("k8s:required", "beta", "", "")


@pytest.mark.parametrize(
    ("text", "stage", "since"),
    [
        # validation-gen's own test packages (output_tests/tags/levels) write these; its
        # level tag stamps its level on the whole payload, so the outermost stage wins
        (" +k8s:alpha=+k8s:alpha=+k8s:minimum=20", "alpha", ""),
        (" +k8s:alpha=+k8s:beta=+k8s:optional", "alpha", ""),
        (' +k8s:beta=+k8s:alpha(since: "1.36")=+k8s:optional', "beta", "1.36"),
        (' +k8s:beta(since: "1.37")=+k8s:beta(since: "1.36")=+k8s:optional', "beta", "1.37"),
    ],
)
def test_stage_inside_stage_outermost_wins(text: str, stage: str, since: str) -> None:
    m = ok(text)
    assert (m.stage, m.since) == (stage, since)
    assert m.name in ("k8s:minimum", "k8s:optional")


def test_stage_inside_path_wrappers_inside_stage() -> None:
    m = ok(' +k8s:beta=+k8s:item(key: "foo")=+k8s:subfield(value)=+k8s:beta=+k8s:minimum=10')
    assert (m.name, m.stage) == ("k8s:minimum", "beta")


def test_gate_prefix_parses_payload_args() -> None:
    text = ' +k8s:ifEnabled(FeatureX)=+k8s:unionMember(union: "u")'
    m = ok(text)
    assert m.name == "k8s:unionMember"
    assert m.args == (("union", "u"),)
    assert (m.gate, m.gate_disabled, m.stage) == ("FeatureX", False, "")
    assert m.raw == text.strip()


def test_if_disabled_around_stage() -> None:
    m = ok(' +k8s:ifDisabled(G)=+k8s:beta(since: "1.30")=+k8s:optional')
    assert (m.name, m.gate, m.gate_disabled, m.stage, m.since) == (
        "k8s:optional",
        "G",
        True,
        "beta",
        "1.30",
    )


def test_unknown_name_keeps_whole_rest_as_value() -> None:
    m = ok(" +k8s:deepcopy-gen=package,register")
    assert (m.name, m.value, m.flags) == ("k8s:deepcopy-gen", "package,register", ())
    m = ok(" +kubebuilder:printcolumn:name=Age,type=date")
    assert (m.name, m.value, m.flags) == ("kubebuilder:printcolumn:name", "Age,type=date", ())


def test_unknown_name_never_errors() -> None:
    m = ok(" +k8s:mystery(unclosed")
    assert (m.name, m.args, m.value) == ("k8s:mystery", (), None)
    m = ok(" +genclient:nonNamespaced")
    assert (m.name, m.value) == ("genclient:nonNamespaced", None)


def test_trailing_white_space_trimmed() -> None:
    m = ok(" +unionMember=X,optional \t \r")
    assert (m.value, m.flags, m.raw) == ("X", ("optional",), "+unionMember=X,optional")


# --- positions -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("+optional", 4),  # `//+optional`
        (" +optional", 5),
        ("\t\t+optional", 6),
        ("    +optional", 8),
        ("\u3000+optional", 5),  # a non-ASCII white space counts as one column
    ],
)
def test_marker_column_points_at_plus(text: str, column: int) -> None:
    m = ok(text)
    assert m.pos == Position("api/v1/types.go", 12, column)


def test_error_column_counts_characters_not_bytes() -> None:
    text = ' +k8s:unionMember(memberName: "é€", union: "x'
    e = err(text)
    assert e.message == "unterminated string: missing closing '\"'"
    assert e.pos == Position("api/v1/types.go", 12, POS.column + text.index('"x'))


def test_real_go_file_positions() -> None:
    """Comment lines read by the real tree-sitter front end feed parse_group."""
    src = (
        "package v1\n"
        "\n"
        "type Union struct {\n"
        "\t// é is here\n"
        "\t\t//   +unionMember=X,optional\n"
        "\t// +unionMember=\n"
        '\tFieldA *string `json:"fieldA,omitempty"`\n'
        "}\n"
    )
    f = GoParser().parse("api/t.go", src.encode())
    group = f.types[0].type.fields[0].doc
    markers, errors = parse_group(group)
    assert [(m.name, m.value, m.flags, m.pos) for m in markers] == [
        ("unionMember", "X", ("optional",), Position("api/t.go", 5, 8))
    ]
    assert [(e.raw, e.pos) for e in errors] == [("+unionMember=", Position("api/t.go", 6, 18))]


# --- malformed markers ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message", "at"),
    [
        (" +unionMember=", "+unionMember= has an empty value after '='", None),
        (" +unionMember=,optional", "+unionMember= has an empty value after '='", ","),
        (" +unionMember,", "empty flag after ',' in +unionMember", None),
        (" +unionMember=X,optional,", "empty flag after ',' in +unionMember", None),
        (" +unionMember,foo", "unknown flag 'foo' on +unionMember (allowed: optional)", "foo"),
        (" +unionMember,optional,optional", "flag 'optional' given twice", "optional"),
        (" +unionMember=A B", "white space in the value of +unionMember", " B"),
        (" +unionMember(x)", "unexpected '(' after +unionMember", "("),
        (
            " +unionDiscriminatedBy=U,optional",
            "unknown flag 'optional' on +unionDiscriminatedBy (+unionDiscriminatedBy takes no "
            "flags)",
            "optional",
        ),
        (
            " +unionDiscriminatedBy",
            "+unionDiscriminatedBy needs a value: +unionDiscriminatedBy=<value>",
            None,
        ),
        (" +optional foo", "unexpected white space after +optional: it takes no value", " foo"),
        (" +default", "+default needs a value: +default=<value>", None),
        (" +default=  ", "+default= has an empty value after '='", None),
        (" +kubebuilder:default,x", "unexpected ',' after +kubebuilder:default; expected '='", ","),
        (
            " +kubebuilder:validation:Enum=A;;B",
            'empty item in list (write "" for the empty string)',
            ";B",
        ),
        (' +kubebuilder:validation:Enum="A;B', "unterminated string: missing closing '\"'", '"'),
        (" +kubebuilder:validation:Enum={A,B", "list starting with '{' must end with '}'", "B"),
        (
            ' +k8s:unionMember(union: "u"',
            "unbalanced parentheses: '(' is never closed",
            "(",
        ),
        (' +k8s:unionMember(union: "u"))', "unbalanced parentheses: unexpected ')'", ")"),
        (' +k8s:unionMember(union: "u)', "unterminated string: missing closing '\"'", '"u'),
        (" +k8s:unionMember(union: `u)", "unterminated string: missing closing '`'", "`"),
        (" +k8s:unionMember(union:)", "argument 'union' has no value after ':'", "union"),
        (" +k8s:unionMember(union: , x: 1)", "argument 'union' has no value after ':'", "union"),
        (' +k8s:unionMember(union: "a",)', "empty argument", ")"),
        (" +k8s:unionMember(,)", "empty argument", ","),
        (
            ' +k8s:unionMember(union: "a" memberName: "b")',
            "unexpected 'm' in arguments; expected ',' or ')'",
            "memberName",
        ),
        (' +k8s:unionMember(union: "a", union: "b")', "duplicate argument 'union'", 'union: "b'),
        (' +k8s:unionMember("u": x)', "argument name 'u' is not an identifier", '"u"'),
        (' +k8s:unionMember(s: "\\q")', "unknown escape sequence \\q in string", "\\q"),
        (' +k8s:unionMember(s: "\\x4")', "invalid \\x escape in string: needs 2 hex digits", "\\x"),
        (' +k8s:unionMember(s: "\\ud800")', "invalid \\u escape: not a Unicode code point", "\\u"),
        (
            ' +k8s:unionMember(s: "\\400")',
            "invalid octal escape in string: needs 3 digits <= 377",
            "\\4",
        ),
        (
            ' +k8s:unionMember(unoin: "u")',
            "unknown argument 'unoin' for +k8s:unionMember (allowed: memberName, union)",
            "(",
        ),
        (" +k8s:unionMember(u)", "+k8s:unionMember takes 0 positional argument(s), got 1", "("),
        (" +k8s:optional,x", "unexpected ',' after +k8s:optional; expected '(' or '='", ","),
        (" +k8s:enum=", "+k8s:enum= has an empty value after '='", None),
        (
            " +k8s:alpha=",
            "+k8s:alpha has no payload: write +k8s:alpha=+<marker> (e.g. +k8s:alpha=+k8s:optional)",
            None,
        ),
        (
            " +k8s:alpha",
            "+k8s:alpha has no payload: write +k8s:alpha=+<marker> (e.g. +k8s:alpha=+k8s:optional)",
            None,
        ),
        (
            " +k8s:beta=k8s:optional",
            "payload of +k8s:beta is not a marker: expected '+<marker>', got 'k8s:optional'",
            "k8s:optional",
        ),
        (
            " +k8s:beta=+ x",
            "payload of +k8s:beta is not a marker: expected '+<marker>', got '+ x'",
            "+ x",
        ),
        (
            " +k8s:ifEnabled=+k8s:optional",
            "+k8s:ifEnabled needs exactly one feature gate: +k8s:ifEnabled(Gate)=+marker",
            "=",
        ),
        (
            " +k8s:ifEnabled(A, B)=+k8s:optional",
            "+k8s:ifEnabled needs exactly one feature gate: +k8s:ifEnabled(Gate)=+marker",
            "(",
        ),
        (
            " +k8s:alpha(version: 1)=+k8s:optional",
            "unknown argument 'version' for +k8s:alpha (allowed: since)",
            "(",
        ),
        (
            " +k8s:ifEnabled(A)=+k8s:ifDisabled(B)=+k8s:optional",
            "+k8s:ifEnabled wraps another feature-gate prefix",
            "+k8s:ifDisabled",
        ),
        # an error inside the payload is reported at its own column
        (" +k8s:alpha=+unionMember,", "empty flag after ',' in +unionMember", None),
        (
            ' +k8s:beta=+k8s:unionMember(union: "u"',
            "unbalanced parentheses: '(' is never closed",
            "(union",
        ),
    ],
)
def test_malformed(text: str, message: str, at: str | None) -> None:
    e = err(text)
    assert e.message == message
    assert e.raw == text.strip()
    # `at` is the text the error points at; None: the end of the marker text
    stripped = text.rstrip()
    index = len(stripped) if at is None else stripped.rindex(at)
    assert e.pos == Position(POS.file, POS.line, POS.column + index)


def test_parse_group_order_and_split() -> None:
    lines = (
        CommentLine(" FieldA is a member.", Position("f.go", 3, 4)),
        CommentLine(" +optional", Position("f.go", 4, 4)),
        CommentLine(" +unionMember,bogus", Position("f.go", 5, 4)),
        CommentLine(" +unionMember=A", Position("f.go", 6, 4)),
        CommentLine(" +k8s:ifEnabled(G)=+k8s:unionMember", Position("f.go", 7, 4)),
    )
    markers, errors = parse_group(CommentGroup(lines))
    assert [(m.name, m.pos.line) for m in markers] == [
        ("optional", 4),
        ("unionMember", 6),
        ("k8s:unionMember", 7),
    ]
    assert [(e.pos.line, e.pos.column) for e in errors] == [(5, 18)]
    assert parse_group(None) == ([], [])


def test_custom_registry_is_used() -> None:
    reg = Registry.of(
        [MarkerDef("mine", frozenset({Target.FIELD}), Shape.RAW, value_required=True)]
    )
    assert isinstance(parse_line(" +mine", POS, reg), MarkerError)
    # unionMember is unknown to this registry, so its bad flag is not an error
    m = parse_line(" +unionMember,bogus", POS, reg)
    assert isinstance(m, Marker) and m.flags == ("bogus",)


# --- the registry --------------------------------------------------------------------

F, T, P = Target.FIELD, Target.TYPE, Target.PACKAGE


@pytest.mark.parametrize(
    ("name", "targets", "shape", "union_or_enum"),
    [
        ("union", {T}, Shape.NONE, True),
        ("unionDeprecated", {F}, Shape.NONE, True),
        ("unionDiscriminator", {F}, Shape.NONE, True),
        ("unionMember", {F}, Shape.VALUE_FLAGS, True),
        ("unionDiscriminatedBy", {F}, Shape.VALUE_FLAGS, True),
        ("enum", {T}, Shape.NONE, True),
        ("k8s:unionDiscriminator", {F}, Shape.ARGS, True),
        ("k8s:unionMember", {F}, Shape.ARGS, True),
        ("k8s:zeroOrOneOfMember", {F}, Shape.ARGS, True),
        ("k8s:enum", {T}, Shape.ARGS, True),
        ("k8s:optional", {F}, Shape.ARGS, False),
        ("k8s:required", {F}, Shape.ARGS, False),
        ("optional", {F}, Shape.NONE, False),
        ("required", {F}, Shape.NONE, False),
        ("kubebuilder:validation:Optional", {F, T, P}, Shape.NONE, False),
        ("kubebuilder:validation:Required", {F, T, P}, Shape.NONE, False),
        ("kubebuilder:validation:Enum", {F, T}, Shape.LIST, True),
        ("kubebuilder:default", {F}, Shape.RAW, False),
        ("default", {F}, Shape.RAW, False),
        ("listType", {F}, Shape.VALUE_FLAGS, False),
        ("listMapKey", {F}, Shape.VALUE_FLAGS, False),
        ("patchStrategy", {F}, Shape.RAW, False),
        ("patchMergeKey", {F}, Shape.VALUE_FLAGS, False),
        ("kubebuilder:object:root", {T}, Shape.NONE, False),
        ("groupName", {P}, Shape.VALUE_FLAGS, False),
        ("k8s:alpha", {F, T, P}, Shape.ARGS, False),
        ("k8s:beta", {F, T, P}, Shape.ARGS, False),
        ("k8s:ifEnabled", {F, T, P}, Shape.ARGS, False),
        ("k8s:ifDisabled", {F, T, P}, Shape.ARGS, False),
    ],
)
def test_registry_entry(name: str, targets: set[Target], shape: Shape, union_or_enum: bool) -> None:
    d = REGISTRY.get(name)
    assert d is not None
    assert (d.name, set(d.targets), d.shape, d.union_or_enum) == (
        name,
        targets,
        shape,
        union_or_enum,
    )


def test_registry_prefixes_and_flags() -> None:
    assert {n for n, d in REGISTRY.by_name.items() if d.prefix} == {
        "k8s:alpha",
        "k8s:beta",
        "k8s:ifEnabled",
        "k8s:ifDisabled",
        "k8s:item",
        "k8s:subfield",
        "k8s:eachVal",
        "k8s:eachKey",
    }
    member = REGISTRY.get("unionMember")
    assert member is not None and member.flags == frozenset({"optional"})
    assert REGISTRY.get("nonexistent") is None
    assert REGISTRY.get("enum") is not None and REGISTRY.get("Enum") is None


def test_registry_is_immutable_and_rebuildable() -> None:
    with pytest.raises(TypeError):
        REGISTRY.by_name["x"] = REGISTRY.by_name["enum"]  # type: ignore[index]
    assert default_registry().by_name == REGISTRY.by_name
    with pytest.raises(ValueError, match="defined twice"):
        d = MarkerDef("x", frozenset({Target.FIELD}), Shape.NONE)
        Registry.of([d, d])


# --- did you mean (MG003) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("unionDescriminator", "unionDiscriminator"),
        ("unionmember", "unionMember"),
        ("Enum", "enum"),
        ("enun", "enum"),
        ("ENUM", "enum"),
        ("unionMembers", "unionMember"),
        ("UnionMember", "unionMember"),
        ("unoin", "union"),
        ("unionDeprecate", "unionDeprecated"),
        ("unionDiscrimnatedBy", "unionDiscriminatedBy"),
        ("k8s:unionmember", "k8s:unionMember"),
        ("k8s:unoinDiscriminator", "k8s:unionDiscriminator"),
        ("k8s:Enum", "k8s:enum"),
        ("k8s:zeroOrOneOfMembers", "k8s:zeroOrOneOfMember"),
        ("K8s:unionMember", "k8s:unionMember"),
        ("kubebuilder:validation:enum", "kubebuilder:validation:Enum"),
    ],
)
def test_suggest(name: str, expected: str) -> None:
    assert REGISTRY.suggest(name) == expected


@pytest.mark.parametrize(
    "name",
    [
        "genclient",
        "genclient:nonNamespaced",
        "optional",
        "required",
        "listType",
        "listMapKey",
        "groupName",
        "protobuf",
        "patchMergeKey",
        "patchStrategy",
        "k8s:deepcopy-gen",
        "k8s:openapi-gen",
        "k8s:optional",
        "k8s:required",
        "k8s:alpha",
        "k8s:conversion-gen",
        "kubebuilder:object:root",
        "kubebuilder:validation:Format",
        "kubebuilder:validation:Type",
        "kubebuilder:subresource:status",
        "nullable",
        "end",
        "item",
        "unit",
        "name",
        "k8s:union",
        "enum",
        "unionMember",
        "k8s:unionMember",
        # the prefix must match: plain `unionMember` is not suggested for other prefixes
        "foo:unionMember",
    ],
)
def test_suggest_negative(name: str) -> None:
    assert REGISTRY.suggest(name) is None


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("", "", 0),
        ("abc", "", 3),
        ("enum", "enum", 0),
        ("enum", "enmu", 1),  # a transposition is one edit (OSA)
        ("ca", "abc", 3),  # OSA, not unrestricted Damerau-Levenshtein (which gives 2)
        ("kitten", "sitting", 3),
        ("uniondescriminator", "uniondiscriminator", 1),
    ],
)
def test_edit_distance(a: str, b: str, distance: int) -> None:
    assert edit_distance(a, b) == distance
    assert edit_distance(b, a) == distance


# --- robustness ----------------------------------------------------------------------

_MARKERISH = st.text(
    alphabet=st.sampled_from(list('+k8s:unionMember(),="`\\ \t;{}-_aZ0xé\u3000')), max_size=40
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=60), _MARKERISH, _MARKERISH.map(lambda t: " +" + t)))
def test_parse_line_never_raises(text: str) -> None:
    result = parse_line(text, POS)
    assert result is None or isinstance(result, Marker | MarkerError)
    if result is not None:
        # positions stay on the line and inside the text
        assert result.pos.line == POS.line
        assert POS.column <= result.pos.column <= POS.column + len(text)
        assert result.raw == text.strip()


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(sorted(REGISTRY.by_name)),
    st.text(alphabet=st.sampled_from(list('(),=:;"` abX1+\\')), max_size=25),
)
def test_known_names_with_arbitrary_rest_never_raise(name: str, rest: str) -> None:
    result = parse_line(" +" + name + rest, POS)
    assert isinstance(result, Marker | MarkerError)


# Pieces of marker lines: real names (known, prefixed, misspelt), values, arguments
# and the characters that make a line malformed.
_PIECES = st.sampled_from(
    [
        "+",
        "optional",
        "unionMember",
        "unionDiscriminator",
        "k8s:alpha",
        "k8s:beta",
        "k8s:ifEnabled",
        "k8s:unionMember",
        "listType",
        "enum",
        "unoinMember",
        "=",
        "(",
        ")",
        ",",
        '"',
        "since:",
        ' "1.37"',
        "Gate",
        "A",
        ";",
        " ",
        "\t",
        "optional",
        "=+",
        "+k8s:optional",
        "{",
        "}",
        "x=y",
    ]
)


_LINES = st.lists(_PIECES, max_size=10).map("".join)


def _cached(cache: LineCache, text: str, pos: Position) -> Marker | MarkerError | None:
    """One line read through `cache`, as the builder reads a tree's comment groups."""
    markers, errors = cache.group(CommentGroup((CommentLine(text, pos),)))
    assert len(markers) + len(errors) <= 1
    return markers[0] if markers else errors[0] if errors else None


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(_LINES, min_size=1, max_size=6), column=st.integers(1, 40))
def test_cached_marker_lines_equal_fresh_parses(lines: list[str], column: int) -> None:
    # KEP-1027 "Proposal" markers, read through one cache as the builder reads a tree:
    # every line, repeated at other positions, must give what a fresh parse gives.
    cache = LineCache(REGISTRY)
    for row, text in enumerate(lines + lines, start=1):
        pos = Position("types.go", row, column + row % 3)
        assert _cached(cache, text, pos) == parse_line(text, pos)


def test_a_cache_hit_is_a_new_record_at_the_new_position() -> None:
    cache = LineCache(REGISTRY)
    first = _cached(cache, " +unionMember=A", Position("a.go", 3, 3))
    again = _cached(cache, "   +unionMember=A", Position("b.go", 9, 3))
    assert isinstance(first, Marker) and isinstance(again, Marker)
    assert first.pos == Position("a.go", 3, 4)
    assert again.pos == Position("b.go", 9, 6)
    assert replace(again, pos=first.pos) == first
    assert again is not first


def test_a_cached_error_points_at_the_fault_of_each_line() -> None:
    cache = LineCache(REGISTRY)
    text = " +k8s:alpha=optional"  # payload is not a marker: MG004 at the payload
    fresh = parse_line(text, Position("a.go", 1, 3))
    cached = [_cached(cache, text, Position("a.go", 1, c)) for c in (3, 3, 8)]
    assert isinstance(fresh, MarkerError)
    assert cached[0] == cached[1] == fresh
    assert isinstance(cached[2], MarkerError)
    assert cached[2].pos.column == fresh.pos.column + 5


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
        [
            "+",
            "optional",
            "unionMember",
            "k8s:alpha",
            "k8s:ifEnabled",
            "unoinMember",
            "=",
            "(",
            ")",
            ",",
            '"',
            "Gate",
            "A",
            ";",
            " ",
            "\t",
            "=+",
            "+k8s:optional",
            "x",
            "1+2",
        ]
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
    file = GoParser().parse("p.go", src.encode())
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


def test_keyed_values_read_strings_as_every_marker_does() -> None:
    from markergen.markers import keyed_value

    text = '"has(self.a) ? \\"x,y\\" : 1",message=`a, b`,reason=FieldValueInvalid'
    value, i = keyed_value(text, 0)
    assert value == 'has(self.a) ? "x,y" : 1' and text[i] == ","
    value, i = keyed_value(text, text.index("`"))
    assert value == "a, b" and text[i] == ","
    assert keyed_value(text, text.rindex("=") + 1) == ("FieldValueInvalid", len(text))
    assert keyed_value('"open', 0) == ("", 5)
