"""Every Go fixture file's syntax records as plain JSON, to keep the front end's output
fixed while its walk changes (tests/test_frontend_records.py compares against the golden).

Regenerate the golden (only when a record is meant to change) with:

    python tests/frontend_records.py > testdata/golang/frontend_records.json

Each fixture is read twice: whole, and without struct fields (`struct_fields=False`, as
the files of imported packages are read). The test also reads each with CRLF line ends,
which must give the records of its LF twin.
"""

from __future__ import annotations

import dataclasses
import json
import sys
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


def snapshot() -> dict[str, Any]:
    parser = GoParser()
    out: dict[str, Any] = {}
    for path in fixture_files():
        rel = path.relative_to(ROOT).as_posix()
        data = path.read_bytes()
        out[rel] = records(parser, rel, data)
    return out


if __name__ == "__main__":
    # One line per fixture: small, and a changed record shows as a changed file.
    snap = snapshot()
    sys.stdout.write("{\n")
    for i, key in enumerate(sorted(snap)):
        sep = "," if i < len(snap) - 1 else ""
        text = json.dumps(snap[key], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        sys.stdout.write(f"{json.dumps(key)}: {text}{sep}\n")
    sys.stdout.write("}\n")
