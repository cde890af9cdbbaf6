"""The front end's records of every Go fixture file equal the snapshot taken before its
walk was rewritten (declaration nodes only, comments read from the bytes between them).
The golden is regenerated only by `python tests/frontend_records.py >
testdata/golang/frontend_records.json`, when a record is meant to change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from frontend_records import ROOT, fixture_files, records

from markergen.golang.parser import GoParser

GOLDEN = ROOT / "testdata" / "golang" / "frontend_records.json"


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def test_the_golden_covers_every_fixture(golden: dict[str, Any]) -> None:
    names = {p.relative_to(ROOT).as_posix() for p in fixture_files()}
    assert names == set(golden)
    assert len(names) > 100


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_records_equal_the_golden(path: Path, golden: dict[str, Any]) -> None:
    rel = path.relative_to(ROOT).as_posix()
    data = path.read_bytes()
    parser = GoParser()
    assert records(parser, rel, data) == golden[rel]
    crlf = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    assert records(parser, rel, crlf) == golden[rel]
