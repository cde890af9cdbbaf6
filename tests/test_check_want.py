"""The checker harness, in the style of kube-api-linter's analysistest.

Each package under testdata/check/ (one directory each, module example.com/check) marks
where diagnostics must appear with `// want` comments:

    Type int32 `json:"type"` // want "MG201" "not a string"

Every quoted string that is a code (`MG201`) expects one diagnostic with that code on
that line; a quoted string after a code is a regular expression its message must match
(re.search). A comment line holding only a `// want ...` applies to the next line: that is
how diagnostics reported at a marker line (the builder's MG003, MG203, ...) are expected,
since text after a marker would become part of the marker.

The test runs the real pipeline (tree-sitter, markers, builder) and every rule, merges
the builder's diagnostics, and fails on any missing or unexpected diagnostic, listing all
of them. The KEP's own examples (testdata/check/kep/) are checked by test_check_kep.py.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from markergen.diagnostics import CATALOG, Diagnostic
from markergen.pipeline import check_model, load_model

ROOT = Path(__file__).resolve().parent.parent / "testdata" / "check"
WANT = re.compile(r"//\s*want\s+(\".*)$")
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
CODE = re.compile(r"^MG\d{3}$")


@dataclass
class Expectation:
    file: str  # relative to ROOT
    line: int
    code: str
    pattern: str | None

    def matches(self, d: Diagnostic, file: str) -> bool:
        return (
            file == self.file
            and d.pos.line == self.line
            and d.code == self.code
            and (self.pattern is None or re.search(self.pattern, d.message) is not None)
        )

    def __str__(self) -> str:
        regexp = f" matching {self.pattern!r}" if self.pattern else ""
        return f"{self.file}:{self.line}: {self.code}{regexp}"


def _unquote(text: str) -> str:
    # Go-style escapes inside the want strings: \" and \\ only.
    return re.sub(r"\\(.)", r"\1", text)


def parse_wants(path: Path, rel: str) -> list[Expectation]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # the MG002 file is not UTF-8 on purpose
    out: list[Expectation] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = WANT.search(line)
        if match is None:
            continue
        target = number + 1 if line.strip().startswith("//") else number
        current: Expectation | None = None
        for item in QUOTED.findall(match.group(1)):
            value = _unquote(item)
            if CODE.match(value):
                current = Expectation(rel, target, value, None)
                out.append(current)
            elif current is not None and current.pattern is None:
                current.pattern = value
            else:
                raise AssertionError(f"{rel}:{number}: regexp {value!r} follows no code")
    return out


def packages() -> list[str]:
    return sorted(
        p.name
        for p in ROOT.iterdir()
        if p.is_dir() and p.name not in ("kep", "nomodule") and any(p.glob("*.go"))
    )


def compare(diags: list[Diagnostic], wants: list[Expectation], base: Path) -> list[str]:
    problems: list[str] = []
    left = list(wants)
    for d in diags:
        # Positions name files as given to the reader: relative to the cwd of load_model.
        path = Path(d.pos.file)
        file = (path.relative_to(base) if path.is_absolute() else path).as_posix()
        found = next((w for w in left if w.matches(d, file)), None)
        if found is None:
            problems.append(
                f"unexpected: {file}:{d.pos.line}:{d.pos.column}: {d.code}: {d.message}"
            )
        else:
            left.remove(found)
    problems.extend(f"missing: {w}" for w in left)
    return problems


def check_package(directory: Path, base: Path) -> list[str]:
    wants = [
        w
        for f in sorted(directory.glob("*.go"))
        for w in parse_wants(f, f.relative_to(base).as_posix())
    ]
    model = load_model([f"./{directory.relative_to(base).as_posix()}"], base)
    return compare(check_model(model), wants, base)


@pytest.mark.parametrize("name", packages())
def test_package(name: str) -> None:
    problems = check_package(ROOT / name, ROOT)
    assert not problems, "\n".join(problems)


def test_package_outside_a_module(tmp_path: Path) -> None:
    # MG006 needs a directory with no go.mod above it, which testdata/check cannot be.
    shutil.copytree(ROOT / "nomodule", tmp_path / "nomodule")
    problems = check_package(tmp_path / "nomodule", tmp_path)
    assert not problems, "\n".join(problems)


def test_every_code_is_triggered_somewhere() -> None:
    seen: set[str] = set()
    for directory in [*(ROOT / n for n in packages()), ROOT / "nomodule"]:
        for f in directory.glob("*.go"):
            seen.update(w.code for w in parse_wants(f, f.name))
    # MG5xx concern CRD YAML (`markergen crd`), not Go packages.
    go_codes = {c for c in CATALOG if not c.startswith("MG5")}
    assert sorted(go_codes - seen) == []


def test_harness_reports_missing_and_unexpected(tmp_path: Path) -> None:
    # The harness itself must be able to fail: a want that is not produced, and a
    # diagnostic nobody wanted, are both reported.
    (tmp_path / "go.mod").write_text("module example.com/h\n", encoding="utf-8")
    pkg = tmp_path / "p"
    pkg.mkdir()
    (pkg / "a.go").write_text(
        'package p\n\n// +enum\ntype E string // want "MG101"\n\n// +enum\ntype F string\n',
        encoding="utf-8",
    )
    problems = check_package(pkg, tmp_path)
    assert problems == [
        "unexpected: p/a.go:7:6: MG102: enum type F has no constants of type F in package "
        "example.com/h/p",
        "missing: p/a.go:4: MG101",
    ] or sorted(problems) == sorted(
        [
            "missing: p/a.go:4: MG101",
            "unexpected: p/a.go:4:6: MG102: enum type E has no constants of type E in package "
            "example.com/h/p",
            "unexpected: p/a.go:7:6: MG102: enum type F has no constants of type F in package "
            "example.com/h/p",
        ]
    )


def test_want_parsing(tmp_path: Path) -> None:
    f = tmp_path / "x.go"
    f.write_text(
        'package x\n\tA int // want "MG302" "a \\"quoted\\" word" "MG301"\n'
        '\t// want "MG003"\n\t// +unionDescriminator\n',
        encoding="utf-8",
    )
    wants = parse_wants(f, "x.go")
    assert [(w.line, w.code, w.pattern) for w in wants] == [
        (2, "MG302", 'a "quoted" word'),
        (2, "MG301", None),
        (4, "MG003", None),
    ]
