"""`markergen crd` on a generated ~2.7 MB CRD set with a few hundred sample objects,
cold (fresh process, no cache) and warm (fresh process, CRDs rewritten as controller-gen
would, Go types and samples unchanged), against a libyaml compose of the same files.

    .venv/bin/python bench/bench_crd.py [--size-mb 2.7] [--samples 300]

Targets (issue 22, "Speed"): cold within 6x, warm within 3x of the compose.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _run import compile_package, run

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


def compose_seconds(files: list[Path]) -> float:
    best = float("inf")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for _ in range(3):
        start = time.perf_counter()
        for f in files:
            for _node in yaml.compose_all(f.read_text(encoding="utf-8"), Loader=loader):
                pass
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size-mb", type=float, default=2.7)
    ap.add_argument("--samples", type=int, default=300)
    args = ap.parse_args()
    compile_package()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        files = build(root, args.size_mb, args.samples)
        originals = {f: f.read_bytes() for f in files}
        size = sum(len(b) for b in originals.values())
        compose = compose_seconds(files)
        argv = [sys.executable, "-c", RUNNER]
        env = {"PYTHONPATH": str(REPO)}
        cold = run(argv, root, env)
        for f, b in originals.items():  # controller-gen writes fresh CRDs
            f.write_bytes(b)
        warm = min((run(argv, root, env) for _ in range(3)), key=lambda r: r.seconds)
        patched = sum(f.read_bytes() != originals[f] for f in files)
        print(f"CRD files: {len(files)}, {size / 1e6:.2f} MB; samples: {args.samples}")
        print(f"libyaml compose:  {compose:.3f} s")
        print(
            f"markergen cold:   {cold.seconds:.3f} s ({cold.seconds / compose:.1f}x), "
            f"peak {cold.peak_mb:.0f} MB, exit {cold.code}"
        )
        print(
            f"markergen warm:   {warm.seconds:.3f} s ({warm.seconds / compose:.1f}x), "
            f"peak {warm.peak_mb:.0f} MB, exit {warm.code}"
        )
        print(f"files patched by the last run: {patched}/{len(files)}")


if __name__ == "__main__":
    main()
