"""Template infrastructure (DESIGN 6): escaping filters, StrictUndefined, overrides,
and template safety of every generated text."""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path
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

from markergen.emit.options import EmitOptions
from markergen.emit.outputs import OUTPUT_NAMES, render_outputs
from markergen.emit.render import (
    RenderError,
    builtin_templates_dir,
    make_environment,
    pyliteral,
    render,
    tojson,
)

NASTY = [
    'quote " and \' both', "back\\slash", "new\nline\r\n", "{{ braces }} {% raw %}",
    "'''triple'''", '"""triple"""', "non-ASCII: é 漢字 🎉", "line\u2028sep\u2029para",
    "nul\x00 bell\x07 del\x7f", "${x} `tick`", "</script>",
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(), children, max_size=4),
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


def test_tojson_is_deterministic_and_keeps_two_space_layout() -> None:
    text = "{\n  \"k\": " + tojson({"b": [1, {"y": 2, "x": "é"}], "a": None},
                                   indent=2, level=1) + "\n}"
    assert text == json.dumps({"k": {"a": None, "b": [1, {"x": "é", "y": 2}]}},
                              indent=2, sort_keys=True, ensure_ascii=False)


def test_filters_reject_values_without_a_literal() -> None:
    with pytest.raises(ValueError):
        pyliteral(math.nan)
    with pytest.raises(TypeError):
        pyliteral({1, 2})
    with pytest.raises(ValueError):
        tojson(math.inf)


def test_builtin_templates_are_found() -> None:
    d = builtin_templates_dir()
    for name in OUTPUT_NAMES:
        assert (d / f"{name}.j2").is_file()


def test_strict_undefined_raises_render_error(tmp_path: Path) -> None:
    (tmp_path / "openapi-v2.json.j2").write_text("{{ no_such_variable | tojson }}\n")
    env = make_environment(tmp_path)
    with pytest.raises(RenderError) as err:
        render_outputs(model([]), EmitOptions(), env)
    assert err.value.template == "openapi-v2.json.j2"
    assert "no_such_variable" in str(err.value)


def test_override_directory_wins_and_falls_back(tmp_path: Path) -> None:
    (tmp_path / "unions_table.py.j2").write_text("# custom\nTABLE = {{ table | pyliteral }}\n")
    out = render_outputs(model([]), EmitOptions(), make_environment(tmp_path))
    assert out["unions_table.py"].startswith("# custom\n")
    assert out["openapi-v2.json"].startswith("{\n  \"definitions\"")  # built-in used


def test_syntax_error_in_template_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "bad.j2").write_text("ok\n{% if %}\n")
    with pytest.raises(RenderError) as err:
        render(make_environment(tmp_path), "bad.j2")
    assert err.value.line == 2


def test_missing_override_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match="does not exist"):
        make_environment(tmp_path / "nope")


def _nasty_model() -> Any:
    values = [(f"V{i}", s, f"V{i} {s}") for i, s in enumerate(NASTY)]
    e = enum("NastyKind", values)
    s = struct(
        "Nasty",
        [fld("Kind", named("NastyKind"), "kind", description=NASTY[0] + "\n\n" + NASTY[4]),
         fld("Weird", builtin("string"), "w\"eird'{{x}}", optional=True,
             description="".join(NASTY), default=json.dumps(NASTY[1])),
         fld("A", builtin("int"), "a", optional=True)],
        [union(key("Nasty"), dialect="kep1027", origin="discriminated",
               discriminator=disc("Kind", "kind", values=tuple(NASTY), required=True,
                                  enum=e.key),
               members=[member("A", "a", NASTY[2])], empty=tuple(NASTY[3:]))],
        description="".join(reversed(NASTY)),
    )
    return model([s], enums=[e], types=[named_type("NastyKind", builtin("string"))])


def test_nasty_strings_survive_every_output() -> None:
    """Descriptions, names and enum values with quotes, backslashes, newlines, `{{ }}`,
    triple quotes, non-ASCII and U+2028 read back unchanged from JSON and Python."""
    out = render_outputs(_nasty_model(), EmitOptions(union_format="both"), make_environment())
    v2 = json.loads(out["openapi-v2.json"])
    d = v2["definitions"][PKG.replace("example.com", "com.example").replace("/", ".")
                          + ".Nasty"]
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
    out = render_outputs(_nasty_model(), EmitOptions(), make_environment())["unions_table.py"]
    assert out.startswith("# Code generated by markergen. DO NOT EDIT.\n")
    namespace: dict[str, Any] = {}
    exec(compile(out, "unions_table.py", "exec"), namespace)
    assert set(namespace) - {"__builtins__"} == {"TABLE"}
