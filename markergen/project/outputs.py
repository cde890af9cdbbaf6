"""Where a project's CRDs end up, found from the commands `make` would run
(`markergen.project.makefile`), so that `markergen crd` with no path patches what
`make manifests` wrote.

The commands are taken in the order make reads them:

- a controller-gen run with the crd generator writes where its options say
  (`controller-gen crd --help`): `output:crd:artifacts:config=DIR` and
  `output:crd:dir=DIR` for the crd generator, `output:dir=DIR` for every generator,
  `config/crd` when none is given, nothing with `output:none`/`output:crd:none`;
  `paths=...` names the Go packages it reads. Both are relative to the directory the
  command runs in (`cd DIR;`, `$(MAKE) -C DIR`);
- openshift's generator (`codegen crd-manifest-merge`, usually run as
  `GENERATOR=crd-manifest-merge hack/update-codegen.sh`) writes each API version's CRDs
  into `<group>/<version>/zz_generated.crd-manifests/`;
- `cp`, `cp -r`, `rsync` and `mv` of CRD files (or of a directory holding them) make the
  destination a place the CRDs end up too; `mv` and a later `rm -rf` of the first
  directory (or of a directory above it) take that one away. A copy whose source
  markergen cannot expand (`cp "$f" payload/crds/`) counts when the destination holds
  files named as CRD files already found;
- without any of these, kubebuilder's layout applies: `config/crd/bases`; without that,
  gateway-api's: `config/crd/standard` and `config/crd/experimental`.

Directories under `vendor/` are never used: they hold other projects' CRDs.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from markergen.project.makefile import MAKEFILES, Command, read_commands, repository_top

__all__ = ["MAKEFILES", "CrdOutput", "CrdTargets", "find_crd_outputs"]

DEFAULT_DIR = Path("config/crd/bases")
CHANNEL_DIRS = (Path("config/crd/standard"), Path("config/crd/experimental"))
OPENSHIFT_DIR = "zz_generated.crd-manifests"
_CRD_GEN = re.compile(r"^\+?crd(?::|$)")  # controller-gen takes `+crd:...` too
_OUTPUT_OPTIONS = ("output:crd:artifacts:config=", "output:crd:dir=", "output:dir=")
_NO_OUTPUT = ("output:none", "output:crd:none", "output:crd:stdout", "output:stdout")
_COPIERS = frozenset({"cp", "rsync", "mv"})
_BASENAME_TAIL = re.compile(r"/\$\(\s*basename\s[^)]*\)$")
_WALK_SKIP = frozenset({"vendor", "node_modules", "testdata", "_output"})


@dataclass(frozen=True)
class CrdOutput:
    directory: Path  # relative to the project root (a file when one file is copied alone)
    source: str  # "tools/make/gen.mk:12": the line that puts the CRDs there; "default"
    how: str = "controller-gen"  # what that line does: "controller-gen", "copy of DIR", ...


@dataclass(frozen=True)
class CrdTargets:
    outputs: tuple[CrdOutput, ...]  # the directories to patch, in the order found
    types: tuple[str, ...]  # Go package patterns from `paths=` ("" when none were given)
    notes: tuple[str, ...]  # what could not be used, for the run's report
    files: tuple[Path, ...] = ()  # the make files and scripts read (absolute)

    @property
    def dirs(self) -> tuple[Path, ...]:
        return tuple(o.directory for o in self.outputs)


def _is_controller_gen(words: tuple[str, ...]) -> bool:
    if not any(_CRD_GEN.match(w) for w in words):
        return False
    return any(
        os.path.basename(w).startswith("controller-gen")
        or "CONTROLLER_GEN" in w.upper().replace("-", "_")
        or w.startswith(("output:", "paths="))
        for w in words
    )


def generates(cmd: Command) -> bool:
    """Whether a command writes CRDs: a controller-gen run with the crd generator, or
    openshift's crd-manifest-merge."""
    words = cmd.words
    while len(words) > 1 and re.match(r"^[A-Za-z_]\w*=", words[0]):
        words = words[1:]
    return _is_controller_gen(words) or any("crd-manifest-merge" in w for w in cmd.words)


def _in_vendor(rel: Path) -> bool:
    return "vendor" in rel.parts


