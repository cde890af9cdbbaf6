"""CRD findings by rule: one fixture under testdata/crdwant/ per finding, its wants in
its own files (tests/crdwant.py says how), judged through the real command line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from crdwant import (
    ROOT,
    Finding,
    check_fixture,
    compare,
    fixtures,
    lines_kept,
    parse_wants,
    reattach_wants,
    strip_wants,
    wants_of,
    written_twice,
)

from markergen.diagnostics import CATALOG

# Fixtures whose wants hold a bug of markergen: the test passes when the bug is fixed
# (strict xfail), and then the entry goes.
KNOWN_BUGS: dict[str, str] = {
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[n]))
        if n in KNOWN_BUGS
        else n
        for n in fixtures()
    ],
)
def test_fixture(name: str, tmp_path: Path) -> None:
    problems = check_fixture(ROOT / name, tmp_path)
    assert not problems, "\n".join(problems)


def _codes(names: list[str]) -> set[str]:
    return {w.code for n in names for w in wants_of(ROOT / n)}


# MG515 is the project's API server refusing a CRD that markergen's own proof let through:
# through the command line that takes a bug of the proof (tests/test_crd_envtest.py
# provokes it by patching the proof, with the real kube-apiserver).
NEEDS_A_DISAGREEING_SERVER = {"MG515"}


def test_every_crd_code_has_a_bad_fixture() -> None:
    bad = [n for n in fixtures() if "-good" not in n]
    crd_codes = {c for c in CATALOG if c.startswith("MG5")} - NEEDS_A_DISAGREEING_SERVER
    assert sorted(crd_codes - _codes(bad)) == []


def test_good_fixtures_want_nothing_of_their_code() -> None:
    # A good fixture is named after the code it clears (`mg503-good`): no want of it.
    for name in (n for n in fixtures() if "-good" in n):
        code = name.split("-")[0].upper()
        assert code in CATALOG, name
        assert code not in _codes([name]), name


def test_every_fixture_is_named_for_a_code_it_wants() -> None:
    for name in (n for n in fixtures() if "-good" not in n):
        code = name.split("-")[0].upper()
        assert code in _codes([name]), f"{name} wants no {code}"


# The harness itself: it must fail on a finding that is missing and on one nobody wanted.

PROJECT = ROOT / "mg510-bad"


def _wanted_file(work: Path) -> Path:
    return work / "api" / "v1" / "relay_types.go"


def test_harness_reports_a_missing_finding(tmp_path: Path) -> None:
    # The kept object that the rule would reject is gone: MG510/MG511 are wanted, not found.
    copy = tmp_path / "src" / PROJECT.name
    shutil.copytree(PROJECT, copy)
    (copy / "config" / "samples" / "relay.yaml").unlink()
    problems = check_fixture(copy, tmp_path / "work")
    assert [p.split(": ")[0:2] for p in problems] == [
        ["check", "missing"],
        ["crd", "missing"],
    ], problems
    assert "MG511" in problems[0] and "MG510" in problems[1]


def test_harness_reports_an_unexpected_finding(tmp_path: Path) -> None:
    # The want comment is gone: the findings are still there and nobody wants them.
    copy = tmp_path / "src" / PROJECT.name
    shutil.copytree(PROJECT, copy)
    go = _wanted_file(copy)
    go.write_text(
        "\n".join(
            line for line in go.read_text(encoding="utf-8").split("\n") if "// want" not in line
        ),
        encoding="utf-8",
    )
    problems = check_fixture(copy, tmp_path / "work")
    assert [p.split(": ")[0:2] for p in problems] == [
        ["check", "unexpected"],
        ["crd", "unexpected"],
    ], problems
    assert "MG511" in problems[0] and "MG510" in problems[1]


def test_compare_needs_the_line_the_code_and_the_words(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("a: 1\nb: 2\n", encoding="utf-8")
    f = Finding("crd", "a.yaml", 2, 1, "MG503", "the enum differs")
    good = parse_wants(_write(tmp_path, "w.yaml", 'x: 1\ny: 2 # want "MG503" "enum"\n'), "a.yaml")
    assert compare([f], good, "crd", tmp_path) == []
    for text, kinds in (
        ('x: 1 # want "MG503" "enum"\ny: 2\n', ["unexpected", "missing"]),  # another line
        ('x: 1\ny: 2 # want "MG504" "enum"\n', ["unexpected", "missing"]),  # another code
        ('x: 1\ny: 2 # want "MG503" "default"\n', ["unexpected", "missing"]),  # other words
        ('x: 1\ny: 2 # want check "MG503"\n', ["unexpected"]),  # wanted of check only
    ):
        wants = parse_wants(_write(tmp_path, "w.yaml", text), "a.yaml")
        problems = compare([f], wants, "crd", tmp_path)
        assert [p.split(": ")[1] for p in problems] == kinds, text


def test_compare_needs_a_column_on_the_text(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text('a: 1\n  b: 2 # want "MG503"\n', encoding="utf-8")
    wants = parse_wants(tmp_path / "a.yaml", "a.yaml")
    assert compare([Finding("crd", "a.yaml", 2, 3, "MG503", "")], wants, "crd", tmp_path) == []
    for column in (2, 9, 12):  # a blank, past the text, inside the want comment
        (problem,) = compare(
            [Finding("crd", "a.yaml", 2, column, "MG503", "")], wants, "crd", tmp_path
        )
        assert problem.startswith("crd: column points at no text"), column


def _write(base: Path, name: str, text: str) -> Path:
    (base / name).write_text(text, encoding="utf-8")
    return base / name


def test_want_parsing(tmp_path: Path) -> None:
    f = _write(
        tmp_path,
        "x.go",
        'package x\n\tA int // want "MG508" "a \\"quoted\\" word" "MG509"\n'
        '\t// want crd "MG510"\n\t// +unionMember\n',
    )
    assert [(w.line, w.code, w.command, w.substring) for w in parse_wants(f, "x.go")] == [
        (2, "MG508", None, 'a "quoted" word'),
        (2, "MG509", None, None),
        (4, "MG510", "crd", None),
    ]
    y = _write(tmp_path, "y.yaml", 'a:\n  # want check "MG520" "b"\n  b: 1 # want "MG503"\n')
    assert [(w.line, w.code, w.command) for w in parse_wants(y, "y.yaml")] == [
        (3, "MG520", "check"),
        (3, "MG503", None),
    ]


def test_trailing_wants_come_off_and_go_back() -> None:
    fixture = 'a:\n  b: 1 # want "MG503"\n  c: 2\n  b: 1\n  b: 1 # want "MG508" "x"\n'
    generated = "a:\n  b: 1\n  c: 2\n  b: 1\n  b: 1\n"
    assert strip_wants(fixture) == generated
    regenerated = "a:\n  b: 1\n  d: 3\n  c: 2\n  b: 1\n  b: 1\n"
    text, lost = reattach_wants(fixture, regenerated)
    assert text == 'a:\n  b: 1 # want "MG503"\n  d: 3\n  c: 2\n  b: 1\n  b: 1 # want "MG508" "x"\n'
    assert lost == []
    text, lost = reattach_wants(fixture, "a:\n  c: 2\n")
    assert text == "a:\n  c: 2\n" and len(lost) == 2


def test_a_key_written_twice_is_reported_in_what_crd_changed(tmp_path: Path) -> None:
    source, project = tmp_path / "source", tmp_path / "project"
    for base in (source, project):
        base.mkdir()
        _write(base, "kept.yaml", "a: 1\na: 1\n")
        _write(base, "crd.yaml", "a:\n  b: 1\n")
    assert written_twice(project, source) == []  # a file crd left alone is not its output
    _write(project, "crd.yaml", "a:\n  b: 1\n  b: 1\n")
    (problem,) = written_twice(project, source)
    assert problem.startswith("crd: wrote crd.yaml, which gives a mapping key twice:")
    assert "'b' given twice" in problem


def test_a_line_crd_was_given_and_changed_is_reported(tmp_path: Path) -> None:
    source, project = tmp_path / "source", tmp_path / "project"
    for base in (source, project):
        base.mkdir()
        (base / "crd.yaml").write_bytes(b"a:\r\n  b: 1\r\n")
    assert lines_kept(project, source) == []
    (project / "crd.yaml").write_bytes(b"a:\r\n  c: 2\r\n  b: 1\r\n")  # a line added
    assert lines_kept(project, source) == []
    (project / "crd.yaml").write_bytes(b"a:\n  b: 1\n")  # the same text, other line ends
    assert lines_kept(project, source) == [
        "crd: changed line 1 of crd.yaml, b'a:\\r\\n', which it was to keep"
    ]
