"""Conformance: `+k8s:alpha(since: "1.x")=` / `+k8s:beta(since: "1.x")=` around union tags.

validation-gen marks the errors of a wrapped validation (`MarkAlpha()` / `MarkBeta()`); it
does not drop them: whether an API server enforces alpha or beta declarative validation
is the server's decision, not the generated code's. markergen records the stage in the
runtime table and on each error (`FieldError.stage`), and reports the error either way.
Cases from validation-gen's output_tests tags/levels/unions: (type, object, old, expected
(path, type, origin, stage)). Mode and enum stages are in test_k8s_modes.py and
test_k8s_enum.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from k8s_tables import PREFIX, staged_errors_of, table_of

from markergen.runtime import Table, validate
from markergen.runtime.tree import JSON


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Table]:
    _, raw, table = table_of(tmp_path_factory.mktemp("stages"), "stages.go")
    return raw, table


CASES: list[tuple[str, JSON, JSON, list[tuple[str, str, str, str]]]] = [
    ("Union", {"d": "M1", "m1": "x"}, None, []),
    ("Union", {"d": "M1"}, None, [("m1", "Invalid", "union", "alpha")]),
    ("Union", {"d": "M2", "m1": "x", "m2": "y"}, None, [("m1", "Invalid", "union", "alpha")]),
    ("Union", {"d": "M1"}, {"d": "M1"}, []),  # ratcheting is stage-blind
    ("ZeroOrOne", {"z1": "x", "z2": "y"}, None, [("", "Invalid", "zeroOrOneOf", "beta")]),
    ("ZeroOrOne", {"z1": "x"}, None, []),
    ("Stable", {}, None, [("", "Invalid", "union", "")]),
]


@pytest.mark.parametrize(("type_name", "obj", "old", "want"), CASES)
def test_stage_marks_errors(
    built: tuple[dict[str, Any], Table],
    type_name: str,
    obj: JSON,
    old: JSON,
    want: list[tuple[str, str, str, str]],
) -> None:
    _, table = built
    assert staged_errors_of(table, type_name, obj, old) == want


def test_stage_is_in_the_table_and_not_in_the_message(built: tuple[dict[str, Any], Table]) -> None:
    raw, table = built
    assert [u.get("stage") for u in raw["types"][PREFIX + "Union"]["unions"]] == ["alpha"]
    assert [u.get("stage") for u in raw["types"][PREFIX + "Stable"]["unions"]] == [None]
    [error] = validate(table, PREFIX + "ZeroOrOne", {"z1": "x", "z2": "y"})
    assert "beta" not in str(error)  # metadata, as in Kubernetes' field.Error
