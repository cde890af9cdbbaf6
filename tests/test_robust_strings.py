"""Robustness: hostile strings in Go source reach every output unchanged and inert.

Issue "Robustness ...": enum values, JSON names, comments and marker arguments holding
quotes, backslashes, newlines, NUL, `{{ }}`, `'''`, `\"\"\"` and Unicode line separators
must parse back from the JSON, YAML, Python table and CEL outputs as exactly the same
strings, and the
generated Python module must do nothing on import but build literals.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import celpy
import pytest
import yaml
from helpers import yaml_documents
from hypothesis import given, settings
from hypothesis import strategies as st

from markergen.config import load_config
from markergen.crd.cel import union_rules
from markergen.generate import generate
from markergen.pipeline import load_model
from markergen.yamlio import load_documents

HOSTILE = (
    'q"uote \'single\' back\\slash new\nline nul\x00 {{ jinja }} {% block %} \'\'\' """ '
    "ls\u2028ps\u2029 cr\r tab\t </script> ${x} é"
)
# encoding/json accepts only letters, digits and these punctuation marks in a tag name;
# markergen follows it, so the hostile JSON name stays within them.
HOSTILE_JSON = "{{x}}-#%&()*+./:;<=>?@[]^_|~ end"
HOSTILE_COMMENT = "Desc {{ desc }} {% if %} ''' \"\"\" back\\slash \"q\" \u2028 after-ls </script>"


def go_quote(s: str) -> str:
    """A Go interpreted string literal for `s` (escapes everything Go would reject)."""
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        elif ch in "\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


SOURCE = f"""package v1

// Kind says which member is set.
// +k8s:enum
type Kind string

const (
\t// KindH is the hostile one: {HOSTILE_COMMENT}
\tKindH Kind = {go_quote(HOSTILE)}
\t// KindB is plain.
\tKindB Kind = "B"
)

// Hostile is a union. {HOSTILE_COMMENT}
type Hostile struct {{
\t// +k8s:unionDiscriminator(union: "u")
\t// +required
\tKind Kind `json:"kind"`

\t// H is selected by the hostile value.
\t// +k8s:unionMember(union: "u", memberName: {go_quote(HOSTILE)})
\t// +k8s:optional
\tH *string `json:"h,omitempty"`

\t// B has a hostile JSON name. {HOSTILE_COMMENT}
\t// +k8s:unionMember(union: "u", memberName: "B")
\t// +k8s:optional
\tB *string `json:"{HOSTILE_JSON},omitempty"`
}}
"""


def _project(root: Path) -> None:
    (root / "go.mod").write_text("module example.com/hostile\n")
    (root / "api" / "v1").mkdir(parents=True)
    (root / "api" / "v1" / "types.go").write_text(SOURCE, encoding="utf-8")


