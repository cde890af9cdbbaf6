"""The docs, the messages and the tests stand alone: nothing cites the design notes or
KEP files that are not in this repository, and no test reads a file outside it."""

from __future__ import annotations

import re

from helpers import REPO

OUTSIDE = re.compile(r"\bDESIGN\b|\bkep/00\d|\.\./shared/|parent\.parent\.parent")


def test_docs_and_sources_cite_nothing_outside_the_repository() -> None:
    files = [REPO / "README.md", *(REPO / "docs").glob("*.md"),
             *(REPO / "markergen").rglob("*.py"), *(REPO / "tests").glob("*.py")]
    found = []
    for path in files:
        if path.name == "test_self_contained.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert found == []
