"""The hints of validation-gen's misuse codes (MG115-MG119, MG330-MG333) work: each is
applied, as the edit it spells out, to the bad example of the code's docs/rules.md
section, until the check reports the code no more.

Every hint names a concrete edit: replace a text on the marker line, delete the line,
rewrite the field's type, or write marker lines above a named field. A hint that stops
naming one of these edits fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from markergen.diagnostics import Diagnostic
from markergen.explain import examples, sections
from markergen.pipeline import check_model, load_model

CODES = ["MG115", "MG116", "MG117", "MG118", "MG119", "MG330", "MG331", "MG332", "MG333"]
REPLACE = re.compile(r"replace `([^`]+)` with `([^`]*)` on this line")
FIELD_AS = re.compile(r"write the field as `(\w+) ([^`]+)`")
MOVE = re.compile(r"delete this line and write `(// [^`]+)` above (\w+) in (\w+)")
ABOVE = re.compile(r"write `(// [^`]+)` and `(// [^`]+)` above (\w+)")


def _check(root: Path) -> list[Diagnostic]:
    return check_model(load_model(["./..."], root))


def _field_line(lines: list[str], go_field: str, struct: str | None = None, start: int = 0) -> int:
    if struct is not None:
        start = next(i for i, t in enumerate(lines) if re.match(rf"type {struct} struct", t))
    return next(i for i in range(start, len(lines)) if re.match(rf"\s*{go_field}\s", lines[i]))


def _above(lines: list[str], at: int, texts: list[str]) -> None:
    start = at
    while start > 0 and lines[start - 1].strip().startswith("//"):
        start -= 1
    indent = re.match(r"\s*", lines[at]).group(0)  # type: ignore[union-attr]
    for t in reversed(texts):
        lines.insert(start, indent + t)


def apply_hint(path: Path, d: Diagnostic) -> None:
    """Apply the edit `d.hint` names; fail when it names none."""
    assert d.hint is not None
    lines = path.read_text(encoding="utf-8").split("\n")
    i = d.pos.line - 1
    if m := MOVE.search(d.hint):
        del lines[i]
        _above(lines, _field_line(lines, m.group(2), m.group(3)), [m.group(1)])
    elif m := REPLACE.search(d.hint):
        assert m.group(1) in lines[i], (d.hint, lines[i])
        lines[i] = lines[i].replace(m.group(1), m.group(2), 1)
    elif m := FIELD_AS.search(d.hint):
        at = _field_line(lines, m.group(1), start=i)
        lines[at] = re.sub(rf"^(\s*{m.group(1)}\s+)\S+", rf"\g<1>{m.group(2)}", lines[at])
    elif m := ABOVE.search(d.hint):
        _above(lines, _field_line(lines, m.group(3), start=i), [m.group(1), m.group(2)])
    elif d.hint.startswith("delete this line"):
        del lines[i]
    else:
        raise AssertionError(f"{d.code}: the hint names no edit: {d.hint}")
    path.write_text("\n".join(lines), encoding="utf-8")


@pytest.mark.parametrize("code", CODES)
def test_hint_fixes_the_bad_example(code: str, tmp_path: Path) -> None:
    bad, _ = examples(sections()[code])
    (tmp_path / "go.mod").write_text("module example.com/doc\n\ngo 1.24\n", encoding="utf-8")
    (tmp_path / "v1").mkdir()
    path = tmp_path / "v1" / "types.go"
    path.write_text(bad, encoding="utf-8")
    applied = 0
    while found := [d for d in _check(tmp_path) if d.code == code]:
        assert applied < 4, f"{code} stays after {applied} edits: {found[0].message}"
        apply_hint(tmp_path / found[0].pos.file, found[0])
        applied += 1
    assert applied >= 1
    # and validation-gen's misuse codes are all gone (rules of the KEP, such as MG301 for a
    # member that is not optional, may still have their say on the fixed union)
    left = [d.code for d in _check(tmp_path) if d.code in CODES]
    assert left == []


def test_hint_fixes_the_fixture(tmp_path: Path) -> None:
    """The real-shaped fixture of testdata/check/k8swrap: every misuse there is fixed by
    its own hint, one edit at a time."""
    from helpers import TESTDATA

    (tmp_path / "go.mod").write_text("module example.com/m\n\ngo 1.24\n", encoding="utf-8")
    (tmp_path / "k8swrap").mkdir()
    path = tmp_path / "k8swrap" / "types.go"
    path.write_text((TESTDATA / "check" / "k8swrap" / "types.go").read_text(), encoding="utf-8")
    wanted = set(CODES)
    seen: set[str] = set()
    for _ in range(40):
        found = [d for d in _check(tmp_path) if d.code in wanted]
        if not found:
            break
        seen.add(found[0].code)
        apply_hint(tmp_path / found[0].pos.file, found[0])
    assert [d.code for d in _check(tmp_path) if d.code in wanted] == []
    assert seen == wanted
