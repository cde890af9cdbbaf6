"""A `+k8s:enum` type in a package that runs no validation-gen (a kubebuilder project:
controller-gen writes the enum into the CRD schema): `markergen validate` checks a value
present, never an absent or null field, as the API server does (corpus: 20 of 75 kept
objects of one project were rejected with `Unsupported value: ""` for absent fields)."""

from __future__ import annotations

import shutil

import pytest
from helpers import TESTDATA

from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.pipeline import load_model
from markergen.runtime import Table, validate
from markergen.runtime.tree import JSON

TYPE = "com.example.api.v1.ExtAuth"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    root = tmp_path_factory.mktemp("crdenum")
    (root / "go.mod").write_text("module example.com\n\ngo 1.24\n", encoding="utf-8")
    (root / "api" / "v1").mkdir(parents=True)
    shutil.copy(TESTDATA / "runtime" / "crdenum" / "types.go", root / "api" / "v1" / "types.go")
    model = load_model(["./..."], root)
    return Table.from_dict(build_table(model, EmitOptions()))


def errors(table: Table, obj: JSON) -> list[tuple[str, str]]:
    return [(e.path, e.type) for e in validate(table, TYPE, obj)]


@pytest.mark.parametrize("obj", [{}, {"failureMode": None}, {"failureMode": "FailOpen"}])
def test_absent_null_or_valid_is_accepted(table: Table, obj: JSON) -> None:
    assert errors(table, obj) == []


@pytest.mark.parametrize("value", ["", "Sometimes"])
def test_a_value_present_is_checked(table: Table, value: str) -> None:
    assert errors(table, {"failureMode": value}) == [("failureMode", "NotSupported")]


def test_list_items_are_checked(table: Table) -> None:
    assert errors(table, {"modes": ["FailOpen", "x"]}) == [("modes[1]", "NotSupported")]


def test_a_requiredness_tag_keeps_validation_gens_reading(table: Table) -> None:
    assert table.types[TYPE].fields["tagged"].unset_not_checked
    assert not table.types[TYPE].fields["tagged"].absent_not_checked
    assert table.types[TYPE].fields["failureMode"].absent_not_checked
    assert errors(table, {"tagged": "x"}) == [("tagged", "NotSupported")]