class _Finder:
    def __init__(self, root: Path, read: Callable[[Path], bytes] | None) -> None:
        self.root = Path(os.path.abspath(root))
        self.read = read
        # copies may go anywhere in the repository (`../helm/<chart>/crds/` of a module
        # in a sub-directory)
        self.top = repository_top(self.root)
        self.found: dict[Path, CrdOutput] = {}
        self.removed: dict[Path, str] = {}  # output -> where it was removed
        self.types: list[str] = []
        self.notes: list[str] = []
        self.unknown_copies: list[tuple[Command, str]] = []  # (command, destination)
        self.openshift = False
        self.module: str | None = None

    def rel(self, cwd: Path, text: str) -> Path | None:
        """`text` as a path relative to the root (`../helm/x` above it); None when it is
        outside the repository or unexpanded."""
        if "$" in text or "`" in text or not text:
            return None
        path = Path(os.path.normpath(cwd / text))
        if not path.is_relative_to(self.top):
            return None
        return Path(os.path.relpath(path, self.root))

    def add(self, rel: Path, output: CrdOutput) -> None:
        if rel in self.removed:
            del self.removed[rel]
        self.found.setdefault(rel, output)

    def command(self, cmd: Command) -> None:
        words = cmd.words
        while len(words) > 1 and re.match(r"^[A-Za-z_]\w*=", words[0]):  # `VAR=x program`
            words = words[1:]
        program = os.path.basename(words[0])
        if _is_controller_gen(words):
            self.controller_gen(cmd, words)
        elif any("crd-manifest-merge" in w for w in cmd.words):
            self.openshift_generator(cmd)
        elif program in _COPIERS:
            self.copy(cmd, words, program)
        elif program == "rm":
            self.remove(cmd, words)
        else:
            self.transform(cmd, words)

    def controller_gen(self, cmd: Command, words: tuple[str, ...]) -> None:
        dirs: list[str] = []
        types: list[str] = []
        silent = False
        for w in words:
            w = w.removeprefix("+")
            for prefix in _OUTPUT_OPTIONS:
                if w.startswith(prefix):
                    dirs.append(w[len(prefix) :])
            silent = silent or w in _NO_OUTPUT
            if w.startswith("paths="):
                value = w[len("paths=") :]
                if value.startswith("{") and value.endswith("}"):  # paths={a,b}
                    value = value[1:-1]
                for p in re.split(r"[;,]", value):
                    # `paths="{./api/..., ./pkg/...}"`: spaces after the separator
                    pattern = self.pattern(cmd.cwd, p.strip())
                    if "$" in pattern:
                        self.notes.append(
                            f"{cmd.where}: Go package pattern {p} uses a variable markergen "
                            "cannot expand"
                        )
                        continue
                    # a run over vendored packages generates another project's CRDs
                    if pattern and not _in_vendor(Path(pattern.removesuffix("/..."))):
                        types.append(pattern)
        how = "controller-gen"
        if not dirs and not silent:
            dirs, how = ["config/crd"], "controller-gen's default output"
        for d in dirs:
            rel = self.rel(cmd.cwd, d)
            if rel is None:
                why = "uses a variable markergen cannot expand" if "$" in d else "is outside"
                self.notes.append(f"{cmd.where}: CRD output {d} {why}")
                continue
            self.add(rel, CrdOutput(rel, cmd.where, how))
        self.types.extend(types)

    def pattern(self, cwd: Path, text: str) -> str:
        """A `paths=` entry as a Go package pattern relative to the root ("" if not one)."""
        if not text:
            return ""
        module = self.module_path()
        if module and (text == module or text.startswith(module + "/")):
            # an import path of the root module: a directory below the root, whatever
            # directory the command runs in
            return "./" + text[len(module) :].lstrip("/") if text != module else "."
        tail = "/..." if text == "..." or text.endswith("/...") else ""
        base = (text[: -len("...")].rstrip("/") or ".") if tail else text
        rel = self.rel(cwd, base)
        if rel is None:
            return text if "$" in text else ""
        shown = "." if rel == Path(".") else f"./{rel.as_posix()}"
        return shown + tail if shown != "." or not tail else "./..."

    def module_path(self) -> str:
        """The module path of the root's go.mod ("" without one)."""
        if self.module is None:
            self.module = ""
            try:
                text = (self.root / "go.mod").read_text(encoding="utf-8", errors="replace")
            except OSError:
                return ""
            m = re.search(r"^module\s+\"?([^\s\"]+)", text, re.MULTILINE)
            self.module = m.group(1) if m else ""
        return self.module

    def openshift_generator(self, cmd: Command) -> None:
        if self.openshift:
            return
        self.openshift = True
        self.types.append("./...")  # the generator reads every API package of the tree
        for rel in _openshift_dirs(self.root):
            self.add(rel, CrdOutput(rel, cmd.where, "openshift crd-manifest-merge"))

    def copy(self, cmd: Command, words: tuple[str, ...], program: str) -> None:
        args: list[str] = []
        dest: str | None = None
        it = iter(words[1:])
        for a in it:
            if a in ("-t", "--target-directory"):
                dest = next(it, None)
            elif a.startswith("--target-directory="):
                dest = a.partition("=")[2]
            elif a.startswith("-") and a != "-":
                continue
            else:
                args.append(a)
        if dest is None:
            if len(args) < 2:
                return
            dest = args.pop()
        # `cp "$f" "$DIR/$(basename "$f")"`: the file keeps its name, in DIR
        dest = _BASENAME_TAIL.sub("/", dest)
        dest_rel = self.rel(cmd.cwd, dest)
        if dest_rel is None:
            return
        for src in args:
            src_rel = self.rel(cmd.cwd, src.rstrip("/") or src)
            if src_rel is None:
                self.unknown_copies.append((cmd, dest))
                continue
            contents = src.endswith(("/", "/.")) and program == "rsync"
            self.copy_one(cmd, program, src_rel, dest_rel, contents)

    def copy_one(self, cmd: Command, program: str, src: Path, dest: Path, contents: bool) -> None:
        glob_chars = any(c in src.as_posix() for c in "*?[")
        for out in list(self.found):
            if out in self.removed:
                continue
            if dest == out or out in dest.parents:
                continue  # a rename inside the output (`mv "$f.tmp" "$f"`): it stays
            verb = "moved from" if program == "mv" else "copy of"
            where = f"{verb} {out.as_posix()} ({self.found[out].source})"
            target: Path | None = None
            if glob_chars and fnmatch.fnmatch(out.as_posix(), src.as_posix()):
                target = dest / out.name  # `cp -r hack/crd/* dest/`
            elif (
                glob_chars
                and any(c in src.name for c in "*?[")
                and fnmatch.fnmatch(out.as_posix(), src.parent.as_posix())
            ):
                target = dest  # `cp hack/crd/bases/*.yaml dest/`, `.../*.crd*yaml`
            elif src == out and (self.root / out).is_file():  # an output that is one file
                target = dest / out.name if (self.root / dest).is_dir() else dest
            elif src == out:
                target = self.directory_target(out, dest, contents)
            elif out in src.parents:  # some files of the output: it stays, less them
                target = dest / src.name if (self.root / dest / src.name).is_file() else dest
                self.add(target, CrdOutput(target, cmd.where, where))
                continue
            elif src in out.parents:  # a directory above the output
                base = self.directory_target(src, dest, contents)
                target = base / out.relative_to(src)
            if target is None:
                continue
            self.add(target, CrdOutput(target, cmd.where, where))
            if program == "mv":
                self.removed[out] = cmd.where

    def transform(self, cmd: Command, words: tuple[str, ...]) -> None:
        """A program markergen cannot follow (`go run ./hack/gen.go --crd-dir=hack/crd
        --charts-crd-dir=charts/crds`, `kustomize build config/crd > chart/crds.yaml`)
        that names a CRD output (or a directory above it): the other paths it names
        that hold CRD files now are where it wrote them."""
        paths: list[Path] = []
        for w in words[1:]:
            value = w.lstrip(">").partition("=")[2] if w.startswith("-") else w.lstrip(">")
            rel = self.rel(cmd.cwd, value.rstrip("/")) if value else None
            if rel is not None and rel != Path("."):
                paths.append(rel)
        live = [o for o in self.found if o not in self.removed]
        sources = [o for o in live for p in paths if p == o or p in o.parents]
        if not sources:
            return
        source = sources[0]
        for p in paths:
            if p == source or source in p.parents or p in source.parents or p in self.found:
                continue
            if _in_vendor(p) or not _holds_crds(self.root / p, self.read):
                continue
            program = (
                " ".join(words[:3]) if words[:2] == ("go", "run") else os.path.basename(words[0])
            )
            how = f"written from {source.as_posix()} by {program}"
            self.add(p, CrdOutput(p, cmd.where, how))

    def directory_target(self, src: Path, dest: Path, contents: bool) -> Path:
        """Where `cp -r SRC DEST` puts SRC's files: inside DEST/<name of SRC> when DEST
        existed (as the files on disk tell now), else DEST itself."""
        if contents:
            return dest
        nested = dest / src.name
        return nested if (self.root / nested).is_dir() else dest

    def remove(self, cmd: Command, words: tuple[str, ...]) -> None:
        for arg in words[1:]:
            if arg.startswith("-"):
                continue
            rel = self.rel(cmd.cwd, arg.rstrip("/"))
            if rel is None or rel == Path("."):
                continue
            glob_chars = any(c in arg for c in "*?[")
            for out in self.found:
                hit = (
                    fnmatch.fnmatch(out.as_posix(), rel.as_posix())
                    or any(fnmatch.fnmatch(p.as_posix(), rel.as_posix()) for p in out.parents)
                    if glob_chars
                    else out == rel or rel in out.parents
                )
                if hit:
                    self.removed.setdefault(out, cmd.where)

    def copies_by_name(self) -> None:
        """Copies whose source is a shell variable: the destination counts when it holds
        files named as the CRD files already found (openshift's payload directory)."""
        names: dict[str, Path] = {}
        for out in self.found:
            if out not in self.removed and (self.root / out).is_dir():
                for f in sorted((self.root / out).iterdir()):
                    if f.suffix in (".yaml", ".yml"):
                        names.setdefault(f.name, out)
        for cmd, dest in self.unknown_copies:
            rel = self.rel(cmd.cwd, dest.rstrip("/"))
            if rel is None or rel in self.found or not (self.root / rel).is_dir():
                continue
            there = {p.name for p in (self.root / rel).iterdir() if p.suffix in (".yaml", ".yml")}
            origins = sorted({names[n] for n in there if n in names})
            if origins:
                more = f" and {len(origins) - 1} more" if len(origins) > 1 else ""
                how = f"copy of files named as in {origins[0].as_posix()}{more}"
                self.add(rel, CrdOutput(rel, cmd.where, how))


