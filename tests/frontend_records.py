"""A Go file's syntax records as plain JSON values, read whole and without struct fields
(`struct_fields=False`, as the files of imported packages are read):
tests/test_frontend_gaps.py compares the two readings of comments on every fixture
with it, and bench/bench_parse.py's `--save` / `--compare` compare two versions of the
front end on real trees.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from markergen.golang.parser import DecodeError, GoParser
from markergen.golang.source import prepare
from markergen.golang.syntax import CommentLine, Position

ROOT = Path(__file__).resolve().parent.parent
TESTDATA = ROOT / "testdata"


def fixture_files() -> list[Path]:
    return sorted(p for p in TESTDATA.rglob("*.go") if p.is_file())


def plain(value: Any) -> Any:
    """A record as JSON values, class names kept so a changed record type shows.
    Positions and comment lines, most of the records, are written short."""
    if isinstance(value, Position):
        return f"{value.file}:{value.line}:{value.column}"
    if isinstance(value, CommentLine):
        return [value.text, plain(value.pos)]
    # by name: not a dataclass since its lines are made lazily (bench/bench_parse.py runs
    # this with older versions of markergen too)
    if type(value).__name__ == "CommentGroup":
        return {"@": "CommentGroup", "lines": plain(value.lines)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"@": type(value).__name__}
        for f in dataclasses.fields(value):
            out[f.name] = plain(getattr(value, f.name))
        return out
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    return value


def records(parser: GoParser, rel: str, data: bytes) -> Any:
    try:
        full = parser.parse(rel, data)
        bare = parser.parse_prepared(rel, prepare(rel, data), struct_fields=False)
    except DecodeError as exc:
        return {"decode_error": str(exc)}
    return {"full": plain(full), "no_fields": plain(bare)}