def _strings(value: Any) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            found.add(v)
        elif isinstance(v, dict):
            found.update(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return found


def _generated(tmp_path: Path) -> dict[str, str]:
    _project(tmp_path)
    out = tmp_path / "out"
    cfg = load_config(tmp_path, {"out-dir": str(out)})
    result = generate(cfg, ["./api/..."], tmp_path, verify=False)
    assert result.exit_code == 0, [str(d) for d in result.diagnostics]
    return {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}


def test_model_reads_the_hostile_strings_exactly(tmp_path: Path) -> None:
    _project(tmp_path)
    model = load_model(["./api/..."], tmp_path)
    (enum,) = model.enums.values()
    assert sorted(v.value for v in enum.values) == sorted(["B", HOSTILE])
    struct = model.structs["example.com/hostile/api/v1.Hostile"]
    (union,) = struct.unions
    assert {m.value for m in union.members} == {HOSTILE, "B"}
    assert HOSTILE_JSON in {f.json_name for f in struct.fields}


def test_json_outputs_round_trip_the_strings(tmp_path: Path) -> None:
    files = _generated(tmp_path)
    for name in ("openapi-v2.json", "openapi-v3.json", "unions_table.json"):
        doc = json.loads(files[name])
        strings = _strings(doc)
        assert HOSTILE in strings, name
        assert HOSTILE_JSON in strings, name
    v2 = json.loads(files["openapi-v2.json"])
    schema = v2["definitions"]["com.example.hostile.api.v1.Hostile"]
    assert HOSTILE in schema["properties"]["kind"]["enum"]
    assert set(schema["properties"]) == {"kind", "h", HOSTILE_JSON}
    # The comment text survives inside descriptions (U+2028 included, not a line break).
    assert HOSTILE_COMMENT in schema["description"]
    assert HOSTILE_COMMENT in schema["properties"][HOSTILE_JSON]["description"]
    members = schema["properties"]["kind"]["x-kubernetes-unions"]["fieldMembers"]
    assert members[HOSTILE]["name"] == "h"
    assert members["B"]["name"] == HOSTILE_JSON


_ALLOWED_NODES = (
    ast.Module, ast.Assign, ast.Name, ast.Store, ast.Load, ast.Dict, ast.List, ast.Constant,
)


def test_python_table_is_inert_literal_and_equal_to_the_json(tmp_path: Path) -> None:
    files = _generated(tmp_path)
    text = files["unions_table.py"]
    module = ast.parse(text)
    bad = [type(n).__name__ for n in ast.walk(module) if not isinstance(n, _ALLOWED_NODES)]
    assert bad == [], f"the module would run more than literal construction: {bad}"
    assert len(module.body) == 1
    (assign,) = module.body
    assert isinstance(assign, ast.Assign)
    assert [t.id for t in assign.targets if isinstance(t, ast.Name)] == ["TABLE"]
    table = ast.literal_eval(assign.value)
    assert table == json.loads(files["unions_table.json"])
    assert HOSTILE in _strings(table) and HOSTILE_JSON in _strings(table)
    # And importing it for real gives the same value (the module only assigns).
    namespace: dict[str, Any] = {}
    exec(compile(module, "unions_table.py", "exec"), namespace)
    assert namespace["TABLE"] == table


def test_cel_rules_carry_the_hostile_value_exactly(tmp_path: Path) -> None:
    _project(tmp_path)
    model = load_model(["./api/..."], tmp_path)
    (union,) = model.structs["example.com/hostile/api/v1.Hostile"].unions
    rules, skipped = union_rules(union, "Hostile", ["kind", "h", HOSTILE_JSON], ["kind"])
    assert rules
    # A JSON name CEL cannot address is skipped with a reason, never spliced into a rule.
    assert [s.field for s in skipped] == [HOSTILE_JSON]
    env = celpy.Environment()
    to_cel = celpy.json_to_cel  # type: ignore[attr-defined]
    good = {"kind": HOSTILE, "h": "x"}
    bad = {"kind": HOSTILE}  # the member the hostile value selects is unset
    results_good, results_bad = [], []
    for r in rules:
        program = env.program(env.compile(r.rule))
        results_good.append(program.evaluate({"self": to_cel(good)}))
        results_bad.append(program.evaluate({"self": to_cel(bad)}))
    assert all(bool(x) for x in results_good), [r.rule for r in rules]
    # Only an exact match of the hostile value can make `h` required; it does.
    assert results_bad.count(celpy.celtypes.BoolType(False)) >= 1, [r.rule for r in rules]


def _yaml_round_trip(value: str) -> None:
    doc = {"spec": {"enum": [value], value: {"description": value}}}
    text = yaml_documents([doc])
    assert yaml.safe_load(text) == doc
    (loaded,) = load_documents(text)
    assert loaded.value == doc


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_crd_yaml_writer_round_trips_any_string(value: str) -> None:
    _yaml_round_trip(value)


def test_crd_yaml_writer_round_trips_the_hostile_strings() -> None:
    for value in (HOSTILE, HOSTILE_JSON, HOSTILE_COMMENT, "\u2028", "a\r\nb", "\x00", "\ufeff"):
        _yaml_round_trip(value)


# U+0085 (NEL) is a line break to YAML 1.1 readers; it must survive the CRD writer.
@pytest.mark.parametrize("value", ["\x85", "a\x85b", "a\nb\x85"])
def test_crd_yaml_writer_round_trips_nel(value: str) -> None:
    _yaml_round_trip(value)
