"""Where controller-gen writes CRDs, read from the project's Makefile (and the `*.mk` files
it includes), so that `markergen crd` with no path patches what `make manifests` wrote.

controller-gen's options (`controller-gen crd --help`): `output:crd:artifacts:config=DIR`
and `output:crd:dir=DIR` set where the crd generator writes, `output:dir=DIR` sets every
generator's directory, and `paths=...` names the Go packages it reads. Without any
controller-gen line, kubebuilder's layout applies: `config/crd/bases`.
"""

from __future__ import annotations

import glob
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
DEFAULT_DIR = Path("config/crd/bases")
_ASSIGN = re.compile(
    r"^\s*(?:export\s+|override\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*(\?=|:=|::=|=|\+=)\s*(.*)$"
)
_INCLUDE = re.compile(r"^\s*-?(?:include|sinclude)\s+(.+)$")
_VAR = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_.-]*)[)}]")
_CRD_GEN = re.compile(r"^crd(?::|$)")


@dataclass(frozen=True)
class CrdOutput:
    directory: Path  # relative to the project root, as written in the Makefile
    source: str  # "tools/make/gen.mk:12" (or "default" for config/crd/bases)


@dataclass(frozen=True)
class CrdTargets:
    outputs: tuple[CrdOutput, ...]  # the directories to patch, in the order found
    types: tuple[str, ...]  # Go package patterns from `paths=` ("" when none were given)
    notes: tuple[str, ...]  # what could not be used, for the run's report

    @property
    def dirs(self) -> tuple[Path, ...]:
        return tuple(o.directory for o in self.outputs)


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(1-based first line, text) with backslash continuations joined and comments cut."""
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    for n, raw in enumerate(text.splitlines(), 1):
        if not buf:
            start = n
        line = raw
        if line.endswith("\\"):
            buf.append(line[:-1])
            continue
        buf.append(line)
        joined = " ".join(b.strip() for b in buf)
        if not joined.lstrip().startswith("#"):
            out.append((start, joined))
        buf = []
    if buf:
        out.append((start, " ".join(b.strip() for b in buf)))
    return out


def _expand(text: str, variables: dict[str, str], depth: int = 0) -> str:
    if depth > 8:
        return text
    expanded = _VAR.sub(lambda m: variables.get(m.group(1), m.group(0)), text)
    return expanded if expanded == text else _expand(expanded, variables, depth + 1)


def _makefile_lines(root: Path) -> list[tuple[str, int, str]]:
    """(file relative to root, line, text) of the Makefile and what it includes, in order."""
    first = next((root / m for m in MAKEFILES if (root / m).is_file()), None)
    if first is None:
        return []
    seen: set[Path] = set()
    out: list[tuple[str, int, str]] = []

    def read(path: Path) -> None:
        resolved = path.resolve()
        if resolved in seen or not path.is_file():
            return
        seen.add(resolved)
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return
        shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
        for n, line in _logical_lines(text):
            inc = _INCLUDE.match(line)
            if inc:
                for pattern in inc.group(1).split():
                    for found in sorted(glob.glob(str(root / pattern))):
                        read(Path(found))
                continue
            out.append((shown, n, line))

    read(first)
    return out


def find_crd_outputs(root: Path) -> CrdTargets:
    """The CRD directories and type paths of the controller-gen runs in `root`'s Makefile.

    Directories that do not exist are left out with a note; when no controller-gen run
    names a crd output, `config/crd/bases` is used if it exists.
    """
    lines = _makefile_lines(root)
    variables: dict[str, str] = {}
    for _, _, line in lines:
        m = _ASSIGN.match(line)
        if m and not line.startswith("\t"):
            name, op, value = m.groups()
            if op == "?=" and name in variables:
                continue
            variables[name] = (
                (variables.get(name, "") + " " + value).strip() if op == "+=" else value.strip()
            )
    outputs: list[CrdOutput] = []
    types: list[str] = []
    notes: list[str] = []
    for file, n, line in lines:
        if "output:" not in line or "crd" not in line:
            continue
        try:
            words = shlex.split(_expand(line, variables), comments=False, posix=True)
        except ValueError:
            continue
        if not any(_CRD_GEN.match(w) for w in words):
            continue
        dirs: list[str] = []
        for w in words:
            for prefix in ("output:crd:artifacts:config=", "output:crd:dir=", "output:dir="):
                if w.startswith(prefix):
                    dirs.append(w[len(prefix) :])
            if w.startswith("paths="):
                types.extend(p for p in re.split(r"[;,]", w[len("paths=") :]) if p)
        for d in dirs:
            where = f"{file}:{n}"
            if "$" in d:
                notes.append(f"{where}: CRD output {d} uses a variable markergen cannot expand")
                continue
            rel = Path(d)
            if not (root / rel).is_dir():
                notes.append(f"{where}: CRD output {d} does not exist (run `make manifests` first)")
                continue
            if all(o.directory != rel for o in outputs):
                outputs.append(CrdOutput(rel, where))
    if not outputs and (root / DEFAULT_DIR).is_dir():
        outputs.append(CrdOutput(DEFAULT_DIR, "default"))
    return CrdTargets(tuple(outputs), tuple(dict.fromkeys(types)), tuple(notes))
