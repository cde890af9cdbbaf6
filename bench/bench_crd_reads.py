"""What reading the CRD and kept-object YAML costs a run (issue 38 item 2), on a real
checkout: counts first, then times.

Usage: python bench/bench_crd_reads.py CHECKOUT [--runs N] [--python PY]... [--pythonpath DIR]...

Counts (one in-process run each of `check --no-cache` and `crd --no-cache --verify`, in
a child process): how many times each CRD and kept-object file is read (`Path.read_text`,
`read_bytes`, `open`; not the writer's look at a file it would replace), how many YAML texts are composed and how many distinct ones,
PyYAML resolver calls (PyYAML's `Resolver.resolve` and markergen's own), and the CPU
spent composing and making values.

Times (cold, `--no-cache`, children; medians of `--runs`, the variants alternating):
- `check` in a copy of the checkout, and in a copy with the CRD files (those `crd` reads)
  and the kept-object files (markergen.project.samples.sample_files) removed: the goal is
  at most 1.5x;
- `crd` in the copy (the CRD directories restored before each run), against a libyaml
  compose of every CRD file it reads, in-process (best of 3, as bench_crd_tree.py) and as
  a fresh `python -c` process that imports yaml and composes them (a command against a
  command): the goal is at most 2x.

`--python PY` runs markergen with another interpreter; `--pythonpath DIR` with another
markergen source tree (an older commit's `git archive`), to compare versions side by
side: the variants alternate within each round.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _run import Run, compile_package, load_average, markergen_argv, run

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

COUNTER = r"""
import builtins, collections, json, pathlib, sys, time
import yaml, yaml.resolver
root = pathlib.Path(sys.argv[1]).resolve()
reads = collections.Counter()
composes = collections.Counter()
calls = [0]
cpu = [0.0]

def note(path):
    p = pathlib.Path(path)
    # the writer's look at a file it replaces (crd --verify's diff) is output, not input
    if sys._getframe(2).f_code.co_filename.endswith("writer.py"):
        return
    if p.suffix in (".yaml", ".yml", ".md"):
        try:
            reads[p.resolve().relative_to(root).as_posix()] += 1
        except ValueError:
            pass

rb, rt, op = pathlib.Path.read_bytes, pathlib.Path.read_text, builtins.open
def read_bytes(self):
    note(self); return rb(self)
def read_text(self, *a, **k):
    note(self); return rt(self, *a, **k)
def opener(f, *a, **k):
    if isinstance(f, (str, pathlib.Path)): note(f)
    return op(f, *a, **k)
pathlib.Path.read_bytes, pathlib.Path.read_text, builtins.open = read_bytes, read_text, opener
compose_all = yaml.compose_all
def composing(stream, *a, **k):
    if isinstance(stream, str): composes[stream] += 1
    start = time.process_time()
    out = list(compose_all(stream, *a, **k))
    cpu[0] += time.process_time() - start
    return iter(out)
yaml.compose_all = composing
resolve = yaml.resolver.BaseResolver.resolve
def counted(self, *a):
    calls[0] += 1; return resolve(self, *a)
yaml.resolver.BaseResolver.resolve = counted
import markergen.yamlread as yr
loader = getattr(yr, "_Loader", None)
if loader is not None and loader.resolve is not counted:
    own = loader.resolve
    def counted_own(self, *a):
        calls[0] += 1; return own(self, *a)
    loader.resolve = counted_own
from markergen.cli import main
start = time.process_time()
try:
    code = main(sys.argv[2:])
except SystemExit as e:
    code = e.code
total = time.process_time() - start
sys.stdout.flush()
print(json.dumps({
    "exit": code, "cpu": total, "compose_cpu": cpu[0],
    "files": len(reads), "reads": sum(reads.values()),
    "files_read_more_than_once": sum(1 for n in reads.values() if n > 1),
    "composes": sum(composes.values()), "distinct_texts": len(composes),
    "resolver_calls": calls[0],
}), file=sys.stderr)
"""


def yaml_inputs(root: Path) -> tuple[list[Path], list[Path]]:
    """(the CRD files a zero-config `crd` reads, the kept-object files)."""
    from markergen.crd.project import _plan
    from markergen.project.samples import sample_files
    from markergen.yamlio import YamlReader

    files, _, _ = _plan(root, (), (), False, YamlReader())
    return files, sample_files(root, crd_files=files)


def masked_texts(files: list[Path]) -> list[str]:
    """The CRD texts as markergen composes them: a Helm template's action lines masked
    (markergen.crd.helm); a file templated inside a document is left out, as markergen
    leaves it."""
    from markergen.crd.helm import mask_templates

    texts = []
    for f in files:
        masked = mask_templates(f.read_text(encoding="utf-8"))
        if not masked.inside_line:
            texts.append(masked.text)
    return texts


def compose_in_process(texts: list[str]) -> tuple[float, float]:
    """Best of 3 (wall, CPU)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    best = (float("inf"), float("inf"))
    for _ in range(3):
        start, cpu = time.perf_counter(), time.process_time()
        for text in texts:
            for _node in yaml.compose_all(text, Loader=loader):
                pass
        took = (time.perf_counter() - start, time.process_time() - cpu)
        best = (min(best[0], took[0]), min(best[1], took[1]))
    return best


