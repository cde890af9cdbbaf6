"""Robustness of the runtime: objects of the wrong shape, 10,000-deep nesting and huge lists give
FieldErrors or UnionError, never another exception or RecursionError.

The table is generated from real Go source by the real pipeline (front end, builder,
table emitter), not written by hand.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.pipeline import load_model
from markergen.runtime import (
    FieldError,
    Table,
    UnionError,
    apply_patch,
    normalize,
    normalize_apply,
    validate,
)

SOURCE = """package v1

// +enum
type Kind string

const (
\tKindLeaf Kind = "Leaf"
\tKindNode Kind = "Node"
\tKindNone Kind = ""
)

// Tree is recursive: a node holds a child of its own type, a list and a map of them.
type Tree struct {
\t// +unionDiscriminator
\t// +optional
\tKind Kind `json:"kind,omitempty"`
\t// +unionMember
\t// +optional
\tLeaf *string `json:"leaf,omitempty"`
\t// +unionMember
\t// +optional
\tNode *Tree `json:"node,omitempty"`
\t// +listType=map
\t// +listMapKey=name
\t// +optional
\tItems []Item `json:"items,omitempty"`
\t// +optional
\tByName map[string]Tree `json:"byName,omitempty"`
}

type Item struct {
\tName string `json:"name"`
\t// +optional
\tTree *Tree `json:"tree,omitempty"`
}
"""
TREE = "com.example.rt.v1.Tree"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    root = tmp_path_factory.mktemp("rt")
    (root / "go.mod").write_text("module example.com/rt\n")
    (root / "v1").mkdir()
    (root / "v1" / "types.go").write_text(SOURCE)
    model = load_model(["./v1"], root)
    data = build_table(model, EmitOptions())
    # Through JSON, as a user loads unions_table.json.
    t = Table.from_dict(json.loads(json.dumps(data)))
    assert TREE in t.types, sorted(t.types)
    return t


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5)
    | st.sampled_from(["Leaf", "Node", ""]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(
        st.sampled_from(["kind", "leaf", "node", "items", "byName", "name", "tree", "x"]),
        inner,
        max_size=5,
    ),
    max_leaves=25,
)


def _fingerprint(value: Any) -> list[tuple[Any, ...]]:
    """Every (depth, key, scalar or container kind) in order; iterative, so 10,000-deep
    values can be compared without RecursionError (copy.deepcopy and == recurse)."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[int, Any, Any]] = [(0, None, value)]
    while stack:
        depth, key, v = stack.pop()
        if isinstance(v, dict):
            out.append((depth, key, "dict", len(v), id(v)))
            stack.extend((depth + 1, k, x) for k, x in reversed(list(v.items())))
        elif isinstance(v, list):
            out.append((depth, key, "list", len(v), id(v)))
            stack.extend((depth + 1, i, x) for i, x in reversed(list(enumerate(v))))
        else:
            out.append((depth, key, type(v).__name__, v))
    return out


def _all_calls(table: Table, old: Any, new: Any) -> None:
    old_copy, new_copy = _fingerprint(old), _fingerprint(new)
    errors = validate(table, TREE, new, old)
    assert all(isinstance(e, FieldError) and e.path is not None for e in errors)
    calls: tuple[Callable[[Table, str, Any, Any], Any], ...] = (
        normalize, normalize_apply, apply_patch
    )
    for call in calls:
        try:
            call(table, TREE, old, new)
        except UnionError as e:
            assert all(isinstance(x, FieldError) for x in e.errors)
    # ids included: the same containers, with the same content
    assert _fingerprint(old) == old_copy and _fingerprint(new) == new_copy, "input mutated"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(old=JSON_VALUES, new=JSON_VALUES)
def test_wrong_shapes_give_field_errors_and_mutate_nothing(
    table: Table, old: Any, new: Any
) -> None:
    _all_calls(table, old, new)


def _deep(depth: int, leaf: str) -> dict[str, Any]:
    obj: dict[str, Any] = {"kind": "Leaf", "leaf": leaf}
    for _ in range(depth):
        obj = {"kind": "Node", "node": obj}
    return obj


def test_ten_thousand_deep_nesting(table: Table) -> None:
    old = _deep(10_000, "a")
    new = _deep(10_000, "b")
    # break the innermost object: both a leaf and a node set, and the kind unchanged
    inner = new
    for _ in range(10_000):
        inner = inner["node"]
    inner["node"] = {"kind": "Leaf", "leaf": "c"}
    _all_calls(table, old, new)
    errors = validate(table, TREE, new, old)
    assert len(errors) >= 1
    assert errors[0].path == "node." * 10_000 + "kind", errors[0].path[-40:]


def test_huge_lists_and_maps(table: Table) -> None:
    items: list[dict[str, Any]] = [
        {"name": f"n{i}", "tree": {"kind": "Leaf", "leaf": "x"}} for i in range(100_000)
    ]
    items[77_777]["tree"]["node"] = {}  # one bad element deep in the list
    by_name: dict[str, dict[str, Any]] = {f"k{i}": {"kind": "Node", "node": {}} for i in range(20_000)}
    by_name["k5"]["leaf"] = "both"
    new = {"items": items, "byName": by_name}
    _all_calls(table, {"items": items[:10]}, new)
    paths = [e.path for e in validate(table, TREE, new)]
    assert any(p.startswith("items[name=n77777].tree") for p in paths), paths[:5]
    assert any(p.startswith("byName[k5]") for p in paths), paths[:5]


@pytest.mark.parametrize(
    "obj",
    [None, 1, "x", [], [{}], {"node": 5}, {"items": {"a": 1}}, {"items": [1, None, "s"]},
     {"byName": [1]}, {"byName": {"a": 3}}, {"kind": 7}, {"kind": ["Leaf"]}, {"items": [{}]}],
)
def test_each_wrong_shape_is_a_field_error(table: Table, obj: Any) -> None:
    before = copy.deepcopy(obj)
    errors = validate(table, TREE, obj)
    assert obj == before and type(obj) is type(before)
    if not isinstance(obj, dict) or obj in ({"node": 5}, {"items": {"a": 1}}, {"byName": [1]}):
        assert errors, obj
        assert any(e.type == "Invalid" for e in errors), [str(e) for e in errors]
    _all_calls(table, None, obj)


def test_table_file_of_the_wrong_shape_is_a_table_error(tmp_path: Path) -> None:
    from markergen.runtime import TableError

    for text in ("", "[]", '{"version": 1}', '{"version": 1, "types": {"T": {"fields": 3}}}',
                 '{"version": 1, "types": {"T": {"unions": [{"members": "x"}]}}}', "\x00"):
        path = tmp_path / "t.json"
        path.write_text(text)
        with pytest.raises(TableError):
            Table.load(path)
