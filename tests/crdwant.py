"""The `// want` harness for CRD findings: one finding, one fixture, one test.

Each directory under testdata/crdwant/ is a small project (Go types under api/, the CRD
controller-gen writes for them under config/crd/bases/, optionally kept objects under
config/samples/ and a Makefile). Its files say where findings must appear, with comments
in the file's own syntax:

    // want crd "MG510" "would reject Relay" check "MG511"              (Go)
    description: endpoint is where ... # want "MG508" "hand-written rules"  (YAML)

Every quoted string that is a code (`MG510`) expects one finding with that code on that
line; a quoted string after a code is a substring its message must contain. A comment line
holding only a want applies to the next line that is not one (in Go, text after a marker
would become part of the marker). A command's name before a code says that only that
command reports it, until the next name; codes before any name are expected from both
`check` and `crd`.

The test copies the fixture, runs the real command line on the copy (`markergen check
--format json` first, then `markergen crd --server off`, each in a subprocess with its own
cache), and compares the findings of each command with the wants: a missing finding and
an unexpected one both fail, all listed. A finding must also point into its line: its
column at a character of the text before any want comment that is not a space, or 1 (the
whole line). Each command must exit with 1 when it found an error, else 0, and every YAML
file `crd` writes must keep every line it was given, byte for byte, and give each mapping
key once (Kubernetes' strict YAML reading,
sigs.k8s.io/yaml's YAMLToJSONStrict, refuses a key given twice).

A generated CRD cannot take a want comment on a line of its own (its lines are
controller-gen's); a want at the end of one of its lines is allowed, and
tests/cgenfixtures.py compares the file with controller-gen's output with those trailing
wants taken out (`strip_wants`), and puts them back when it rewrites the file.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from helpers import TESTDATA, run_cli

ROOT = TESTDATA / "crdwant"
SOURCES = (".go", ".yaml", ".yml")

_WANT = re.compile(r"(?://|#)\s*want\s+((?:check\s+|crd\s+)?\".*)$")
_TOKEN = re.compile(r'\s*(?:(check|crd)\b|"((?:[^"\\]|\\.)*)")')
_TRAILING_WANT = re.compile(r"[ \t]+#\s*want\b.*$")
_CODE = re.compile(r"^MG\d{3}$")
# `crd`'s diagnostics on stderr, as report.render writes them in text form
_TEXT_DIAG = re.compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<severity>\w+) (?P<code>MG\d{3}): (?P<message>.*)$"
)


def strip_wants(text: str) -> str:
    """`text` without the want comments at the ends of its lines."""
    return "\n".join(_TRAILING_WANT.sub("", line) for line in text.split("\n"))


def reattach_wants(old: str, new: str) -> tuple[str, list[str]]:
    """`new` (a regenerated file) with the trailing wants of `old` put back on the lines
    of the same text (the n-th copy of a line for the n-th), and the wants that found no
    such line."""
    wanted: dict[tuple[str, int], str] = {}
    seen: dict[str, int] = {}
    for line in old.split("\n"):
        bare = _TRAILING_WANT.sub("", line)
        n = seen[bare] = seen.get(bare, 0) + 1
        if bare != line:
            wanted[(bare, n)] = line[len(bare) :]
    out: list[str] = []
    seen = {}
    for line in new.split("\n"):
        n = seen[line] = seen.get(line, 0) + 1
        out.append(line + wanted.pop((line, n), ""))
    return "\n".join(out), [f"{bare!r}{want}" for (bare, _), want in wanted.items()]


@dataclass
class Want:
    file: str  # relative to the fixture
    line: int
    code: str
    command: str | None  # None: both
    substring: str | None = None

    def matches(self, f: Finding) -> bool:
        return (
            f.file == self.file
            and f.line == self.line
            and f.code == self.code
            and self.command in (None, f.command)
            and (self.substring is None or self.substring in f.message)
        )

    def __str__(self) -> str:
        text = f" containing {self.substring!r}" if self.substring is not None else ""
        return f"{self.file}:{self.line}: {self.code}{text}"


@dataclass(frozen=True)
class Finding:
    command: str
    file: str
    line: int
    column: int
    code: str
    message: str
    severity: str = "warning"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.code}: {self.message}"


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _alone(line: str) -> bool:
    return line.lstrip().startswith(("//", "#")) and _WANT.search(line) is not None


def parse_wants(path: Path, rel: str) -> list[Want]:
    out: list[Want] = []
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    for number, line in enumerate(lines, start=1):
        match = _WANT.search(line)
        if match is None:
            continue
        target = number
        if _alone(line):
            # the next line that is not a want of its own
            target = next(
                (n for n in range(number + 1, len(lines) + 1) if not _alone(lines[n - 1])),
                len(lines) + 1,
            )
        command: str | None = None
        current: Want | None = None
        rest = match.group(1)
        while rest.strip():
            token = _TOKEN.match(rest)
            if token is None:
                raise AssertionError(f"{rel}:{number}: cannot read the want at {rest!r}")
            rest = rest[token.end() :]
            if token.group(1) is not None:
                command, current = token.group(1), None
                continue
            value = _unquote(token.group(2))
            if _CODE.match(value):
                current = Want(rel, target, value, command)
                out.append(current)
            elif current is not None and current.substring is None:
                current.substring = value
            else:
                raise AssertionError(f"{rel}:{number}: text {value!r} follows no code")
    return out


def fixture_files(directory: Path) -> list[Path]:
    return sorted(
        p
        for p in directory.rglob("*")
        if p.is_file() and p.suffix in SOURCES and ".markergen-cache" not in p.parts
    )


def wants_of(directory: Path) -> list[Want]:
    return [w for f in fixture_files(directory) for w in parse_wants(f, _rel(f, directory))]


def _rel(path: Path, base: Path) -> str:
    return path.relative_to(base).as_posix()


def fixtures() -> list[str]:
    return sorted(p.name for p in ROOT.iterdir() if p.is_dir())


@dataclass
class Run:
    findings: list[Finding] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _env(cache: Path) -> dict[str, str]:
    return {"MARKERGEN_CACHE_DIR": str(cache), "NO_COLOR": "1", "PYTHONWARNINGS": "ignore"}


def run_check(project: Path, cache: Path) -> Run:
    res = run_cli(["check", "--format", "json", "--no-cache"], project, env=_env(cache))
    run = Run()
    if res.code not in (0, 1) or "Traceback" in res.stderr:
        run.problems.append(f"check exited {res.code}:\n{res.stderr}")
        return run
    for d in json.loads(res.stdout or "[]"):
        run.findings.append(
            Finding(
                "check", d["file"], d["line"], d["column"], d["code"], d["message"], d["severity"]
            )
        )
    _exit_code(run, res.code)
    return run


def run_crd(project: Path, cache: Path) -> Run:
    res = run_cli(["crd", "--server", "off", "--no-cache"], project, env=_env(cache))
    run = Run()
    if res.code not in (0, 1) or "Traceback" in res.stderr:
        run.problems.append(f"crd exited {res.code}:\n{res.stderr}")
        return run
    for line in res.stderr.splitlines():
        m = _TEXT_DIAG.match(line)
        if m is not None:
            run.findings.append(
                Finding(
                    "crd",
                    m["file"],
                    int(m["line"]),
                    int(m["col"]),
                    m["code"],
                    m["message"],
                    m["severity"],
                )
            )
        elif not (line.startswith(("markergen: ", "    ")) or not line.strip()):
            run.problems.append(f"crd: a line of stderr that is no finding: {line!r}")
    _exit_code(run, res.code)
    return run


class _OneKeyOnce(yaml.SafeLoader):
    """YAML as Kubernetes reads it strictly, in one respect: a mapping key given twice is an
    error (sigs.k8s.io/yaml's YAMLToJSONStrict: `key "enum" already set in map`)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[object, object]:
        keys: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)  # type: ignore[no-untyped-call]
            if key in keys:
                raise yaml.constructor.ConstructorError(
                    None, None, f"mapping key {key!r} given twice", key_node.start_mark
                )
            keys.add(key)
        return super().construct_mapping(node, deep=deep)


