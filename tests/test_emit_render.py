"""Template infrastructure: escaping filters, StrictUndefined, overrides,
and template safety of every generated text."""

from __future__ import annotations

import ast
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_emit_models import (
    PKG,
    builtin,
    disc,
    enum,
    fld,
    key,
    member,
    model,
    named,
    named_type,
    struct,
    union,
)

from markergen.emit import render
from markergen.emit.options import EmitOptions
from markergen.emit.outputs import OUTPUT_NAMES, render_outputs
from markergen.emit.render import _py, pyliteral, pyliteral_dict, tojson

NASTY = [
    "quote \" and ' both",
    "back\\slash",
    "new\nline\r\n",
    "{{ braces }} {% raw %}",
    "'''triple'''",
    '"""triple"""',
    "non-ASCII: é 漢字 🎉",
    "line\u2028sep\u2029para",
    "nul\x00 bell\x07 del\x7f",
    "${x} `tick`",
    "</script>",
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_pyliteral_reads_back_with_literal_eval(value: Any) -> None:
    assert ast.literal_eval(pyliteral(value)) == value


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_tojson_reads_back_at_any_level(value: Any) -> None:
    assert json.loads(tojson(value, indent=2, level=3)) == value
    assert json.loads(tojson(value)) == value


class _Key(str):
    def __repr__(self) -> str:
        return "Key()"


# Values the fast writer hands to `_py` (the reference): floats, subclasses, keys that
# are not strings or do not sort, and errors in several places at once (the first in
# `_py`'s order must be the one raised).
_ODD_VALUES: list[Any] = [
    {"a": 1.5, "b": [0.1, {"c": -0.0}]},
    {"a": {_Key("k"): 1}, "k": {"k": 2}},
    {"a": {"b": 1, 2: "x"}},
    {"a": [{"x": math.nan}], "b": {1: 2}},
    {"z": math.inf, "a": {3: 4}},
    [{"b": True, "a": None}, (), {}, ("t", 1)],
    {"t": ("x", ("y",)), "e": {}, "l": []},
    {"big": 2**80, "neg": -3, "s": NASTY},
]


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_pyliteral_writes_the_reference_text(value: Any) -> None:
    for indent, level in ((4, 0), (4, 2), (2, 1)):
        assert pyliteral(value, indent, level) == _py(value, indent, level)


@pytest.mark.parametrize("value", _ODD_VALUES)
def test_pyliteral_odd_values_take_the_reference(value: Any) -> None:
    try:
        expected: Any = _py(value, 4, 1)
    except (TypeError, ValueError) as e:
        expected = (type(e), str(e))
    try:
        got: Any = pyliteral(value, 4, 1)
    except (TypeError, ValueError) as e:
        got = (type(e), str(e))
    assert got == expected


def test_pyliteral_writes_a_shared_dict_as_often_as_it_is_met() -> None:
    # One dict object met in many places (and levels), among many members of
    # pyliteral_dict, whose keys' line heads are shared (render._py_plain).
    shared = {"kind": "scalar"}
    other = {"kind": "object", "type": "T"}
    value = {
        "a": shared,
        "b": [shared, {"c": shared, "d": other}],
        "e": other,
        "many": [{"i": i} for i in range(5000)] + [shared, other],
    }
    for indent, level in ((4, 0), (4, 1), (2, 3)):
        assert pyliteral(value, indent, level) == _py(value, indent, level)
    members = [(f"k{i:05}", {"x": shared, "y": [other, {"i": i}]}) for i in range(3000)]
    assert "".join(pyliteral_dict(members, 4, 1)) == _py(dict(members), 4, 1)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text(), json_values, max_size=6))
def test_pyliteral_dict_writes_what_pyliteral_writes(value: dict[str, Any]) -> None:
    members = sorted(value.items())
    for level in (0, 1):
        assert "".join(pyliteral_dict(members, 4, level)) == pyliteral(dict(members), 4, level)


def test_tojson_is_deterministic_and_keeps_two_space_layout() -> None:
    text = (
        '{\n  "k": ' + tojson({"b": [1, {"y": 2, "x": "é"}], "a": None}, indent=2, level=1) + "\n}"
    )
    assert text == json.dumps(
        {"k": {"a": None, "b": [1, {"x": "é", "y": 2}]}},
        indent=2,
        sort_keys=True,
        ensure_ascii=False,
    )


def test_filters_reject_values_without_a_literal() -> None:
    with pytest.raises(ValueError):
        pyliteral(math.nan)
    with pytest.raises(TypeError):
        pyliteral({1, 2})
    with pytest.raises(ValueError):
        tojson(math.inf)


