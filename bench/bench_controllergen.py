"""markergen beside controller-gen, the tool it runs next to (issue 38 item 1): what a
kubebuilder team waits for in `make generate` is controller-gen writing the CRDs, then
`markergen check`, `generate` and `crd`.

Usage: python bench/bench_controllergen.py CHECKOUT... [--rounds N] [--min 10]
       python bench/bench_controllergen.py /work/real [--only NAME,...]

A directory that is not a Go module (no go.mod) is a corpus directory: its projects with a
controller-gen CRD command in their make files are taken (markergen.project.makefile /
outputs read them), plus openshift/api, whose CRDs come from openshift's own generator
(a controller-gen run over the API packages of its CRD directories stands in for it).
For each project, in a temporary copy (the checkout is never written):

- controller-gen: every CRD command of the make files, with the `crd...` generator
  options, `paths=` and `--load-build-tags` the make file gives and its output moved to a
  temporary directory (`output:crd:artifacts:config=TMP/n`); other generators (rbac,
  webhook, object) are left out. The binary is the one tests/kubeserver.py builds
  (`build("controller-gen")`, .tools/bin/markergen-controller-gen, v0.23.0).
- markergen `check`, `generate` and `crd`, zero-config as a project runs them: cold (an
  empty cache directory) and warm (the same commands again, nothing changed). Before each
  of the two sequences the CRD directories are restored from the checkout, as a
  controller-gen run would rewrite them.

controller-gen runs once untimed first (Go's build cache holds the project's
dependencies then, as in a team's repeated `make generate`). The steps alternate within
each round (controller-gen, cold, warm), rounds follow each other; medians of wall time are printed with markergen's ratio to controller-gen's CRD
step, and of CPU time (user+sys of the process and the children it waited for: go list
for controller-gen). The goal: cold sum <= 25% of controller-gen, warm sum <= 5%.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _run import Run, compile_package, load_average, markergen_argv, run

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from markergen.project.makefile import Command, read_commands  # noqa: E402
from markergen.project.outputs import OPENSHIFT_DIR, find_crd_outputs, generates  # noqa: E402

CONTROLLER_GEN = REPO / ".tools" / "bin" / "markergen-controller-gen"
COMMANDS = ("check", "generate", "crd")
SKIP = frozenset({"openshift+hypershift"})  # 29,460 files and 16 controller-gen runs


@dataclass
class Project:
    root: Path
    runs: list[tuple[Path, list[str]]]  # (directory relative to root, arguments)
    crd_dirs: list[Path]
    timings: dict[str, list[Run]] = field(default_factory=dict)


def _binary_index(words: tuple[str, ...]) -> int | None:
    for i, w in enumerate(words):
        base = os.path.basename(w)
        if base.startswith("controller-gen") or w.endswith("cmd/controller-gen"):
            return i
        if "CONTROLLER_GEN" in w.upper().replace("-", "_"):
            return i
    return None


def crd_arguments(cmd: Command, out: Path) -> list[str] | None:
    """controller-gen's arguments for the CRD step of `cmd`, its output in `out`; None
    when the command's paths or options are not expanded (`$(...)`, `${1:-...}`)."""
    i = _binary_index(cmd.words)
    words = cmd.words[i + 1 :] if i is not None else cmd.words
    args: list[str] = []
    for w in words:
        if w.startswith(("crd", "+crd", "paths=", "--load-build-tags")):
            if "$" in w:
                return None
            args.append(w)
    if not any(a.startswith("paths=") for a in args) or not any(
        a.startswith(("crd", "+crd")) for a in args
    ):
        return None
    return [*args, f"output:crd:artifacts:config={out}"]


def discover(root: Path, out: Path) -> Project | None:
    """The controller-gen CRD runs of the project at `root`, or None when it has none."""
    targets = find_crd_outputs(root)
    runs: list[tuple[Path, list[str]]] = []
    for n, cmd in enumerate(read_commands(root, generates).commands):
        if not any(w.startswith(("crd", "+crd")) for w in cmd.words):
            continue  # openshift's crd-manifest-merge
        args = crd_arguments(cmd, out / str(n))
        if args is not None and cmd.cwd.is_relative_to(root):
            runs.append((cmd.cwd.relative_to(root), args))
    if not runs and any(OPENSHIFT_DIR in str(d) for d in targets.dirs):
        # openshift's generator wraps controller-gen's CRD generation per API version
        packages = sorted({f"paths=./{d.parent.as_posix()}" for d in targets.dirs
                           if d.name == OPENSHIFT_DIR})  # fmt: skip
        runs.append((Path("."), ["crd", *packages, f"output:crd:artifacts:config={out}/0"]))
    if not runs:
        return None
    return Project(root, runs, [d for d in targets.dirs if (root / d).exists()])


