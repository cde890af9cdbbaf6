"""An edit of one file (issue 38 item 3): `check` and `generate` cold, warm with nothing
changed, after a doc-comment edit and after a marker edit of one Go file, alternating.

Usage: python bench/bench_edit.py CHECKOUT [PATTERNS...] [--repeat N] [--base PATH]

CHECKOUT is a Go API tree (e.g. /work/real/kubernetes+api, whose `./...` is 61
packages). Its Go files and go.mod files are copied to a temporary directory first: the
checkout is never edited. Each round runs, for check and then generate:
  cold          an empty cache directory (the default run: it fills the cache);
  cold-nocache  `--no-cache` (nothing read from or written to a cache; the floor);
  warm          the same command again, nothing changed (served from the run cache);
  doc-edit      after one doc comment of one types.go file got new words;
  marker-edit   after one marker line of that file got a new value.
Every edit writes text never seen before, so the run cache misses and only the per-file
syntax cache can help. Figures are medians over --repeat rounds, of wall time and of CPU
time (user + system of the child: steadier on a shared machine); the ratios are to the
warm run of the same command. With --base (a checkout of another markergen, e.g. the
commit before the per-file cache), the cold runs also run with that code, alternating:
cold-nocache is the floor, cold what writing the per-file records costs a first run;
--floor-only runs only cold-nocache generate, both codes in turn, --repeat times (the
ratios are then to this code's run). At the end, one in-process run per edit counts the files the
parser read (the rest came from the per-file cache).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _run import Run, compile_package, load_average, markergen_argv, run

_DOC = re.compile(rb"^(\t// [a-z][^+\n]*)$", re.MULTILINE)
_MARKER = b"\t// +kubebuilder:validation:MaxLength="


def copy_tree(src: Path, dest: Path) -> int:
    """The Go files and go.mod files of `src` into `dest`; how many files."""
    n = 0
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if name.endswith(".go") or name in ("go.mod", "go.work"):
                target = dest / Path(dirpath).relative_to(src) / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(Path(dirpath) / name, target)
                n += 1
    return n


def pick_file(root: Path) -> Path:
    """The largest types.go with doc comments on fields: the file a user edits."""
    found = sorted(root.rglob("types.go"), key=lambda p: (-p.stat().st_size, str(p)))
    for path in found:
        if _DOC.search(path.read_bytes()):
            return path
    raise SystemExit(f"{root}: no types.go with a field doc comment")


class Editor:
    """Edits of one file, each writing text never seen before."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.n = 0
        data = path.read_bytes()
        docs = list(_DOC.finditer(data))
        self.doc_at = docs[len(docs) // 2].end(1)  # a field's doc line mid-file
        # the marker goes on its own line below that doc line
        self.data = data[: self.doc_at] + b"\n" + _MARKER + b"0" + data[self.doc_at :]
        self.doc = b""
        self.marker = 0
        self._write()

    def _write(self) -> None:
        marker_line = _MARKER + str(self.marker).encode()
        before, after = self.data[: self.doc_at], self.data[self.doc_at :]
        after = after.split(b"\n", 2)  # "", the marker line, the rest
        self.path.write_bytes(before + self.doc + b"\n" + marker_line + b"\n" + after[2])

    def doc_edit(self) -> None:
        self.n += 1
        self.doc = f" (edit {self.n})".encode()
        self._write()

    def marker_edit(self) -> None:
        self.n += 1
        self.marker = 100 + self.n
        self._write()


def parsed_files(
    root: Path, cache: Path, args: list[str], patterns: list[str], edit: object
) -> tuple[int, int]:
    """(files parsed, Go files of the inputs) of one run in a child after `edit()`
    (imported packages' files count as parsed too)."""
    code = (
        "import sys, markergen.golang.parser as p\n"
        "n = []\n"
        "real = p.GoParser.parse_prepared\n"
        "def counted(self, path, data, struct_fields=True):\n"
        "    n.append(path)\n"
        "    return real(self, path, data, struct_fields)\n"
        "p.GoParser.parse_prepared = counted\n"
        "from markergen.cli import main\n"
        f"main({args!r})\n"
        "print(len(n), file=sys.stderr)\n"
    )
    edit()  # type: ignore[operator]
    env = dict(os.environ, MARKERGEN_CACHE_DIR=str(cache))
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, check=False,
                          capture_output=True, text=True)  # fmt: skip
    parsed = int(proc.stderr.strip().splitlines()[-1])
    from markergen.golang.packages import input_files

    return parsed, len(input_files(patterns, root) or ())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("patterns", nargs="*", default=["./..."])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--base", type=Path, help="another markergen checkout, for the floor")
    ap.add_argument("--floor-only", action="store_true",
                    help="with --base: only cold generate --no-cache, this code and the base's")  # fmt: skip
    args = ap.parse_args(argv)
    compile_package()
    mg = markergen_argv()
    base_env = {"PYTHONPATH": str(args.base.resolve())} if args.base else None
    if args.base:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(args.base / "markergen")],
                       check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    results: dict[str, list[Run]] = {}
    loads: list[float] = []

    def note(name: str, r: Run) -> None:
        results.setdefault(name, []).append(r)

    with tempfile.TemporaryDirectory(prefix="bench-edit-") as tmp:
        root = Path(tmp) / "tree"
        nfiles = copy_tree(args.checkout.resolve(), root)
        target = pick_file(root)
        editor = Editor(target)
        out = Path(tmp) / "out"
        cmds = {
            "check": [*mg, "check", "--quiet", *args.patterns],
            "generate": [*mg, "generate", "--quiet", *args.patterns, "--out-dir", str(out)],
        }
        warm = {"MARKERGEN_CACHE_DIR": str(Path(tmp) / "warm")}
        for i in range(args.repeat if args.floor_only else 0):
            loads.append(os.getloadavg()[0])
            argv_ = [*cmds["generate"], "--no-cache"]
            pair = [("", None), (" base", base_env)]
            for label, env_ in pair if i % 2 else reversed(pair):
                note(f"generate cold-nocache{label}", run(argv_, root, env_))
        for i in range(0 if args.floor_only else args.repeat):
            loads.append(os.getloadavg()[0])
            for name, argv_ in cmds.items():
                cold_dir = Path(tmp) / f"cold-{name}-{i}"
                note(f"{name} cold", run(argv_, root, {"MARKERGEN_CACHE_DIR": str(cold_dir)}))
                shutil.rmtree(cold_dir, ignore_errors=True)
                if base_env:
                    env = {**base_env, "MARKERGEN_CACHE_DIR": str(cold_dir)}
                    note(f"{name} cold base", run(argv_, root, env))
                    shutil.rmtree(cold_dir, ignore_errors=True)
                note(f"{name} cold-nocache", run([*argv_, "--no-cache"], root))
                if base_env:
                    note(f"{name} cold-nocache base", run([*argv_, "--no-cache"], root, base_env))
                run(argv_, root, warm)  # the state before: this command's own last run
                note(f"{name} warm", run(argv_, root, warm))
                editor.doc_edit()
                note(f"{name} doc-edit", run(argv_, root, warm))
                editor.marker_edit()
                note(f"{name} marker-edit", run(argv_, root, warm))
        counts = {}
        for name in [] if args.floor_only else cmds:
            for kind, edit in (("doc-edit", editor.doc_edit), ("marker-edit", editor.marker_edit)):
                counts[(name, kind)] = parsed_files(
                    root, Path(tmp) / "warm", [name, "--quiet", *args.patterns], args.patterns, edit
                )
    print(
        f"checkout {args.checkout} ({nfiles} Go and go.mod files copied), patterns "
        f"{' '.join(args.patterns)}, edited {target.relative_to(root)}"
    )
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, "
        f"load average at round starts {min(loads):.1f}-{max(loads):.1f} (now "
        f"{load_average()}), {args.repeat} rounds"
    )
    print(f"{'run':34} {'wall s':>8} {'cpu s':>8} {'wall/warm':>10} {'cpu/warm':>9}")
    for name in ["generate"] if args.floor_only else cmds:
        w = results.get(f"{name} warm") or results[f"{name} cold-nocache"]
        w_wall, w_cpu = median(r.seconds for r in w), median(r.cpu_seconds for r in w)
        for kind in ("cold", "cold base", "cold-nocache", "cold-nocache base", "warm",
                     "doc-edit", "marker-edit"):  # fmt: skip
            runs = results.get(f"{name} {kind}")
            if not runs:
                continue
            wall, cpu = median(r.seconds for r in runs), median(r.cpu_seconds for r in runs)
            codes = sorted({r.code for r in runs})
            print(
                f"{name + ' ' + kind:34} {wall:8.3f} {cpu:8.3f} {wall / w_wall:10.2f} "
                f"{cpu / w_cpu:9.2f}  exit {codes}"
            )
    for (name, kind), (parsed, total) in counts.items():
        print(f"{name} after a {kind}: parsed {parsed} of {total} input files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