def test_every_output_is_deterministic_text_with_one_trailing_newline() -> None:
    out = render_outputs(model([]), EmitOptions(), frozenset({"fragments"}))
    assert sorted(out) == sorted(OUTPUT_NAMES)
    for name, text in out.items():
        assert text.endswith("\n") and not text.endswith("\n\n"), name
        if name.endswith(".json"):
            assert (
                json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
                == text
            )
    assert out["unions_table.py"].startswith(
        "# Code generated by markergen. DO NOT EDIT.\nTABLE = "
    )


def _nasty_model() -> Any:
    values = [(f"V{i}", s, f"V{i} {s}") for i, s in enumerate(NASTY)]
    e = enum("NastyKind", values)
    s = struct(
        "Nasty",
        [
            fld("Kind", named("NastyKind"), "kind", description=NASTY[0] + "\n\n" + NASTY[4]),
            fld(
                "Weird",
                builtin("string"),
                "w\"eird'{{x}}",
                optional=True,
                description="".join(NASTY),
                default=json.dumps(NASTY[1]),
            ),
            fld("A", builtin("int"), "a", optional=True),
        ],
        [
            union(
                key("Nasty"),
                dialect="kep1027",
                origin="discriminated",
                discriminator=disc("Kind", "kind", values=tuple(NASTY), required=True, enum=e.key),
                members=[member("A", "a", NASTY[2])],
                empty=tuple(NASTY[3:]),
            )
        ],
        description="".join(reversed(NASTY)),
    )
    return model([s], enums=[e], types=[named_type("NastyKind", builtin("string"))])


def test_nasty_strings_survive_every_output() -> None:
    """Descriptions, names and enum values with quotes, backslashes, newlines, `{{ }}`,
    triple quotes, non-ASCII and U+2028 read back unchanged from JSON and Python."""
    out = render_outputs(_nasty_model(), EmitOptions(union_format="both"))
    v2 = json.loads(out["openapi-v2.json"])
    d = v2["definitions"][PKG.replace("example.com", "com.example").replace("/", ".") + ".Nasty"]
    assert d["description"] == "".join(reversed(NASTY))
    weird = d["properties"]["w\"eird'{{x}}"]
    assert weird["description"] == "".join(NASTY)
    assert weird["default"] == NASTY[1]
    assert sorted(d["properties"]["kind"]["enum"]) == sorted(NASTY)
    fm = d["properties"]["kind"]["x-kubernetes-unions"]["fieldMembers"]
    assert fm[NASTY[2]] == {"name": "a", "optional": False}
    assert set(fm) == set(NASTY)

    table_json = json.loads(out["unions_table.json"])
    tree = ast.parse(out["unions_table.py"])
    assert len(tree.body) == 1 and isinstance(tree.body[0], ast.Assign)
    assign = tree.body[0]
    assert [t.id for t in assign.targets if isinstance(t, ast.Name)] == ["TABLE"]
    table_py = ast.literal_eval(assign.value)  # raises if anything but a literal
    assert table_py == table_json
    entry = next(iter(table_py["types"].values()))
    assert entry["unions"][0]["values"] == sorted(NASTY)
    assert "w\"eird'{{x}}" in entry["fields"]


def test_python_module_header_and_execution_defines_only_table() -> None:
    out = render_outputs(_nasty_model(), EmitOptions())["unions_table.py"]
    assert out.startswith("# Code generated by markergen. DO NOT EDIT.\n")
    namespace: dict[str, Any] = {}
    exec(compile(out, "unions_table.py", "exec"), namespace)
    assert set(namespace) - {"__builtins__"} == {"TABLE"}


def _go_quote_reference(value: str) -> str:
    # Go's strconv.Quote, one character at a time (what describe.go_quote does for
    # the values its printable-ASCII shortcut does not take).
    named = {
        "\a": "\\a",
        "\b": "\\b",
        "\f": "\\f",
        "\n": "\\n",
        "\r": "\\r",
        "\t": "\\t",
        "\v": "\\v",
        "\\": "\\\\",
        '"': '\\"',
    }
    out = ['"']
    for ch in value:
        code = ord(ch)
        if ch in named:
            out.append(named[ch])
        elif ch == " " or (ch.isprintable() and code != 0x7F):
            out.append(ch)
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return "".join(out) + '"'


@settings(max_examples=200, deadline=None)
@given(st.text() | st.text(alphabet=st.characters(max_codepoint=0x7F)))
def test_go_quote_shortcut_writes_what_go_writes(value: str) -> None:
    from markergen.emit.describe import go_quote

    assert go_quote(value) == _go_quote_reference(value)
    for ch in map(chr, range(0x80)):
        assert go_quote(f"a{ch}b") == _go_quote_reference(f"a{ch}b")


PLAIN = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
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
