"""Conformance: a list or map whose items are of a `+k8s:enum` type.

validation-gen calls the item type's validation for each list item and map value
(`validate.EachSliceVal` / `EachMapVal`), at `f[i]` / `f[key]`, each error
`NotSupported`. Ratcheting on update follows those functions: a map value equal to the
old value under the same key is not checked again; a list item is matched in the old
list only when the list is `+k8s:listType=set` (other lists have no match function, so
every item is checked). Cases: (object, old object, expected (path, type))."""

from __future__ import annotations

from typing import Any

import pytest
from k8s_tables import PREFIX, table_of

from markergen.runtime import Table, validate
from markergen.runtime.tree import JSON

PALETTE = PREFIX + "Palette"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Table]:
    _, raw, table = table_of(tmp_path_factory.mktemp("items"), "enumitems.go")
    return raw, table


CASES: list[tuple[JSON, JSON, list[tuple[str, str]]]] = [
    ({"colors": ["red", "green"]}, None, []),
    ({"colors": ["red", "blue"]}, None, [("colors[1]", "NotSupported")]),
    ({"colors": ["old"]}, None, [("colors[0]", "NotSupported")]),  # excluded
    # an atomic list is not ratcheted item by item
    ({"colors": ["old"]}, {"colors": ["old"]}, [("colors[0]", "NotSupported")]),
    ({"favorites": ["old", "red"]}, {"favorites": ["red", "old"]}, []),
    ({"favorites": ["old", "blue"]}, {"favorites": ["old"]}, [("favorites[1]", "NotSupported")]),
    ({"byName": {"a": "red", "b": "blue"}}, None, [("byName[b]", "NotSupported")]),
    ({"byName": {"a": "old"}}, {"byName": {"a": "old"}}, []),
    ({"byName": {"a": "old"}}, {"byName": {"b": "old"}}, [("byName[a]", "NotSupported")]),
    ({"names": ["anything"]}, None, []),
]


@pytest.mark.parametrize(("obj", "old", "want"), CASES)
def test_enum_items(
    built: tuple[dict[str, Any], Table], obj: JSON, old: JSON, want: list[tuple[str, str]]
) -> None:
    _, table = built
    assert [(e.path, e.type) for e in validate(table, PALETTE, obj, old)] == want


def test_table_marks_enum_lists_and_maps(built: tuple[dict[str, Any], Table]) -> None:
    raw, _ = built
    fields = raw["types"][PALETTE]["fields"]
    assert fields["colors"] == {"kind": "list", "enum": PREFIX + "Color"}
    assert fields["favorites"] == {"kind": "list", "enum": PREFIX + "Color", "setItems": True}
    assert fields["byName"] == {"kind": "map", "enum": PREFIX + "Color"}
    assert fields["names"] == {"kind": "list"}
