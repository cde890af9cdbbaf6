"""The catalog of diagnostic codes (markergen/diagnostics.py) is the one declaration of
every code: each code markergen's source raises is in it, each code in it is raised
somewhere and documented in docs/rules.md under its catalog title."""

from __future__ import annotations

import ast
import re

import pytest
from helpers import REPO

from markergen.diagnostics import CATALOG, diag
from markergen.explain import sections
from markergen.golang.syntax import Position

CODE = re.compile(r"^MG\d{3}$")


def codes_in_source() -> dict[str, list[str]]:
    """Every `MGnnn` string literal of the package (outside the catalog) → where."""
    found: dict[str, list[str]] = {}
    for path in sorted((REPO / "markergen").rglob("*.py")):
        if path.name == "diagnostics.py" and path.parent.name == "markergen":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
            if is_text and CODE.match(node.value):
                where = f"{path.relative_to(REPO)}:{node.lineno}"
                found.setdefault(node.value, []).append(where)
    return found


def test_every_code_the_source_uses_is_declared() -> None:
    undeclared = {c: w for c, w in codes_in_source().items() if c not in CATALOG}
    assert undeclared == {}


def test_every_declared_code_is_raised_somewhere() -> None:
    used = codes_in_source()
    assert sorted(c for c in CATALOG if c not in used) == []


def test_docs_headings_are_the_catalog_titles() -> None:
    docs = sections()
    assert sorted(docs) == sorted(CATALOG)
    for code, info in CATALOG.items():
        heading = docs[code].splitlines()[0]
        assert heading == f"## {code}: {info.title}"


def test_raising_an_undeclared_code_fails_loudly() -> None:
    with pytest.raises(KeyError):
        diag("MG999", Position("x.go", 1, 1), "no such code")
    assert diag("MG205", Position("x.go", 1, 1), "m").severity is CATALOG["MG205"].severity


def severity_table() -> str:
    rows = ["| code | severity | what |", "|---|---|---|"]
    for code, info in sorted(CATALOG.items()):
        rows.append(f"| [{code}](#{code.lower()}) | {info.severity.value} | {info.title} |")
    return "\n".join(rows)


def test_the_severity_table_of_the_docs_is_the_catalog() -> None:
    doc = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    table = doc.split("<!-- severities:start -->\n")[1].split("\n<!-- severities:end -->")[0]
    assert table == severity_table()
