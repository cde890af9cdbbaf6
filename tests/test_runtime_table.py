"""Table loading: the JSON table's shape checks, semantics override."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import pytest

from markergen.runtime import Table, TableError

DATA = Path(__file__).resolve().parent.parent / "testdata" / "runtime"


def good() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "kep004.json").read_text(encoding="utf-8"))
    return data


def test_loads_the_design_example_shape() -> None:
    t = Table.load(DATA / "kep004.json")
    u = t.type("io.example.v1.Union").unions[0]
    assert u.discriminator == "unionType" and u.discriminator_required
    assert [(m.field, m.value, m.optional) for m in u.members] == [
        ("fieldA", "FieldA", False),
        ("fieldB", "FieldB", True),
    ]
    assert t.type("io.example.v1.DeploymentSpec").strategies("volumes") == ("merge", "retainKeys")


def test_from_module_reads_TABLE() -> None:
    mod = types.ModuleType("unions_table")
    mod.TABLE = good()  # type: ignore[attr-defined]
    assert Table.from_module(mod) == Table.from_dict(good())
    with pytest.raises(TableError, match="no TABLE"):
        Table.from_module(types.ModuleType("empty"))


def test_semantics_override() -> None:
    t = Table.load(DATA / "kep004.json", semantics="smd")
    assert {u.semantics for ti in t.types.values() for u in ti.unions} == {"smd"}
    with pytest.raises(TableError, match="semantics"):
        Table.load(DATA / "kep004.json", semantics="nope")


def _break(mutate: Any) -> dict[str, Any]:
    d = good()
    mutate(d)
    return d


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ([], "table"),
        ({"types": {}}, "table"),
        ({"version": 2, "types": {}}, "table.version"),
        ({"version": True, "types": {}}, "table.version"),
        ({"version": 1}, "table"),
        ({"version": 1, "types": []}, "types"),
        (
            _break(
                lambda d: d["types"]["io.example.v1.Union"]["fields"]["fieldA"].update(kind="blob")
            ),
            "fields['fieldA'].kind",
        ),
        (
            _break(lambda d: d["types"]["io.example.v1.Union"]["fields"]["fieldA"].pop("kind")),
            "fields['fieldA']",
        ),
        (_break(lambda d: d["types"]["io.example.v1.Union"].update(unions={})), "unions"),
        (
            _break(lambda d: d["types"]["io.example.v1.Union"]["unions"][0].update(members=None)),
            "members",
        ),
        (
            _break(
                lambda d: d["types"]["io.example.v1.Union"]["unions"][0]["members"][0].pop("value")
            ),
            "members[0]",
        ),
        (
            _break(
                lambda d: d["types"]["io.example.v1.Union"]["unions"][0]["members"][1].update(
                    field="fieldA"
                )
            ),
            "members[1]",
        ),
        (
            _break(
                lambda d: d["types"]["io.example.v1.Union"]["unions"][0]["members"][0].update(
                    optional="no"
                )
            ),
            "optional",
        ),
        (
            _break(lambda d: d["types"]["io.example.v1.Union"]["unions"][0].update(semantics="x")),
            "semantics",
        ),
        (
            _break(lambda d: d["types"]["io.example.v1.Union"]["unions"][0].update(mode="one")),
            "mode",
        ),
        (
            _break(lambda d: d["types"]["io.example.v1.Union"]["unions"][0].update(values=[1])),
            "values[0]",
        ),
        (
            _break(
                lambda d: d["types"]["io.example.v1.Union"]["unions"][0].update(discriminator=5)
            ),
            "discriminator",
        ),
        (
            _break(
                lambda d: d["types"]["io.example.v1.DeploymentSpec"].update(
                    patchStrategies={"a": 1}
                )
            ),
            "patchStrategies",
        ),
    ],
)
def test_malformed_tables_raise_table_error(data: Any, where: str) -> None:
    with pytest.raises(TableError) as info:
        Table.from_dict(data)
    assert where in str(info.value)


def test_load_reports_file_and_json_position(tmp_path: Path) -> None:
    p = tmp_path / "t.json"
    p.write_text('{"version": 1,\n "types": {,}}', encoding="utf-8")
    with pytest.raises(TableError, match=r"t\.json:2:"):
        Table.load(p)
    with pytest.raises(TableError, match=r"missing\.json: no runtime table here: `markergen generate` writes it"):
        Table.load(tmp_path / "missing.json")
    with pytest.raises(TableError, match="cannot read"):
        Table.load(tmp_path)  # a directory
    p.write_text('{"version": 1, "types": {"a": {"fields": {"x": {"kind": 1}}}}}', encoding="utf-8")
    with pytest.raises(TableError, match=r"t\.json"):
        Table.load(p)


def test_unknown_type_name_is_a_table_error() -> None:
    from markergen.runtime import validate

    with pytest.raises(TableError, match="unknown type"):
        validate(Table.from_dict(good()), "io.example.v1.Nope", {})
