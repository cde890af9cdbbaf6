"""`check --format text|json|github|sarif`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import TESTDATA

from markergen.diagnostics import CATALOG, Diagnostic, Severity, diag
from markergen.golang.syntax import Position
from markergen.report import FORMATS, display_path, render, sarif_document

SCHEMA = TESTDATA / "schemas" / "sarif-schema-2.1.0.json"
CWD = Path("/repo")


def diags() -> list[Diagnostic]:
    # Given out of order: every format sorts by file, line, column, code.
    return [
        diag("MG302", Position("/repo/api/v1/types.go", 20, 2), "member Beta, cannot be unset"),
        diag(
            "MG303",
            Position("/repo/api/v1/types.go", 20, 2),
            'member Beta of union Union2.type has value "BETA", which is not a value of '
            'enum Union2Type ("ALPHA")',
            hint="add a constant",
        ),
        diag(
            "MG201",
            Position("/repo/api/v1/a.go", 3, 7),
            "100% wrong:\r\nreally",
            severity=Severity.WARNING,
        ),
        Diagnostic(Position("/elsewhere/x.go", 1, 1), "MG001", Severity.INFO, "info note"),
    ]


def test_text() -> None:
    assert render(diags(), "text", CWD) == (
        "../elsewhere/x.go:1:1: info MG001: info note\n"
        "api/v1/a.go:3:7: warning MG201: 100% wrong:\r\nreally\n"
        "api/v1/types.go:20:2: warning MG302: member Beta, cannot be unset\n"
        'api/v1/types.go:20:2: error MG303: member Beta of union Union2.type has value "BETA", '
        'which is not a value of enum Union2Type ("ALPHA")\n'
        "    hint: add a constant\n"
    )


def test_relative_paths_stay_as_given() -> None:
    assert display_path("api/x.go", CWD) == "api/x.go"
    assert display_path("/repo/api/x.go", CWD) == "api/x.go"


def test_json_exact_keys() -> None:
    out = render(diags(), "json", CWD)
    assert out.endswith("]\n")
    data = json.loads(out)
    assert [d["code"] for d in data] == ["MG001", "MG201", "MG302", "MG303"]
    assert data[3] == {
        "code": "MG303",
        "severity": "error",
        "message": data[3]["message"],
        "file": "api/v1/types.go",
        "line": 20,
        "column": 2,
        "hint": "add a constant",
    }
    assert "hint" not in data[2]
    assert set(data[1]) == {"code", "severity", "message", "file", "line", "column"}
    assert data[1]["severity"] == "warning" and data[0]["severity"] == "info"


def test_json_empty_is_an_array() -> None:
    assert render([], "json", CWD) == "[]\n"


def test_github_escaping() -> None:
    lines = render(diags(), "github", Path("/")).splitlines()
    assert lines[0] == "::notice file=elsewhere/x.go,line=1,col=1,title=MG001::info note"
    # Data escapes %, CR and LF; the message's ':' and ',' stay.
    assert lines[1] == (
        "::warning file=repo/api/v1/a.go,line=3,col=7,title=MG201::100%25 wrong:%0D%0Areally"
    )
    assert lines[3].startswith("::error file=repo/api/v1/types.go,line=20,col=2,title=MG303::")
    assert lines[3].endswith("%0Ahint: add a constant")


def test_github_property_escaping() -> None:
    weird = diag("MG302", Position("/w/a,b:c%.go", 1, 1), "m")
    assert render([weird], "github", Path("/w")) == (
        "::warning file=a%2Cb%3Ac%25.go,line=1,col=1,title=MG302::m\n"
    )


def _schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return data


def test_sarif_validates_against_the_schema() -> None:
    doc = json.loads(render(diags(), "sarif", CWD))
    jsonschema.validate(doc, _schema())
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted(CATALOG)
    mg303 = next(r for r in rules if r["id"] == "MG303")
    assert mg303["helpUri"] == "docs/rules.md#mg303"
    assert mg303["defaultConfiguration"] == {"level": "error"}
    assert mg303["name"] == "MemberSDiscriminatorValueIsNotInTheDiscriminatorSEnum"
    # The full description is the first paragraph of docs/rules.md's section.
    assert mg303["fullDescription"]["text"].startswith("The value that selects a member")
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["MG001", "MG201", "MG302", "MG303"]
    assert [r["level"] for r in results] == ["note", "warning", "warning", "error"]
    last = results[3]
    assert rules[last["ruleIndex"]]["id"] == "MG303"
    assert last["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "api/v1/types.go"},
        "region": {"startLine": 20, "startColumn": 2},
    }


def test_sarif_empty_run_validates() -> None:
    doc = sarif_document([], CWD, help_base="https://example.com/rules.md")
    jsonschema.validate(doc, _schema())
    assert doc["runs"][0]["results"] == []
    assert doc["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] == (
        "https://example.com/rules.md#mg001"
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_deterministic_whatever_the_input_order(fmt: str) -> None:
    assert render(diags(), fmt, CWD) == render(list(reversed(diags())), fmt, CWD)


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format 'xml'; use one of: text, json"):
        render([], "xml", CWD)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_names_files_from_the_repository_top(tmp_path: Path, fmt: str) -> None:
    """A project in a sub-directory of its repository, checked from there: every format
    names the file from the repository's top, as `markergen diff` does and as GitHub and
    SARIF place annotations (a path from the sub-directory points at no file)."""
    (tmp_path / ".git").mkdir()
    project = tmp_path / "operator"
    project.mkdir()
    d = diag("MG303", Position("api/v1/types.go", 3, 4), "member value is no enum value")
    text = render([d], fmt, project)
    assert "operator/api/v1/types.go" in text
    outside = tmp_path.parent / (tmp_path.name + "-nogit")
    outside.mkdir()
    assert "operator/" not in render([d], fmt, outside)
