"""`markergen crd` on a generated ~2.7 MB CRD set with a few hundred sample objects,
cold (fresh process, no cache) and warm (fresh process, CRDs rewritten as controller-gen
would, Go types and samples unchanged), against a libyaml compose of the same files.

    .venv/bin/python bench/bench_crd.py [--size-mb 2.7] [--samples 300]
    .venv/bin/python bench/bench_crd.py --python OLD --python NEW [--runs 5]

Targets (issue 29): cold within 5x, warm within 2x of the compose.

With `--python` (repeatable), each interpreter runs the markergen it imports (a virtual
environment, or a wrapper script that sets PYTHONPATH to another checkout), in its own
copy of the project; the runs alternate between them, `--runs` rounds (each a cold and a
warm run), and the medians of wall and CPU (user + system) time are printed with the load
average before and after. Each ratio is to the compose's wall or CPU time: markergen
syncs every file it writes, so on a machine busy with other I/O its wall time grows
with waits that are not its work. Without it, this checkout's markergen: one cold run and the
best of three warm runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _run import Run, compile_package, load_average, run

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "testdata" / "example"
CRD = "webapp.example.com_guestbooks.yaml"
RUNNER = (
    "import sys\n"
    "from pathlib import Path\n"
    "from markergen.crd.project import run_project\n"
    "r = run_project(Path.cwd())\n"
    "sys.exit(1 if r.result.has_errors else 0)\n"
)
SAMPLE = """\
apiVersion: webapp.example.com/v1
kind: Guestbook
metadata:
  name: guestbook-{i}
spec:
  delivery:
    method: Email
    email:
      address: a{i}@example.com
"""


def build(root: Path, size_mb: float, samples: int) -> list[Path]:
    shutil.copytree(EXAMPLE, root)
    bases = root / "config" / "crd" / "bases"
    text = (bases / CRD).read_text(encoding="utf-8")
    (bases / CRD).unlink()
    files: list[Path] = []
    total = 0
    i = 0
    while total < size_mb * 1_000_000:
        path = bases / f"webapp.example.com_guestbooks_{i:04d}.yaml"
        path.write_text(text, encoding="utf-8")
        files.append(path)
        total += len(text.encode())
        i += 1
    out = root / "config" / "samples"
    out.mkdir(parents=True, exist_ok=True)
    for j in range(samples):
        (out / f"guestbook_{j:04d}.yaml").write_text(SAMPLE.format(i=j), encoding="utf-8")
    return files


def compose_seconds(files: list[Path]) -> tuple[float, float]:
    """The libyaml compose of every file: (wall, CPU) seconds, the best of 3 each."""
    best = (float("inf"), float("inf"))
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for _ in range(3):
        start, cpu = time.perf_counter(), time.process_time()
        for f in files:
            for _node in yaml.compose_all(f.read_text(encoding="utf-8"), Loader=loader):
                pass
        took = (time.perf_counter() - start, time.process_time() - cpu)
        best = (min(best[0], took[0]), min(best[1], took[1]))
    return best


def _fresh(root: Path, originals: dict[Path, bytes], cold: bool) -> None:
    """The CRDs as controller-gen writes them; for a cold run, no cache either."""
    for f, b in originals.items():
        f.write_bytes(b)
    if cold:
        shutil.rmtree(root / ".markergen-cache", ignore_errors=True)
    # on disk before the run: markergen syncs the files it writes, and must not be
    # timed writing back what this script just wrote
    os.sync()


def compare(pythons: list[str], size_mb: float, samples: int, runs: int) -> None:
    """Interleaved cold and warm runs of each interpreter's markergen, medians."""
    with tempfile.TemporaryDirectory() as tmp:
        projects: list[tuple[Path, dict[Path, bytes]]] = []
        for i, _ in enumerate(pythons):
            root = Path(tmp) / f"project{i}"
            files = build(root, size_mb, samples)
            projects.append((root, {f: f.read_bytes() for f in files}))
        files = list(projects[0][1])
        size = sum(len(b) for b in projects[0][1].values())
        compose, compose_cpu = compose_seconds(files)
        print(f"CRD files: {len(files)}, {size / 1e6:.2f} MB; samples: {samples}; runs: {runs}")
        print(
            f"libyaml compose:  {compose:.3f} s wall, {compose_cpu:.3f} s CPU; "
            f"load average {load_average()}"
        )
        results: dict[tuple[int, str], list[Run]] = {}
        for _ in range(runs):
            for i, py in enumerate(pythons):
                root, originals = projects[i]
                for phase in ("cold", "warm"):
                    _fresh(root, originals, phase == "cold")
                    results.setdefault((i, phase), []).append(run([py, "-c", RUNNER], root))
        for i, py in enumerate(pythons):
            root, originals = projects[i]
            patched = sum(f.read_bytes() != b for f, b in originals.items())
            for phase in ("cold", "warm"):
                rs = results[(i, phase)]
                wall = statistics.median(r.seconds for r in rs)
                cpu = statistics.median(r.cpu_seconds for r in rs)
                peak = max(r.peak_mb for r in rs)
                codes = sorted({r.code for r in rs})
                print(
                    f"{py}: {phase} {wall:.3f} s wall ({wall / compose:.1f}x), "
                    f"{cpu:.3f} s CPU ({cpu / compose_cpu:.1f}x), peak {peak:.0f} MB, "
                    f"exit {codes}"
                )
            print(f"{py}: files patched by the last run: {patched}/{len(originals)}")
        print(f"load average after: {load_average()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size-mb", type=float, default=2.7)
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument(
        "--python", action="append", default=[], help="an interpreter whose markergen to run"
    )
    ap.add_argument("--runs", type=int, default=5, help="rounds with --python")
    args = ap.parse_args()
    compile_package()
    if args.python:
        compare(args.python, args.size_mb, args.samples, args.runs)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        files = build(root, args.size_mb, args.samples)
        originals = {f: f.read_bytes() for f in files}
        size = sum(len(b) for b in originals.values())
        compose, compose_cpu = compose_seconds(files)
        argv = [sys.executable, "-c", RUNNER]
        env = {"PYTHONPATH": str(REPO)}
        cold = run(argv, root, env)
        _fresh(root, originals, cold=False)  # controller-gen writes fresh CRDs
        warm = min((run(argv, root, env) for _ in range(3)), key=lambda r: r.seconds)
        patched = sum(f.read_bytes() != originals[f] for f in files)
        print(f"CRD files: {len(files)}, {size / 1e6:.2f} MB; samples: {args.samples}")
        print(
            f"libyaml compose:  {compose:.3f} s, {compose_cpu:.3f} s CPU; "
            f"load average {load_average()}"
        )
        for name, r in (("cold", cold), ("warm", warm)):
            print(
                f"markergen {name}:   {r.seconds:.3f} s ({r.seconds / compose:.1f}x), "
                f"{r.cpu_seconds:.3f} s CPU ({r.cpu_seconds / compose_cpu:.1f}x), "
                f"peak {r.peak_mb:.0f} MB, exit {r.code}"
            )
        print(f"files patched by the last run: {patched}/{len(files)}")


if __name__ == "__main__":
    main()
