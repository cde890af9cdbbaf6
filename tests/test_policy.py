"""markergen.policy: severity overrides, `off`, warnings-as-errors, ignore comments."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import TESTDATA

from markergen.diagnostics import Severity
from markergen.pipeline import check_model, load_model
from markergen.policy import PolicyError, make_policy


def _model(tmp_path: Path, package: str):  # type: ignore[no-untyped-def]
    root = tmp_path / "m"
    (root / package).mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/m\n\ngo 1.24\n")
    for f in (TESTDATA / "check" / package).glob("*.go"):
        shutil.copy(f, root / package / f.name)
    return load_model(["./..."], root)


def test_without_policy_ignores_apply(tmp_path: Path) -> None:
    diags = check_model(_model(tmp_path, "ignores"))
    assert sorted((d.code, d.pos.line) for d in diags) == [
        ("MG010", 48),
        ("MG011", 59),
        ("MG302", 28),
        ("MG302", 62),
    ]


def test_severity_override_and_off(tmp_path: Path) -> None:
    model = _model(tmp_path, "ignores")
    policy = make_policy(severity={"mg302": "error", "MG010": "off"})
    diags = check_model(model, policy)
    assert sorted((d.code, d.severity.value) for d in diags) == [
        ("MG011", "warning"),
        ("MG302", "error"),
        ("MG302", "error"),
    ]


def test_warnings_as_errors_leaves_infos(tmp_path: Path) -> None:
    diags = check_model(_model(tmp_path, "gateway"), make_policy(warnings_as_errors=True))
    assert [(d.code, d.severity) for d in diags] == [("MG205", Severity.INFO)]
    diags = check_model(_model(tmp_path / "b", "ignores"), make_policy(warnings_as_errors=True))
    assert {d.severity for d in diags} == {Severity.ERROR}


def test_policy_errors_name_the_bad_entry() -> None:
    with pytest.raises(PolicyError, match="unknown code 'MG999'"):
        make_policy(severity={"MG999": "off"})
    with pytest.raises(PolicyError, match="'loud' is not one of error, warning, info, off"):
        make_policy(severity={"MG302": "loud"})