def compose_command(texts: list[str], where: Path) -> list[str]:
    """A fresh process that imports yaml and composes `texts` (written under `where`)."""
    where.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, text in enumerate(texts):
        path = where / f"{i}.yaml"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    program = (
        "import sys, yaml\n"
        "for f in sys.argv[1:]:\n"
        "    for _ in yaml.compose_all(open(f, encoding='utf-8').read(), Loader=yaml.CSafeLoader):\n"
        "        pass\n"
    )
    return [sys.executable, "-c", program, *paths]


def counts(py: str, path: str | None, copy: Path, args: list[str]) -> dict[str, float]:
    env = dict(os.environ, MARKERGEN_CACHE_DIR=str(copy.parent / "cache-count"))
    if path:
        env["PYTHONPATH"] = path
    proc = subprocess.run(
        [py, "-c", COUNTER, str(copy), *args],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    last = proc.stderr.strip().splitlines()[-1]
    found: dict[str, float] = json.loads(last)
    return found


def _restore(source: Path, copy: Path, files: list[Path]) -> None:
    for f in files:
        rel = f.relative_to(copy)
        shutil.copy2(source / rel, f)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--python", action="append", default=[])
    ap.add_argument("--pythonpath", action="append", default=[])
    args = ap.parse_args(argv)
    variants: list[tuple[str, str | None]] = [(p, None) for p in args.python]
    variants += [(sys.executable, p) for p in args.pythonpath]
    variants = variants or [(sys.executable, None)]
    compile_package()
    source = args.checkout.resolve()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        full, bare = tmp / "full", tmp / "bare"
        shutil.copytree(source, full, symlinks=True)
        shutil.copytree(source, bare, symlinks=True)
        crds, samples = yaml_inputs(full)
        for f in [*crds, *samples]:
            (bare / f.relative_to(full)).unlink(missing_ok=True)
        size = sum(f.stat().st_size for f in crds) / 1e6
        ssize = sum(f.stat().st_size for f in samples) / 1e6
        print(f"{source.name}: {len(crds)} CRD files ({size:.2f} MB), {len(samples)} "
              f"kept-object candidates ({ssize:.2f} MB); load {load_average()}")  # fmt: skip
        for py, path in variants:
            name = path or py
            for cmd in (["check", "--no-cache", "-q"], ["crd", "--no-cache", "--verify", "-q"]):
                c = counts(py, path, full, cmd)
                print(f"counts {name} {cmd[0]}: {json.dumps(c)}")
        texts = masked_texts(crds)
        compose, compose_cpu = compose_in_process(texts)
        composer = compose_command(texts, tmp / "masked")
        print(f"libyaml compose in-process: {compose:.3f} s wall, {compose_cpu:.3f} s CPU")
        times: dict[str, list[Run]] = {}
        for _ in range(args.runs):
            times.setdefault("compose command", []).append(run(composer, full))
            for py, path in variants:
                name = path or py
                env = {"PYTHONPATH": path} if path else {}
                env["MARKERGEN_CACHE_DIR"] = str(tmp / "cache")
                mg = markergen_argv(py)
                for label, where in (("check with CRDs", full), ("check without", bare)):
                    times.setdefault(f"{name} {label}", []).append(
                        run([*mg, "check", "--no-cache", "-q"], where, env)
                    )
                _restore(source, full, crds)
                times.setdefault(f"{name} crd", []).append(
                    run([*mg, "crd", "--no-cache", "-q"], full, env)
                )
                _restore(source, full, crds)
        med = {k: (statistics.median(r.seconds for r in v),
                   statistics.median(r.cpu_seconds for r in v)) for k, v in times.items()}  # fmt: skip
        cw, cc = med["compose command"]
        print(f"libyaml compose as a command: {cw:.3f} s wall, {cc:.3f} s CPU")
        for py, path in variants:
            name = path or py
            fw, fc = med[f"{name} check with CRDs"]
            bw, bc = med[f"{name} check without"]
            rw, rc = med[f"{name} crd"]
            print(f"{name}:")
            print(
                f"  check cold with CRDs {fw:.2f} s ({fc:.2f} CPU), without {bw:.2f} s "
                f"({bc:.2f} CPU): ratio {fw / bw:.2f} wall, {fc / bc:.2f} CPU (goal <= 1.5)"
            )
            print(f"  crd cold {rw:.2f} s ({rc:.2f} CPU): {rw / compose:.1f}x / {rc / compose_cpu:.1f}x "
                  f"the in-process compose, {rw / cw:.1f}x / {rc / cc:.1f}x the compose command "
                  "(wall / CPU; goal <= 2)")  # fmt: skip
            codes = sorted({r.code for k, v in times.items() if k.startswith(name) for r in v})
            composed = sorted({r.code for r in times["compose command"]})
            print(f"  exits {codes} (the compose command's {composed}), runs {args.runs}")
        print(f"load after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
