"""Do two versions of markergen write the same outputs on real trees?

Usage: python bench/bench_same_outputs.py --python OLD --python NEW TREE... [--union-format F]
           [--check] [--crd] [--diff GITDIR:REV1..REV2]...

For each TREE (a checkout, read only: nothing is written into it), runs
`PY -m markergen generate --no-cache --fragments --out-dir TMP` from the tree's top with
each interpreter (zero-config: the packages markergen finds itself), then compares,
byte for byte, every file each run wrote, the printed report (stdout and stderr, less
the temporary directory's name) and the exit code. Prints one line per tree and output
(and the first lines of a report's diff), and exits 1 when anything differs.

`--check` compares `check --no-cache --format json` the same way. `--crd` copies the tree
once per interpreter and runs `crd --no-cache --server off` in the copy, then compares
every file the run changed and its report. `--diff GITDIR:REV1..REV2` (repeatable, not
per tree) runs `diff REV1 REV2 --format json --fail-on none` in a clone of GITDIR at REV2.

An interpreter may be a wrapper script that sets PYTHONPATH to another checkout of
markergen, to compare a commit with the working tree without a second environment.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def _generate(python: str, tree: Path, out: Path, extra: list[str]) -> tuple[int, str]:
    argv = [python, "-m", "markergen", "generate", "--no-cache", "--fragments",
            "--out-dir", str(out), *extra]
    proc = subprocess.run(argv, cwd=tree, capture_output=True, text=True)
    report = (proc.stdout + proc.stderr).replace(str(out), "OUT")
    return proc.returncode, report


def _run(python: str, argv: list[str], cwd: Path, hide: list[Path]) -> tuple[int, str]:
    proc = subprocess.run([python, "-m", "markergen", *argv], cwd=cwd, capture_output=True,
                          text=True)
    report = proc.stdout + proc.stderr
    for path in hide:
        report = report.replace(str(path), "TREE")
    return proc.returncode, report


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.parts and p.suffix in (".yaml", ".yml", ".json")}


def _crd(python: str, tree: Path, work: Path) -> tuple[tuple[int, str], dict[str, bytes]]:
    shutil.copytree(tree, work, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    before = _snapshot(work)
    run = _run(python, ["crd", "--no-cache", "--server", "off"], work, [work])
    after = _snapshot(work)
    return run, {k: v for k, v in after.items() if before.get(k) != v}


def _diff(python: str, spec: str, work: Path) -> tuple[int, str]:
    gitdir, revs = spec.rsplit(":", 1)
    base, head = revs.split("..")
    subprocess.run(["git", "clone", "-q", "--no-checkout", gitdir, str(work)], check=True)
    subprocess.run(["git", "-C", str(work), "checkout", "-q", head], check=True)
    return _run(python, ["diff", base, head, "--format", "json", "--fail-on", "none"],
                work, [work])


def _compare(name: str, what: str, runs: list[tuple[int, str]]) -> int:
    same = runs[0] == runs[1]
    print(f"{name}: {what}: exit {runs[0][0]}/{runs[1][0]}, report "
          f"({runs[1][1].count(chr(10))} lines): {'same' if same else 'DIFFERENT'}")
    if not same:
        lines = difflib.unified_diff(
            runs[0][1].splitlines(), runs[1][1].splitlines(), "old", "new", lineterm="", n=0
        )
        for line in list(lines)[2:22]:
            print(f"    {line}")
    return int(not same)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("trees", type=Path, nargs="+")
    ap.add_argument("--python", action="append", required=True,
                    help="interpreter of a markergen version; give it twice")
    ap.add_argument("--union-format", default="", help="passed to generate when given")
    ap.add_argument("--check", action="store_true", help="also compare check's JSON")
    ap.add_argument("--crd", action="store_true", help="also compare crd in a copy")
    ap.add_argument("--diff", action="append", default=[], metavar="GITDIR:REV1..REV2",
                    help="also compare diff of two revisions of a git repository")
    args = ap.parse_args(argv)
    if len(args.python) != 2:
        ap.error("give --python twice: the old version, then the new one")
    # relative to where this script was started, not to each tree
    pythons = [os.path.abspath(p) if "/" in p else p for p in args.python]
    extra = ["--union-format", args.union_format] if args.union_format else []
    differ = 0
    for tree in args.trees:
        with tempfile.TemporaryDirectory() as tmp:
            outs = [Path(tmp) / "old", Path(tmp) / "new"]
            runs = [_generate(py, tree.resolve(), out, extra) for py, out in zip(pythons, outs, strict=True)]
            names = sorted({p.name for out in outs if out.is_dir() for p in out.iterdir()})
            for name in names:
                a, b = (out / name for out in outs)
                same = a.is_file() and b.is_file() and a.read_bytes() == b.read_bytes()
                size = b.stat().st_size if b.is_file() else 0
                print(f"{tree.name}: {name} ({size:,} bytes): {'same' if same else 'DIFFERENT'}")
                differ += not same
            same_report = runs[0] == runs[1]
            print(f"{tree.name}: exit {runs[0][0]}/{runs[1][0]}, report "
                  f"({runs[1][1].count(chr(10))} lines): {'same' if same_report else 'DIFFERENT'}")
            differ += not same_report
            if not same_report:
                lines = difflib.unified_diff(
                    runs[0][1].splitlines(), runs[1][1].splitlines(), "old", "new", lineterm="", n=0
                )
                for line in list(lines)[2:22]:
                    print(f"    {line}")
            if not names:
                print(f"{tree.name}: no output written")
            if args.check:
                runs = [_run(py, ["check", "--no-cache", "--format", "json"], tree.resolve(),
                             [tree.resolve()]) for py in pythons]
                differ += _compare(tree.name, "check", runs)
            if args.crd:
                done = [_crd(py, tree.resolve(), Path(tmp) / f"crd{i}")
                        for i, py in enumerate(pythons)]
                differ += _compare(tree.name, "crd", [run for run, _ in done])
                files = sorted(set(done[0][1]) | set(done[1][1]))
                changed = [f for f in files if done[0][1].get(f) != done[1][1].get(f)]
                print(f"{tree.name}: crd changed {len(done[1][1])} file(s), "
                      f"{len(changed)} written differently {changed[:5]}")
                differ += len(changed)
    for spec in args.diff:
        with tempfile.TemporaryDirectory() as tmp:
            runs = [_diff(py, spec, Path(tmp) / f"d{i}") for i, py in enumerate(pythons)]
            differ += _compare(spec, "diff", runs)
    print("all the same" if not differ else f"{differ} difference(s)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
