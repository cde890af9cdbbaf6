"""The commands a project's `make` would run, read the way make reads its files.

`markergen crd` needs to know where controller-gen writes CRDs and where the project
moves them afterwards. Matching lines of the top Makefile misses most real layouts, so
this module follows make's own rules far enough to list every recipe command with the
directory it runs in and the line it comes from:

- the first of `GNUmakefile`, `makefile`, `Makefile` (make's order) in the directory;
- `include`, `-include` and `sinclude`, with variables and globs, relative to the
  directory make runs in (as make resolves them);
- variables: `=` and `define` (expanded when used), `:=`, `::=`, `:::=` (expanded when
  set), `?=` (only when unset), `+=`, `export`/`override` prefixes; `$(VAR)`, `${VAR}`,
  `$(VAR:a=b)`, `$@`, `$(CURDIR)`, `$(MAKEFILE_LIST)`, and the functions projects use
  to compute paths (`shell pwd`, `abspath`, `dir`, `notdir`, `lastword`, `subst`,
  `patsubst`, `addprefix`, `wildcard`, `if`, ...). A recipe is expanded with the values
  in force once every file has been read, as make does when it runs it;
- recipe lines (tab-indented lines after a rule, and `rule: ; command`), joined over
  backslash-newlines, split into simple shell commands at `;`, `&&`, `||`, `|`;
  `cd DIR` moves the commands after it (in one recipe line, as each line is its own
  shell), `( ... )` restores the directory;
- sub-makes: `$(MAKE)` / `make` with `-f FILE`, `-C DIR` and `VAR=value` arguments are
  read as their own make run (in that directory, with those variables overriding);
- shell scripts a recipe runs (`hack/gen.sh`, `bash hack/gen.sh`, `source ...`) are read
  the same way, with their simple assignments (`X=...`, `export X=...`) and the usual
  ways of naming their own directory (`$(dirname "${BASH_SOURCE[0]}")`, `$(cd ... && pwd)`).

Of a make run, only the targets the generation runs are taken: those whose recipe runs
a generator (the caller says which commands are one), the targets that depend on them
(a `helm` target copying the CRDs after `manifests`), and what they depend on, in the
order make runs them; a `clean` target's `rm -rf $(OUT_DIR)` is not part of the
generation. A sub-make started with goals (`$(MAKE) -C charts sync-crds`) runs those
goals. A make run with no generating target keeps every recipe.

Conditionals (`ifeq`, `ifneq`, `ifdef`, `ifndef`, `else`, `else ifeq ...`, `endif`)
are evaluated where they stand, with the variables known at that point, as make does:
the lines of a branch not taken are not read (assignments, includes, rules, recipes).
A variable no file sets is undefined (the environment is not known). When a condition
depends on what markergen cannot know (a `$(shell ...)` it does not run), every branch
of that conditional counts, which errs towards finding an output rather than missing
one. Only files inside the
git repository holding the project are read (a script of `../hack/`), each make run
once.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
_MAX_RUNS = 256  # make runs, scripts and `go generate` packages read: a bound for loops
_MAX_DEPTH = 12  # nesting of variable references

_ASSIGN = re.compile(
    r"^(?:(?:export|override|private)\s+)*([A-Za-z_][A-Za-z0-9_.-]*)\s*"
    r"(\?=|:::=|::=|:=|\+=|!=|=)\s*(.*)$"
)
_INCLUDE = re.compile(r"^(-include|sinclude|include)\s+(.*)$")
_DEFINE = re.compile(r"^(?:(?:export|override)\s+)*define\s+([A-Za-z_][A-Za-z0-9_.-]*)")
_UNEXPANDED = re.compile(r"\$[({][^)}]*[)}]")
_CONDITIONAL = re.compile(r"^(ifeq|ifneq|ifdef|ifndef|else|endif)\b\s*(.*)$")
_SH_ASSIGN = re.compile(
    r"^(?:(?:export|readonly|local|declare(?:\s+-\w+)?)\s+)?([A-Za-z_][A-Za-z0-9_]*)(\+?=)(.*)$"
)
_SH_VAR = re.compile(
    r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?:\[[@*0]\])?(?::?-([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))"
)
_SH_SEPARATORS = frozenset({";", "&&", "||", "|", "&", ";;", "|&"})
# A shell line is split into commands only when it may hold one that matters here:
# a generator run, a copy/move/removal, a directory change, a sub-make or a script.
_RELEVANT = re.compile(
    r"controller-gen|CONTROLLER_GEN|crd|\b(?:cp|mv|rsync|rm|cd|make|gmake|source|bash|sh|generate)\b"
    r"|\.sh\b|MAKE|^\.\s|^[./$]",
)
_MAKE_PROGRAMS = frozenset({"make", "gmake"})
_SHELLS = frozenset({"bash", "sh", "source", ".", "zsh", "exec"})


@dataclass(frozen=True, slots=True)
class Command:
    """One simple shell command a recipe (or a script it runs) would execute."""

    words: tuple[str, ...]  # expanded, quotes removed; what could not be expanded stays `$(X)`
    cwd: Path  # absolute (lexical) directory the command runs in
    where: str  # "tools/make/gen.mk:12": file relative to the root, and line


@dataclass(frozen=True, slots=True)
class MakeRead:
    commands: tuple[Command, ...]  # in the order the files were read
    files: tuple[Path, ...]  # every make file and script read
    notes: tuple[str, ...]


def repository_top(root: Path) -> Path:
    """The top of the git work tree holding `root` (a `.git` directory or file), else
    `root`: where copies of the CRDs may go (`../helm/<chart>/crds/` of a module in a
    sub-directory)."""
    here = Path(os.path.abspath(root))
    for d in (here, *here.parents):
        if (d / ".git").exists():
            return d
    return here


def read_commands(root: Path, generates: Callable[[Command], bool] | None = None) -> MakeRead:
    """Every recipe command of the make run started in `root` (and of the sub-makes and
    scripts it starts); with `generates`, only those of the targets the generation runs
    (the module's docstring). Never raises for unreadable or odd files."""
    reader = _Reader(Path(os.path.abspath(root)), generates)
    first = next((root / m for m in MAKEFILES if (root / m).is_file()), None)
    if first is not None:
        reader.make(Path(os.path.abspath(first)), reader.root, {})
    return MakeRead(tuple(reader.commands), tuple(reader.files), tuple(reader.notes))


def _logical_lines(text: str, cut_comments: bool) -> list[tuple[int, str]]:
    """(1-based first line, text) with backslash-newline continuations joined."""
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    for n, raw in enumerate(text.splitlines(), 1):
        if not buf:
            start = n
        if raw.endswith("\\") and not raw.endswith("\\\\"):
            buf.append(raw[:-1])
            continue
        buf.append(raw)
        out.append((start, buf[0] + "".join(" " + b.strip() for b in buf[1:])))
        buf = []
    if buf:
        out.append((start, buf[0] + "".join(" " + b.strip() for b in buf[1:])))
    if cut_comments:
        out = [(n, _cut_comment(line)) for n, line in out]
    return out


def _cut_comment(line: str) -> str:
    """A make line without its `#` comment (make has no quoting; `\\#` is a literal)."""
    i = 0
    while True:
        i = line.find("#", i)
        if i < 0:
            return line
        if i > 0 and line[i - 1] == "\\":
            i += 1
            continue
        return line[:i]


def _matching(text: str, start: int, open_c: str) -> int:
    """Index of the bracket closing the one opened just before `start`, or -1."""
    close_c = ")" if open_c == "(" else "}"
    depth = 1
    for i in range(start, len(text)):
        c = text[i]
        if c == open_c:
            depth += 1
        elif c == close_c:
            depth -= 1
            if depth == 0:
                return i
    return -1


def _split_args(text: str) -> list[str]:
    """A make function's arguments: split at commas outside brackets."""
    out: list[str] = []
    depth = 0
    cur: list[str] = []
    for c in text:
        if c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
        if c == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    out.append("".join(cur))
    return out


class _Make:
    """The variables of one make run, and make's expansion of text with them."""

    def __init__(self, reader: _Reader, cwd: Path, overrides: dict[str, str]) -> None:
        self.reader = reader
        self.cwd = cwd
        self.overrides = dict(overrides)
        # name -> (value, recursive): a recursive value is expanded when used
        self.values: dict[str, tuple[str, bool]] = {
            "CURDIR": (str(cwd), False),
            "MAKE": ("make", False),
            "SHELL": ("/bin/sh", False),
        }
        self.makefile_list: list[str] = []
        self.target = ""
        self.prerequisites: dict[str, list[str]] = {}  # target -> its prerequisites

    def assign(self, name: str, op: str, value: str) -> None:
        if name in self.overrides:
            return
        if op == "?=":
            if name not in self.values:
                self.values[name] = (value, True)
        elif op == "+=":
            old, recursive = self.values.get(name, ("", True))
            add = value if recursive else self.expand(value)
            self.values[name] = ((old + " " + add).strip(), recursive)
        elif op in (":=", "::=", ":::="):
            self.values[name] = (self.expand(value), False)
        elif op == "!=":
            self.values[name] = (self._shell(self.expand(value)), False)
        else:
            self.values[name] = (value, True)

    def lookup(self, name: str, depth: int) -> str | None:
        if name in self.overrides:
            return self.overrides[name]
        if name == "MAKEFILE_LIST":
            return " ".join(self.makefile_list)
        if name == "@":
            return self.target
        found = self.values.get(name)
        if found is None:
            return None
        value, recursive = found
        return self.expand(value, depth + 1) if recursive else value

    def expand(self, text: str, depth: int = 0) -> str:
        if depth > _MAX_DEPTH or "$" not in text:
            return text
        out: list[str] = []
        i = 0
        while i < len(text):
            c = text[i]
            if c != "$" or i + 1 >= len(text):
                out.append(c)
                i += 1
                continue
            nxt = text[i + 1]
            if nxt == "$":
                out.append("$")
                i += 2
            elif nxt in "({":
                end = _matching(text, i + 2, nxt)
                if end < 0:
                    out.append(text[i:])
                    break
                out.append(self._reference(text[i : end + 1], text[i + 2 : end], depth))
                i = end + 1
            else:
                value = self.lookup(nxt, depth)
                out.append(value if value is not None else "")
                i += 2
        return "".join(out)

    def _reference(self, whole: str, inner: str, depth: int) -> str:
        head, _, rest = inner.partition(" ")
        function = _FUNCTIONS.get(head)
        if function is not None and rest:
            return function(self, rest, depth)
        name = self.expand(inner, depth + 1)
        if ":" in name and "=" in name:  # a substitution reference $(VAR:.go=.o)
            var, _, pattern = name.partition(":")
            old, _, new = pattern.partition("=")
            value = self.lookup(var, depth)
            if value is None:
                return whole
            if "%" not in old:
                old, new = "%" + old, "%" + new
            return " ".join(_patsubst(old, new, w) for w in value.split())
        value = self.lookup(name, depth)
        # An unknown variable stays as written, so that a path using it is reported
        # as one markergen could not expand instead of becoming a wrong path.
        return whole if value is None else value

    def _shell(self, command: str) -> str:
        """What `$(shell ...)` gives for the few commands whose output is a known path."""
        words = command.split()
        if words in (["pwd"], ["pwd", "-P"]) or command.strip() in ("echo $PWD", "echo ${PWD}"):
            return str(self.cwd)
        if words[:3] == ["git", "rev-parse", "--show-toplevel"]:
            return str(self.reader.root)
        if len(words) == 2 and words[0] in ("dirname", "realpath", "readlink"):
            path = self.path(words[1])
            return str(path.parent) if words[0] == "dirname" else str(path)
        return f"$(shell {command})"

    def path(self, text: str) -> Path:
        return Path(os.path.normpath(self.cwd / text))


# A make function: (the run, its unexpanded arguments, nesting depth) -> its value.
_Function = Callable[["_Make", str, int], str]


def _patsubst(pattern: str, replacement: str, word: str) -> str:
    if "%" not in pattern:
        return replacement if word == pattern else word
    prefix, _, suffix = pattern.partition("%")
    if word.startswith(prefix) and word.endswith(suffix) and len(word) >= len(prefix + suffix):
        stem = word[len(prefix) : len(word) - len(suffix)]
        return replacement.replace("%", stem, 1)
    return word


def _f_shell(m: _Make, rest: str, depth: int) -> str:
    return m._shell(m.expand(rest, depth + 1))


def _each(op: str) -> _Function:
    def run(m: _Make, rest: str, depth: int) -> str:
        words = m.expand(rest, depth + 1).split()
        if op == "abspath":
            return " ".join(str(m.path(w)) for w in words)
        if op == "realpath":
            return " ".join(os.path.realpath(m.path(w)) for w in words)
        if op == "dir":
            return " ".join(w.rpartition("/")[0] + "/" if "/" in w else "./" for w in words)
        if op == "notdir":
            return " ".join(w.rpartition("/")[2] for w in words)
        if op == "lastword":
            return words[-1] if words else ""
        if op == "firstword":
            return words[0] if words else ""
        if op == "strip":
            return " ".join(words)
        if op == "sort":
            return " ".join(sorted(set(words)))
        if op == "wildcard":
            found: list[str] = []
            for w in words:
                hits = sorted(glob.glob(str(m.path(w))))
                found.extend(os.path.relpath(h, m.cwd) if not os.path.isabs(w) else h for h in hits)
            return " ".join(found)
        return ""

    return run


def _args(op: str) -> _Function:
    def run(m: _Make, rest: str, depth: int) -> str:
        args = _split_args(rest)
        if op == "if":
            # an unknown variable is empty here, as in make (kept as written elsewhere)
            cond = _UNEXPANDED.sub("", m.expand(args[0], depth + 1)).strip()
            chosen = args[1] if cond and len(args) > 1 else (args[2] if len(args) > 2 else "")
            return m.expand(chosen, depth + 1)
        if op == "or":
            for a in args:
                value = _UNEXPANDED.sub("", m.expand(a, depth + 1)).strip()
                if value:
                    return value
            return ""
        values = [m.expand(a, depth + 1) for a in args]
        if op == "subst" and len(values) == 3:
            return values[2].replace(values[0], values[1])
        if op == "patsubst" and len(values) == 3:
            return " ".join(_patsubst(values[0], values[1], w) for w in values[2].split())
        if op in ("addprefix", "addsuffix") and len(values) == 2:
            words = values[1].split()
            if op == "addprefix":
                return " ".join(values[0] + w for w in words)
            return " ".join(w + values[0] for w in words)
        if op in ("filter", "filter-out") and len(values) == 2:
            pats = values[0].split()
            keep = op == "filter"
            return " ".join(
                w
                for w in values[1].split()
                if any(_patsubst(p, "x", w) == "x" or p == w for p in pats) == keep
            )
        if op == "word" and len(values) == 2:
            words = values[1].split()
            n = int(values[0]) if values[0].strip().isdigit() else 0
            return words[n - 1] if 0 < n <= len(words) else ""
        if op in ("info", "warning", "error", "eval"):
            return ""
        return f"$({op} {rest})"

    return run


_FUNCTIONS: dict[str, _Function] = {
    "shell": _f_shell,
    **{
        op: _each(op)
        for op in (
            "abspath",
            "realpath",
            "dir",
            "notdir",
            "lastword",
            "firstword",
            "strip",
            "sort",
            "wildcard",
        )
    },
    **{
        op: _args(op)
        for op in (
            "if",
            "or",
            "subst",
            "patsubst",
            "addprefix",
            "addsuffix",
            "filter",
            "filter-out",
            "word",
            "info",
            "warning",
            "error",
            "eval",
        )
    },
}


@dataclass(frozen=True)
class _Branch:
    """One `if... else ... endif` being read: whether its current branch is read, and
    whether a branch was taken already (so that a later `else` is not)."""

    outer: bool  # the lines around the conditional are read
    active: bool
    taken: bool
    unknown: bool = False  # a condition could not be decided: every branch counts


class _Conditionals:
    """The conditionals of one make file, evaluated as make reads them."""

    def __init__(self, run: _Make) -> None:
        self.run = run
        self.stack: list[_Branch] = []

    @property
    def active(self) -> bool:
        return not self.stack or self.stack[-1].active

    def line(self, word: str, rest: str) -> None:
        if word == "endif":
            if self.stack:
                self.stack.pop()
        elif word != "else":
            outer = self.active
            test = self.test(word, rest) if outer else False
            if test is None:
                self.stack.append(_Branch(outer, True, False, unknown=True))
            else:
                self.stack.append(_Branch(outer, outer and test, outer and test))
        elif self.stack and self.stack[-1].outer:
            self.stack[-1] = self._else(self.stack[-1], rest)

    def _else(self, top: _Branch, rest: str) -> _Branch:
        if top.unknown:
            return replace(top, active=True)
        head, _, more = rest.partition(" ")
        if head not in ("ifeq", "ifneq", "ifdef", "ifndef"):
            return replace(top, active=not top.taken, taken=True)  # a plain `else`
        if top.taken:
            return replace(top, active=False)
        test = self.test(head, more.strip())
        if test is None:
            return replace(top, active=True, unknown=True)
        return replace(top, active=test, taken=test)

    def test(self, word: str, rest: str) -> bool | None:
        """The condition's truth, or None when it depends on what is not known."""
        if word in ("ifdef", "ifndef"):
            name = self.run.expand(rest).strip()
            if "$(shell " in name:
                return None
            value = self.run.overrides.get(name)
            if value is None:
                found = self.run.values.get(name)
                value = found[0] if found is not None else ""
            return bool(value.strip()) == (word == "ifdef")
        pair = _condition_args(rest)
        if pair is None:
            return None
        a, b = (self.run.expand(x) for x in pair)
        if "$(shell " in a or "$(shell " in b:
            return None
        # a variable no file sets is empty, as in make (kept as written elsewhere)
        a, b = _UNEXPANDED.sub("", a).strip(), _UNEXPANDED.sub("", b).strip()
        return (a == b) == (word == "ifeq")


def _condition_args(text: str) -> tuple[str, str] | None:
    """The two arguments of `ifeq (a,b)`, `ifeq "a" "b"` or `ifeq 'a' 'b'`."""
    text = text.strip()
    if text.startswith("("):
        end = _matching(text, 1, "(")
        args = _split_args(text[1:end]) if end > 0 else []
        return (args[0], args[1]) if len(args) == 2 else None
    m = re.fullmatch(r"""(["'])(.*?)\1\s+(["'])(.*?)\3""", text)
    return (m.group(2), m.group(4)) if m else None


@dataclass
class _Recipe:
    """A recipe line of one make run, expanded once every file of the run is read."""

    text: str
    target: str
    where: str


class _Reader:
    def __init__(self, root: Path, generates: Callable[[Command], bool] | None = None) -> None:
        self.root = root
        self.generates = generates
        # files are read anywhere in the repository: a module in a sub-directory runs
        # `../hack/gen.sh`
        self.prefix = str(repository_top(root)).rstrip("/") + "/"
        self.commands: list[Command] = []
        self.unique: set[Command] = set()
        self.files: list[Path] = []
        self.notes: list[str] = []
        self.seen: set[tuple[str, ...]] = set()
        self.runs = 0

    def shown(self, path: Path) -> str:
        if self.inside(path):  # `../hack/gen.sh` for a script of the repository
            return Path(os.path.relpath(path, self.root)).as_posix()
        return path.as_posix()

    def inside(self, path: Path) -> bool:
        text = str(path)
        return text == self.prefix[:-1] or text.startswith(self.prefix)

    def _read(self, path: Path) -> str | None:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        if path not in self.files:
            self.files.append(path)
        return text

    def _enter(self, key: tuple[str, ...]) -> bool:
        if key in self.seen or self.runs >= _MAX_RUNS:
            return False
        self.seen.add(key)
        self.runs += 1
        return True

    # -- make ---------------------------------------------------------------

    def make(
        self, makefile: Path, cwd: Path, overrides: dict[str, str], goals: Sequence[str] = ()
    ) -> None:
        # A make file is read once per directory: `$(MAKE) target VAR=x` re-running the
        # same Makefile with other variables would list the same recipes again.
        if not self.inside(makefile) or not self._enter(("make", str(makefile), str(cwd))):
            return
        run = _Make(self, cwd, overrides)
        recipes: list[_Recipe] = []
        self._make_file(run, makefile, recipes, set())
        start = len(self.commands)
        by_target: dict[str, list[Command]] = {}
        for recipe in recipes:
            run.target = recipe.target
            before = len(self.commands)
            self._shell_line(run.expand(recipe.text), cwd, recipe.where, {})
            for name in recipe.target.split():
                by_target.setdefault(name, []).extend(self.commands[before:])
        if self.generates is None:
            return
        order = _run_order(by_target, run.prerequisites, goals, self.generates)
        if order is None:
            return  # nothing generates here and no goal was named: every recipe counts
        kept: list[Command] = []
        for target in order:
            kept.extend(c for c in by_target.get(target, ()) if c not in kept)
        for dropped in set(self.commands[start:]) - set(kept):
            self.unique.discard(dropped)
        self.commands[start:] = kept

    def _make_file(
        self, run: _Make, path: Path, recipes: list[_Recipe], reading: set[Path]
    ) -> None:
        if path in reading or not self.inside(path):
            return
        text = self._read(path)
        if text is None:
            return
        reading = reading | {path}
        run.makefile_list.append(str(path))
        shown = self.shown(path)
        targets = ""
        define: tuple[str, list[str]] | None = None
        conditionals = _Conditionals(run)
        for n, raw in _logical_lines(text, cut_comments=False):
            if define is not None:
                if raw.strip() == "endef":
                    if conditionals.active:
                        run.assign(define[0], "=", "\n".join(define[1]))
                    define = None
                else:
                    define[1].append(raw)
                continue
            if raw.startswith("\t") and targets:
                body = raw[1:].lstrip()
                if body and not body.startswith("#") and conditionals.active:
                    recipes.append(_Recipe(body, targets, f"{shown}:{n}"))
                continue
            line = _cut_comment(raw).strip()
            if not line:
                continue
            m = _DEFINE.match(line)
            if m:
                define = (m.group(1), [])
                continue
            m = _CONDITIONAL.match(line)
            if m:
                conditionals.line(m.group(1), m.group(2))
                continue
            if not conditionals.active:
                continue
            m = _INCLUDE.match(line)
            if m:
                targets = ""
                for pattern in run.expand(m.group(2)).split():
                    for found in sorted(glob.glob(str(run.path(pattern)))) or []:
                        self._make_file(run, Path(os.path.abspath(found)), recipes, reading)
                continue
            m = _ASSIGN.match(line)
            if m and ":" not in line[: m.start(2)]:
                run.assign(m.group(1), m.group(2), m.group(3).strip())
                continue
            rule, colon, after = line.partition(":")
            if colon:
                targets = run.expand(rule).strip() or "?"
                after = after.lstrip(":")
                # `target: VAR = value` is a target-specific variable, not a recipe
                needs, semi, inline = after.partition(";")
                if semi and inline.strip():
                    recipes.append(_Recipe(inline.strip(), targets, f"{shown}:{n}"))
                if not _ASSIGN.match(needs.strip()):
                    # `a: b c | order-only`: both kinds run before a's recipe; every rule
                    # is recorded, in the order of the files
                    words = run.expand(needs).replace("|", " ").split()
                    for name in targets.split():
                        if not name.startswith("."):  # .PHONY, .DEFAULT_GOAL: not run
                            run.prerequisites.setdefault(name, []).extend(words)
                continue
            targets = ""

    # -- shell ----------------------------------------------------------------

    def _shell_line(self, text: str, cwd: Path, where: str, env: dict[str, str]) -> None:
        """Split one shell line into simple commands and take each."""
        text = text.lstrip("@-+ \t")
        if not _RELEVANT.search(text):
            return  # echo, go build, docker, ...: nothing that writes or moves CRDs
        loop = _FOR.match(text)
        if loop and loop.group(3):  # a recipe's `for f in dir/*.yaml; do cp $$f dest/; done`
            items = _loop_items(loop.group(2))
            if len(items) == 1:
                known = {loop.group(1): items[0]}
                text = _sh_expand(_loop_body(loop.group(3)), known, Path(), cwd, self.root)
        stack: list[Path] = []
        current: list[str] = []
        for token in _shell_tokens(text):
            if token in _SH_SEPARATORS or token in ("(", ")"):
                if current:
                    cwd = self._command(current, cwd, where, env)
                    current = []
                if token == "(":
                    stack.append(cwd)
                elif token == ")" and stack:
                    cwd = stack.pop()
                continue
            current.append(token)
        if current:
            self._command(current, cwd, where, env)

    def _command(self, words: list[str], cwd: Path, where: str, env: dict[str, str]) -> Path:
        """Record one simple command; return the directory the next one runs in."""
        words = [w.lstrip("@") if i == 0 else w for i, w in enumerate(words)]
        words = [w for w in words if w]
        while words and words[0] in ("then", "do", "else", "elif", "if", "while", "!", "time"):
            words = words[1:]
        prefix: dict[str, str] = {}
        while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            name, _, value = words.pop(0).partition("=")
            prefix[name] = value
        if not words:
            return cwd
        command = Command(tuple(f"{k}={v}" for k, v in prefix.items()) + tuple(words), cwd, where)
        if command not in self.unique:
            self.unique.add(command)
            self.commands.append(command)
        program = os.path.basename(words[0])
        if words[0] == "cd":
            target = words[1] if len(words) > 1 else str(self.root)
            return cwd if "$" in target else Path(os.path.normpath(cwd / target))
        if program in _MAKE_PROGRAMS:
            self._sub_make(words[1:], cwd, where)
            return cwd
        if program == "go" and words[1:2] == ["generate"]:
            self._go_generate([w for w in words[2:] if not w.startswith("-")] or ["."], cwd)
            return cwd
        script = words[0]
        if program in _SHELLS and len(words) > 1:
            rest = [w for w in words[1:] if not w.startswith("-")]
            script = rest[0] if rest else ""
        if script and "$" not in script:
            path = Path(os.path.normpath(cwd / script))
            if self.inside(path) and _is_script(path):
                self.script(path, cwd, {**env, **prefix})
        return cwd

    def _sub_make(self, args: list[str], cwd: Path, where: str) -> None:
        files: list[str] = []
        directory = cwd
        overrides: dict[str, str] = {}
        goals: list[str] = []
        i = 0
        while i < len(args):
            a = args[i]
            value: str | None = None
            for short, long_names in (
                ("-f", ("--file=", "--makefile=")),
                ("-C", ("--directory=",)),
            ):
                if a == short or a in (n[:-1] for n in long_names):
                    value = args[i + 1] if i + 1 < len(args) else ""
                    i += 1
                elif a.startswith(short) and len(a) > 2 and not a.startswith("--"):
                    value = a[2:]
                else:
                    value = next((a[len(n) :] for n in long_names if a.startswith(n)), None)
                if value is not None:
                    if short == "-f":
                        files.append(value)
                    elif "$" not in value:
                        directory = Path(os.path.normpath(directory / value))
                    break
            if value is None and not a.startswith("-") and "=" in a:
                name, _, val = a.partition("=")
                if re.match(r"^[A-Za-z_][A-Za-z0-9_.-]*$", name):
                    overrides[name] = val
            elif value is None and a in ("-I", "-o", "-W", "--include-dir", "--old-file"):
                i += 1
            elif value is None and not a.startswith("-") and "$" not in a:
                goals.append(a)
            i += 1
        if not self.inside(directory):
            return
        makefiles = [Path(os.path.normpath(directory / f)) for f in files if "$" not in f]
        if not files:
            makefiles = [directory / m for m in MAKEFILES if (directory / m).is_file()][:1]
        for f in makefiles:
            if f.is_file():
                self.make(f, directory, overrides, goals)
            elif self.inside(f):
                self.notes.append(f"{where}: sub-make file {self.shown(f)} does not exist")

    def _go_generate(self, patterns: list[str], cwd: Path) -> None:
        """`go generate PATTERNS`: each `//go:generate` line of the packages' Go files is
        a command run in the package's directory (the go command's rule)."""
        for pattern in patterns:
            recursive = pattern == "..." or pattern.endswith("/...")
            base = Path(os.path.normpath(cwd / (pattern.removesuffix("...").rstrip("/") or ".")))
            if "$" in pattern or not self.inside(base) or not base.is_dir():
                continue
            for here, names in _go_dirs(base, recursive):
                if not self._enter(("go generate", str(here))):
                    return
                for name in names:
                    path = here / name
                    try:
                        text = path.read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        continue
                    if "//go:generate" not in text:
                        continue
                    for n, line in enumerate(text.splitlines(), 1):
                        if line.startswith("//go:generate "):
                            command = line[len("//go:generate ") :].replace("$GOFILE", name)
                            self._shell_line(command, here, f"{self.shown(path)}:{n}", {})

    def script(self, path: Path, cwd: Path, env: dict[str, str]) -> None:
        if not self._enter(("script", str(path), str(cwd))):
            return
        self._script_lines(path, cwd, dict(env))

    def _script_lines(self, path: Path, cwd: Path, variables: dict[str, str]) -> None:
        text = self._read(path)
        if text is None:
            return
        shown = self.shown(path)
        for n, line in _logical_lines(text, cut_comments=False):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            assignment = _SH_ASSIGN.match(stripped) is not None
            if not assignment and not _RELEVANT.search(stripped) and not _FOR.match(stripped):
                continue  # cheap test first: most script lines matter to nobody here
            expanded = _sh_expand(stripped, variables, path, cwd, self.root)
            m = _SH_ASSIGN.match(expanded) if assignment else None
            if m and _one_word(m.group(3)):
                value = _unquote(m.group(3))
                name = m.group(1)
                variables[name] = (variables.get(name, "") + value) if m.group(2) == "+=" else value
                continue
            loop = _FOR.match(expanded)
            if loop:
                # `for f in "$OUT"/*.yaml; do`: `$f` in the body stands for the list (a
                # glob, as the copy of each file reads it)
                items = _loop_items(loop.group(2))
                if len(items) == 1:
                    variables[loop.group(1)] = items[0]
                body = _loop_body(loop.group(3) or "")
                if body:
                    self._shell_line(
                        _sh_expand(body, variables, path, cwd, self.root),
                        cwd,
                        f"{shown}:{n}",
                        variables,
                    )
                continue
            words = _shell_tokens(expanded)
            if words[:1] in (["source"], ["."]) and len(words) > 1:
                sourced = Path(os.path.normpath(cwd / words[1]))
                if (
                    self.inside(sourced)
                    and sourced.is_file()
                    and sourced != path
                    and self._enter(("source", str(sourced), str(path)))
                ):
                    self._script_lines(sourced, cwd, variables)
                continue
            self._shell_line(expanded, cwd, f"{shown}:{n}", variables)


_FOR = re.compile(r"^for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.*?)\s*(?:;\s*do\b\s*(.*))?$")


def _loop_items(text: str) -> list[str]:
    """The words a `for` loop runs over, split as the shell splits an unquoted list."""
    return [w for t in _shell_tokens(text) for w in t.split()]


def _loop_body(text: str) -> str:
    """The commands of a one-line loop body: `cp "$f" dest/; done` less its `done`."""
    return re.sub(r"(?:^|[;\s])done\s*;?\s*$", "", text.strip()).strip().rstrip(";")


def _run_order(
    by_target: dict[str, list[Command]],
    prerequisites: dict[str, list[str]],
    goals: Sequence[str],
    generates: Callable[[Command], bool],
) -> list[str] | None:
    """The targets of one make run whose recipes count, in the order make runs them:
    the goals named, else the targets that generate and those that depend on them, each
    after its prerequisites. None when no goal is named and no target generates."""
    if goals:
        chosen = list(goals)
    else:
        generating = {t for t, cmds in by_target.items() if any(generates(c) for c in cmds)}
        if not generating:
            return None
        names = list(dict.fromkeys([*prerequisites, *by_target]))
        related = [t for t in names if _closure(t, prerequisites) & generating]
        # run as make would run the outermost of them (`all: clean manifests` runs clean
        # before manifests), not each on its own
        below = {d for t in related for d in _closure(t, prerequisites) - {t}}
        chosen = [t for t in related if t not in below]
    order: list[str] = []
    seen: set[str] = set()

    def visit(target: str, depth: int) -> None:
        if target in seen or depth > _MAX_RUNS:
            return
        seen.add(target)
        for needed in prerequisites.get(target, ()):
            visit(needed, depth + 1)
        order.append(target)

    for target in chosen:
        visit(target, 0)
    return order


def _closure(target: str, prerequisites: dict[str, list[str]]) -> set[str]:
    """`target` and every target it depends on, directly or not."""
    out: set[str] = set()
    stack = [target]
    while stack:
        t = stack.pop()
        if t not in out:
            out.add(t)
            stack.extend(prerequisites.get(t, ()))
    return out


def _go_dirs(base: Path, recursive: bool) -> list[tuple[Path, list[str]]]:
    """(directory, its .go files) of a package pattern, as `./...` walks (no vendor,
    testdata, `.x` or `_x` directories, no nested modules)."""
    out: list[tuple[Path, list[str]]] = []
    for dirpath, dirnames, filenames in os.walk(base):
        here = Path(dirpath)
        if here != base and "go.mod" in filenames:
            dirnames[:] = []
            continue
        dirnames[:] = (
            sorted(d for d in dirnames if d not in ("vendor", "testdata") and d[0] not in "._")
            if recursive
            else []
        )
        names = sorted(n for n in filenames if n.endswith(".go"))
        if names:
            out.append((here, names))
    return out


def _is_script(path: Path) -> bool:
    """A shell script: `.sh`/`.bash`, or a file without suffix that starts `#!...sh`."""
    if path.suffix in (".sh", ".bash"):
        return path.is_file()
    if path.suffix or not path.is_file():
        return False
    try:
        with path.open("rb") as f:
            first = f.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"sh" in first


def _one_word(text: str) -> bool:
    """Whether a shell assignment's value is one word (`X=a b` runs `b` with X set)."""
    if not any(c in text for c in " \t;&|"):
        return True
    return len(_shell_tokens(text)) <= 1


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


_SH_SUBST = (
    (re.compile(r"\$\(\s*dirname\s+\"?([^\s\")]+)\"?\s*\)"), "dirname"),
    (
        re.compile(r"\$\(\s*cd\s+((?:\"[^\"$]*\"|[^\s\"&;)])+)\s*(?:&&|;)\s*pwd(?:\s+-P)?\s*\)"),
        "cd",
    ),
    (re.compile(r"\$\(\s*(?:realpath|readlink\s+-f)\s+\"?([^\s\")]+)\"?\s*\)"), "cd"),
    (re.compile(r"\$\(\s*pwd(?:\s+-P)?\s*\)"), "pwd"),
    (re.compile(r"\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)"), "git"),
)


def _sh_expand(text: str, variables: dict[str, str], script: Path, cwd: Path, root: Path) -> str:
    """A shell line with the variables and path idioms markergen can know replaced."""

    def var(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(3)
        if name in ("BASH_SOURCE", "0"):
            return str(script)
        if name == "PWD":
            return str(cwd)
        if name in variables:
            return variables[name]
        if m.group(2) is not None:
            return m.group(2)
        return m.group(0)

    for _ in range(_MAX_DEPTH):
        before = text
        text = _SH_VAR.sub(var, text).replace("$0", str(script))
        for pattern, kind in _SH_SUBST:

            def sub(m: re.Match[str], kind: str = kind) -> str:
                if kind == "pwd":
                    return str(cwd)
                if kind == "git":
                    return str(root)
                arg = m.group(1).replace('"', "")
                if "$" in arg:
                    return m.group(0)
                p = Path(os.path.normpath(cwd / arg))
                return str(p.parent) if kind == "dirname" else str(p)

            text = pattern.sub(sub, text)
        if text == before:
            break
    return text


_OPERATORS = ("&&", "||", ";;", "|&")


def _balanced(text: str, i: int) -> int:
    """The index after the `$(...)`/`${...}` or backquoted text that starts at `i`."""
    if text[i] == "`":
        end = text.find("`", i + 1)
        return len(text) if end < 0 else end + 1
    end = _matching(text, i + 2, text[i + 1])
    return len(text) if end < 0 else end + 1


def _shell_tokens(text: str) -> list[str]:
    """Words (quotes removed) and operators (`;`, `&&`, `||`, `|`, `&`, `(`, `)`) of a
    shell line; command substitutions and `${...}` are kept whole, as written.
    (shlex is five times slower and splits `$(...)`.)"""
    out: list[str] = []
    cur: list[str] = []
    have = False
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\n":
            if have:
                out.append("".join(cur))
                cur, have = [], False
            i += 1
        elif c == "#" and not have:
            break
        elif c in ";&|()":
            if have:
                out.append("".join(cur))
                cur, have = [], False
            two = text[i : i + 2]
            op = two if two in _OPERATORS else c
            out.append(op)
            i += len(op)
        elif c == "'":
            end = text.find("'", i + 1)
            end = n if end < 0 else end
            cur.append(text[i + 1 : end])
            have, i = True, end + 1
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\\" and i + 1 < n:
                    cur.append(text[i + 1])
                    i += 2
                elif text[i] in "$`" and (text[i] == "`" or text[i + 1 : i + 2] in ("(", "{")):
                    end = _balanced(text, i)
                    cur.append(text[i:end])
                    i = end
                else:
                    cur.append(text[i])
                    i += 1
            have, i = True, i + 1
        elif c == "\\":
            cur.append(text[i + 1 : i + 2])
            have, i = True, i + 2
        elif c == "`" or (c == "$" and text[i + 1 : i + 2] in ("(", "{")):
            end = _balanced(text, i)
            cur.append(text[i:end])
            have, i = True, end
        else:
            cur.append(c)
            have, i = True, i + 1
    if have:
        out.append("".join(cur))
    return out
