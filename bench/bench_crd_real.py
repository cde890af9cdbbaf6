"""`markergen crd` on a real checkout, read-only: every CRD file is patched in memory
and checked (diff holds only inserted lines), diagnostics are counted by code.

    .venv/bin/python bench/bench_crd_real.py /work/real/openshift+api
    .venv/bin/python bench/bench_crd_real.py /work/real/kubernetes-sigs+gateway-api

CRD files: every `*.yaml` that declares `kind: CustomResourceDefinition`, outside
vendor/, hidden directories and testdata/. Types: `./...` of the checkout.
"""

from __future__ import annotations

import argparse
import collections
import difflib
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from markergen.crd.patch import patch_files  # noqa: E402
from markergen.pipeline import load_model  # noqa: E402


def crd_files(root: Path) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(
            d for d in dirnames if not d.startswith(".") and d not in ("vendor", "testdata")
        )
        for name in sorted(filenames):
            if name.endswith((".yaml", ".yml")):
                path = Path(dirpath) / name
                head = path.read_text(encoding="utf-8", errors="replace")[:4000]
                if "kind: CustomResourceDefinition" in head:
                    out.append(path)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("checkout", type=Path)
    args = ap.parse_args()
    root = args.checkout.resolve()
    files = crd_files(root)
    size = sum(p.stat().st_size for p in files)
    start = time.perf_counter()
    model = load_model(["./..."], root)
    loaded = time.perf_counter()
    # root: the proof on the objects the checkout keeps (samples, e2e data, openshift's
    # API-server test suites), as `markergen crd` does in a project
    outputs, diagnostics = patch_files(files, model, root=root)
    done = time.perf_counter()
    only_inserts = 0
    rules = 0
    for path, new in outputs.items():
        old = path.read_text(encoding="utf-8")
        ops = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
        tags = {t for t, *_ in ops.get_opcodes()}
        only_inserts += tags <= {"equal", "insert"}
        rules += sum(1 for line in new.splitlines() if line.lstrip().startswith("rule: ")) - sum(
            1 for line in old.splitlines() if line.lstrip().startswith("rule: ")
        )
    codes = collections.Counter(d.code for d in diagnostics)
    print(f"{root.name}: {len(files)} CRD files, {size / 1e6:.1f} MB")
    print(f"load Go types: {loaded - start:.2f} s; patch in memory: {done - loaded:.2f} s")
    print(f"files changed: {len(outputs)}; diff only inserted lines: {only_inserts}/{len(outputs)}")
    print(f"rules added: {rules}")
    print("diagnostics: " + ", ".join(f"{c} {n}" for c, n in sorted(codes.items())))
    for d in diagnostics:
        if d.code in ("MG502", "MG508", "MG510"):
            print(f"  {d.pos}: {d.message}")


if __name__ == "__main__":
    main()