def _holds_crds(path: Path, read: Callable[[Path], bytes] | None) -> bool:
    """A YAML file holding a CRD, or a directory with one directly inside. `read`: the
    run's reading of the files (markergen.yamlio.YamlReader.data), which reads the CRDs
    found here again; without it, the first 4 KB of each file."""
    files = [path] if path.is_file() else sorted(path.glob("*.y*ml")) if path.is_dir() else []
    for f in files[:200]:
        try:
            if read is not None:
                head = read(f.resolve())[:4096]
            else:
                with f.open("rb") as handle:
                    head = handle.read(4096)
        except OSError:
            continue
        if b"kind: CustomResourceDefinition" in head:
            return True
    return False


def _openshift_dirs(root: Path) -> list[Path]:
    """Every `zz_generated.crd-manifests` directory of the project, outside vendor/."""
    out: list[Path] = []
    for dirpath, dirnames, _ in os.walk(root):
        dirnames[:] = sorted(
            d for d in dirnames if not d.startswith((".", "_")) and d not in _WALK_SKIP
        )
        if OPENSHIFT_DIR in dirnames:
            dirnames.remove(OPENSHIFT_DIR)
            out.append(Path(dirpath, OPENSHIFT_DIR).relative_to(root))
    return out


def find_crd_outputs(root: Path, read: Callable[[Path], bytes] | None = None) -> CrdTargets:
    """The CRD directories and type paths of the commands `make` runs in `root`.

    Directories that do not exist are left out with a note; when no command names a crd
    output, `config/crd/bases` is used if it exists. `read`: the run's reading of the
    files it looks into for CRDs (markergen.yamlio.YamlReader.data), so that each CRD
    file is read once per run.
    """
    made = read_commands(root, generates)
    finder = _Finder(root, read)
    for cmd in made.commands:
        finder.command(cmd)
    finder.copies_by_name()
    notes = list(made.notes) + finder.notes
    outputs: list[CrdOutput] = []
    kept_dirs = {r for r in finder.found if r not in finder.removed}
    for rel, out in finder.found.items():
        shown = rel.as_posix()
        if rel.parent in kept_dirs and (finder.root / rel).is_file():
            continue  # one file of a directory that is patched whole
        if rel in finder.removed:
            notes.append(f"{out.source}: {shown} is removed by {finder.removed[rel]}; not used")
        elif _in_vendor(rel):
            notes.append(f"{out.source}: {shown} is under vendor/ (another project's); not used")
        elif not (finder.root / rel).exists():
            notes.append(
                f"{out.source}: CRD output {shown} does not exist (run `make manifests` first)"
            )
        else:
            outputs.append(out)
    if not outputs and (finder.root / DEFAULT_DIR).is_dir():
        outputs.append(CrdOutput(DEFAULT_DIR, "default", "kubebuilder's layout"))
    if not outputs:
        # gateway-api's generator (`go run ./tools/generator`) writes one directory per
        # release channel; markergen.crd.channels compares each CRD with its channel
        for channel in CHANNEL_DIRS:
            if _holds_crds(finder.root / channel, read):
                outputs.append(CrdOutput(channel, "default", "gateway-api's channel layout"))
    return CrdTargets(tuple(outputs), tuple(dict.fromkeys(finder.types)), tuple(notes), made.files)