def candidates(paths: list[Path], only: set[str]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if (p / "go.mod").is_file():
            out.append(p)
            continue
        for d in sorted(p.iterdir()):
            wanted = not only or d.name in only
            if wanted and d.is_dir() and (d / "go.mod").is_file() and d.name not in SKIP:
                out.append(d)
    return out


def _go_env() -> dict[str, str]:
    path = os.environ.get("PATH", "")
    return {"PATH": f"/usr/local/go/bin:{path}", "GOTOOLCHAIN": "local"}


def _restore(source: Path, copy: Path, dirs: list[Path]) -> None:
    for d in dirs:
        src, dst = source / d, copy / d
        if src.is_dir():
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(src, dst, symlinks=True)
        elif src.is_file():
            shutil.copy2(src, dst)


def bench(project: Project, rounds: int, tmp: Path) -> None:
    copy = tmp / "copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(project.root, copy, symlinks=True)
    cache = tmp / "cache"
    env = {"MARKERGEN_CACHE_DIR": str(cache)}
    mg = markergen_argv()
    t = project.timings
    # one untimed controller-gen run first: the first run of a project builds its
    # dependencies into Go's build cache, which a team's `make generate` finds warm
    for rel, args in project.runs:
        run([str(CONTROLLER_GEN), *args], copy / rel, _go_env())
    for _ in range(rounds):
        cg: list[Run] = []
        for rel, args in project.runs:
            for a in args:
                if a.startswith("output:crd:artifacts:config="):
                    shutil.rmtree(a.split("=", 1)[1], ignore_errors=True)
            cg.append(run([str(CONTROLLER_GEN), *args], copy / rel, _go_env()))
        t.setdefault("controller-gen", []).append(
            Run(
                sum(r.seconds for r in cg),
                max(r.peak_mb for r in cg),
                max(r.code for r in cg),
                sum(r.cpu_seconds for r in cg),
            )
        )
        for phase in ("cold", "warm"):
            _restore(project.root, copy, project.crd_dirs)
            if phase == "cold":
                shutil.rmtree(cache, ignore_errors=True)
            os.sync()
            for command in COMMANDS:
                t.setdefault(f"{command} {phase}", []).append(run([*mg, command, "-q"], copy, env))
    shutil.rmtree(copy, ignore_errors=True)


def _median(runs: list[Run]) -> tuple[float, float]:
    return statistics.median(r.seconds for r in runs), statistics.median(
        r.cpu_seconds for r in runs
    )


def table(projects: list[Project]) -> list[str]:
    rows = [
        "| project | controller-gen s (CPU s) | check / generate / crd cold s | cold sum s "
        "(CPU s) | ratio wall (CPU) | check / generate / crd warm s | warm sum s (CPU s) | "
        "ratio wall (CPU) | exits |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for p in projects:
        t = p.timings
        cg, cg_cpu = _median(t["controller-gen"])
        cold = [_median(t[f"{c} cold"]) for c in COMMANDS]
        warm = [_median(t[f"{c} warm"]) for c in COMMANDS]
        exits = sorted({r.code for k, rs in t.items() for r in rs if k != "controller-gen"})
        cg_exit = sorted({r.code for r in t["controller-gen"]})
        cells = []
        for phase in (cold, warm):
            wall, cpu = sum(x[0] for x in phase), sum(x[1] for x in phase)
            cells.append(
                f"{' / '.join(f'{x[0]:.2f}' for x in phase)} | {wall:.2f} ({cpu:.2f}) | "
                f"**{wall / cg:.0%}** ({cpu / cg_cpu:.0%})"
            )
        rows.append(
            f"| {p.root.name} | {cg:.2f} ({cg_cpu:.2f}) | {cells[0]} | {cells[1]} | "
            f"cg {cg_exit}, markergen {exits} |"
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated project directory names")
    ap.add_argument("--min", type=int, default=10, help="fail with fewer projects")
    args = ap.parse_args(argv)
    if not CONTROLLER_GEN.exists():
        sys.path.insert(0, str(REPO / "tests"))
        import kubeserver

        kubeserver.build("controller-gen")
    version = subprocess.run(
        [str(CONTROLLER_GEN), "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    compile_package()
    only = {n for n in args.only.split(",") if n}
    projects: list[Project] = []
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        for root in candidates(args.paths, only):
            found = discover(root, tmp / "cg-out")
            if found is not None:
                projects.append(found)
        print(f"{len(projects)} projects; {version}; load {load_average()}", flush=True)
        for p in projects:
            shown = "; ".join(f"({rel}) {' '.join(a)}" for rel, a in p.runs)
            print(f"== {p.root.name}: {shown}", flush=True)
            bench(p, args.rounds, tmp)
            print("\n".join(table([p])[2:]), f" load {load_average()}", flush=True)
    print()
    print("\n".join(table(projects)))
    print(f"load after: {load_average()}")
    return 0 if len(projects) >= args.min else 1


if __name__ == "__main__":
    sys.exit(main())