def written_twice(project: Path, source: Path) -> list[str]:
    """The YAML files `crd` changed in `project` (a copy of `source`) that give a mapping key
    twice: what the command writes must stay YAML that Kubernetes' own tools read."""
    problems = []
    for path in fixture_files(project):
        if path.suffix == ".go":
            continue
        before = source / _rel(path, project)
        if before.is_file() and before.read_bytes() == path.read_bytes():
            continue
        try:
            # a Helm chart's copy: whole template lines around the documents are not YAML
            text = "".join(
                "\n" if line.lstrip().startswith("{{") else line
                for line in path.read_text(encoding="utf-8").splitlines(keepends=True)
            )
            list(yaml.load_all(text, Loader=_OneKeyOnce))
        except yaml.YAMLError as e:
            problems.append(
                f"crd: wrote {_rel(path, project)}, which gives a mapping key twice: {e}"
            )
    return problems


def lines_kept(project: Path, source: Path) -> list[str]:
    """The files `crd` changed in `project` (a copy of `source`) where a line it was given is
    not kept byte for byte, line end included: the command adds lines to a CRD's text and
    changes none (docs/kubebuilder.md, "Byte fidelity")."""
    problems = []
    for path in fixture_files(project):
        before = source / _rel(path, project)
        if path.suffix == ".go" or not before.is_file():
            continue
        old = before.read_bytes().splitlines(keepends=True)
        new = iter(path.read_bytes().splitlines(keepends=True))
        for number, line in enumerate(old, start=1):
            if not any(line == added for added in new):
                problems.append(
                    f"crd: changed line {number} of {_rel(path, project)}, {line!r}, "
                    "which it was to keep"
                )
                break
    return problems


