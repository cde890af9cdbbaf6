"""orjson writes JSON text only where it is byte-identical to json.dumps: every golden
JSON file of testdata/ is written again by both and compared, at several indentation
levels, and the values orjson would write differently (small floats, NaN, subclasses,
non-str keys, big integers) are shown to take json.dumps."""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from markergen.emit import fastjson
from markergen.emit.fastjson import dumps_indented

ROOT = Path(__file__).resolve().parent.parent


def _is_json(path: Path) -> bool:
    try:
        json.loads(path.read_bytes())
    except ValueError:
        return False  # a deliberately broken input fixture
    return True


GOLDEN_JSON = sorted(p for p in (ROOT / "testdata").rglob("*.json") if p.is_file() and _is_json(p))


def _reference(value: Any, level: int = 0) -> str:
    text = json.dumps(
        value,
        sort_keys=True,
        ensure_ascii=False,
        indent=2,
        separators=(",", ": "),
        allow_nan=False,
    )
    return text.replace("\n", "\n" + "  " * level) if level else text


@pytest.mark.parametrize("path", GOLDEN_JSON, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_golden_json_file_is_written_byte_identical(path: Path) -> None:
    raw = path.read_bytes()
    value = json.loads(raw)
    for level in (0, 1, 3):
        # orjson wrote it: the fast path is what runs on every golden file
        assert fastjson._orjson_indented(value) is not None
        assert dumps_indented(value, 2, level) == _reference(value, level)
    # Golden outputs were written by the encoder: reading and writing gives the bytes back.
    text = dumps_indented(value, 2) + "\n"
    if raw.decode("utf-8") == _reference(value) + "\n":
        assert text.encode("utf-8") == raw


def test_golden_files_were_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in GOLDEN_JSON}
    assert {
        "testdata/emit/kep/openapi-v2.json",
        "testdata/emit/kep/openapi-v3.json",
        "testdata/emit/kep/unions_table.json",
    } <= names


class _Color(str, enum.Enum):
    RED = "red"


@pytest.mark.parametrize(
    "value",
    [
        {"min": 1e-05, "max": 1.5e-07, "neg": -0.00003},
        {"a": [0.0001, 1e16, 1.2345678901234568e17, -0.0, 5e-324, 100.0]},
        {"color": _Color.RED, "n": [True, False, None]},
        {"big": 2**64, "small": -(2**63) - 1},
        {"text": 'quote" back\\ nl\n tab\t \x00\x1f \u2028 \x7f é 😀 </script>'},
        {"é": 1, "e": 2, "😀": 3, "\uffff": 4, "Z": 5, "": 6},
        {"deep": [[[[{}]]]], "empty": {}, "list": []},
        ("tuple", ("inner",)),
    ],
)
def test_values_orjson_might_write_differently(value: Any) -> None:
    for level in (0, 2):
        assert dumps_indented(value, 2, level) == _reference(value, level)


def test_null_from_none_is_orjson_s_and_from_nan_is_refused() -> None:
    assert fastjson._orjson_indented({"a": None, "b": [None, 1.5]}) == _reference(
        {"a": None, "b": [None, 1.5]}
    )
    for bad in ({"a": None, "x": float("nan")}, {"a": [None, float("-inf")]}):
        assert fastjson._orjson_indented(bad) is None
        with pytest.raises(ValueError):
            dumps_indented(bad, 2)


def test_refusals_stay_the_same() -> None:
    for bad in ({"x": float("nan")}, {"x": float("inf")}):
        with pytest.raises(ValueError):
            dumps_indented(bad, 2)
    with pytest.raises(TypeError):
        dumps_indented({"x": object()}, 2)
    assert dumps_indented({1: "a", 2: None}, 2) == json.dumps(
        {1: "a", 2: None}, indent=2, sort_keys=True
    )


def _members_text(members: list[tuple[str, Any]], level: int) -> str:
    from markergen.emit.render import json_object

    return "".join(json_object(members, level))


@pytest.mark.parametrize("path", GOLDEN_JSON, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_json_object_writes_every_golden_file_as_tojson(path: Path) -> None:
    # json_object cuts each member out of orjson's text of it wrapped to its depth
    # (fastjson.member_text): the same text as the whole object written at once.
    value = json.loads(path.read_bytes())
    if not isinstance(value, dict):
        return
    members = sorted(value.items())
    for level in (0, 1, 2, 4):
        assert _members_text(members, level) == _reference(dict(members), level)


@pytest.mark.parametrize(
    "members",
    [
        [("min", 1e-05), ("n", [None, 1.5])],
        [("a", {"color": _Color.RED}), ("b", 2**64)],
        [("text", 'quote" back\\ nl\n \x00 \u2028 \x7f é 😀'), ("é", {"😀": None})],
        [('k"ey\n', 1), ("", {}), ("z", [])],
        [("e-1", 1), ("x0.0000", "1e-5")],  # false alarms in keys: the other encoder
    ],
)
def test_json_object_members_orjson_might_write_differently(
    members: list[tuple[str, Any]],
) -> None:
    members = sorted(members)
    for level in (0, 1, 3):
        assert _members_text(members, level) == _reference(dict(members), level)


def test_member_text_refuses_nan_and_keeps_none() -> None:
    assert fastjson.member_text("a", {"b": None}, 2) == '    "a": {\n      "b": null\n    }'
    assert fastjson.member_text("a", {"b": None, "c": float("nan")}, 2) is None
    with pytest.raises(ValueError):
        _members_text([("a", {"b": None, "c": float("inf")})], 1)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.integers(min_value=0, max_value=3), st.integers(min_value=1, max_value=4))
def test_fast_json_is_byte_identical_to_json_dumps(value: object, level: int, indent: int) -> None:
    expected = json.dumps(
        value,
        sort_keys=True,
        ensure_ascii=False,
        indent=indent,
        separators=(",", ": "),
        allow_nan=False,
    ).replace("\n", "\n" + " " * (indent * level))
    assert dumps_indented(value, indent, level) == expected


def test_fast_json_defers_to_json_for_what_it_does_not_handle() -> None:
    # Tuples are lists; non-str keys, str subclasses: json.dumps' own rules.
    assert dumps_indented({"a": (1, 2)}, 2) == '{\n  "a": [\n    1,\n    2\n  ]\n}'
    assert dumps_indented({1: "x", 2: None}, 2) == json.dumps(
        {1: "x", 2: None}, indent=2, sort_keys=True
    )

    class Tag(str):
        pass

    assert dumps_indented([Tag("t")], 2) == '[\n  "t"\n]'
    try:
        dumps_indented([float("nan")], 2)
    except ValueError as e:
        assert "JSON compliant" in str(e)
    else:
        raise AssertionError("NaN must be refused as json.dumps refuses it")
