"""The catalog of diagnostic codes (markergen/diagnostics.py) is the one declaration of
every code: each code markergen's source raises is in it, each code in it is raised
somewhere and documented in docs/rules.md under its catalog title."""

from __future__ import annotations

import ast
import re

import pytest
from helpers import REPO

from markergen.diagnostics import CATALOG, diag, severity_markdown
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


def test_the_severity_table_of_the_docs_is_the_catalog() -> None:
    doc = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    table = doc.split("<!-- severities:start -->\n")[1].split("\n<!-- severities:end -->")[0]
    # Regenerate: python -c 'import markergen.diagnostics as d; print(d.severity_markdown())'
    assert table == severity_markdown()


def test_every_diagnostic_without_a_call_site_hint_gets_the_catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    import markergen.diagnostics as d

    patched = dict(d.CATALOG)
    patched["MG205"] = dataclasses.replace(d.CATALOG["MG205"], hint="mark {field} as a member")
    monkeypatch.setattr(d, "CATALOG", patched)
    pos = Position("x.go", 1, 1)
    assert d.diag("MG205", pos, "m", fill={"field": "Alpha"}).hint == "mark Alpha as a member"
    assert d.diag("MG205", pos, "m", hint="the call site's").hint == "the call site's"


def test_every_diagnostic_has_a_hint_from_its_call_site_or_the_catalog() -> None:
    missing = []
    for path in sorted((REPO / "markergen").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "diag"):
                continue
            if any(k.arg == "hint" for k in node.keywords):
                continue
            codes = [a.value for a in node.args if isinstance(a, ast.Constant)
                     and isinstance(a.value, str) and CODE.match(a.value)]
            missing += [f"{path.relative_to(REPO)}:{node.lineno} {c}" for c in codes
                        if CATALOG[c].hint is None]
    assert missing == []