def _exit_code(run: Run, code: int) -> None:
    # 1 when an error is found, else 0 (warnings and notes do not fail a run)
    errors = [f for f in run.findings if f.severity == "error"]
    if code != (1 if errors else 0):
        run.problems.append(f"exit code {code} with {len(errors)} error(s) found")


def _points_into_line(f: Finding, source: Path) -> bool:
    """Whether `f` is at a character of its line's text in the fixture as written (the
    commands' copy may be patched since): column 1 stands for the whole line."""
    path = source / f.file
    if not path.is_file():
        return False
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    if not 1 <= f.line <= len(lines):
        return False
    text = _TRAILING_WANT.sub("", lines[f.line - 1])
    return f.column == 1 or (f.column <= len(text) and text[f.column - 1] != " ")


def compare(findings: list[Finding], wants: list[Want], command: str, source: Path) -> list[str]:
    problems: list[str] = []
    left = [w for w in wants if w.command in (None, command)]
    for f in findings:
        found = next((w for w in left if w.matches(f)), None)
        if found is None:
            problems.append(f"{command}: unexpected: {f}")
            continue
        left.remove(found)
        if not _points_into_line(f, source):
            problems.append(f"{command}: column points at no text of its line: {f}")
    problems.extend(f"{command}: missing: {w}" for w in left)
    return problems


def check_fixture(directory: Path, work: Path) -> list[str]:
    """Every difference between the fixture's wants and what `check` and `crd` report."""
    project = work / directory.name
    shutil.copytree(directory, project, symlinks=False)
    wants = wants_of(project)
    problems: list[str] = []
    for command, runner in (("check", run_check), ("crd", run_crd)):
        run = runner(project, work / f"cache-{command}")
        problems.extend(run.problems)
        problems.extend(compare(run.findings, wants, command, directory))
    problems.extend(written_twice(project, directory))
    problems.extend(lines_kept(project, directory))
    return problems
