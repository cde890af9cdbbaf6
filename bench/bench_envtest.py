"""`markergen crd` with and without the project's own API server, on real checkouts.

    python bench/bench_envtest.py --assets DIR CHECKOUT [CHECKOUT ...]

DIR holds `kube-apiserver` and `etcd` (setup-envtest's layout, or `.tools/bin/envtest/
k8s/<version>-<os>-<arch>` after the tests built them from harness/envtest). For each
checkout, on a fresh copy each time (so every run patches, none is served from the
cache): a cold `crd --server off`, then a cold `crd` with KUBEBUILDER_ASSETS=DIR,
alternating, `--runs` times. Prints the wall times, the server line markergen printed
(CRDs created, objects dry-run, the server step's own seconds), whether the two runs
wrote the same CRDs, and the findings only the server run reports.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _run import load_average, markergen_argv


def _crd_texts(root: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for p in sorted(root.rglob("*.yaml")):
        if ".git" in p.parts or "vendor" in p.parts:
            continue
        try:
            data = p.read_bytes()
        except OSError:
            continue
        if b"CustomResourceDefinition" in data:
            out[p.relative_to(root).as_posix()] = data
    return out


def _once(
    checkout: Path, server: str | None, assets: Path
) -> tuple[float, str, dict[str, bytes], int]:
    with tempfile.TemporaryDirectory(prefix="bench-envtest-") as tmp:
        work = Path(tmp) / checkout.name
        shutil.copytree(checkout, work, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        env = dict(os.environ, MARKERGEN_CACHE_DIR=str(Path(tmp) / "cache"))
        env.pop("KUBEBUILDER_ASSETS", None)
        argv = [*markergen_argv(), "crd", "--no-cache"]
        if server == "off":
            argv += ["--server", "off"]
        else:
            env["KUBEBUILDER_ASSETS"] = str(assets)
        start = time.perf_counter()
        proc = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - start
        line = next((x for x in proc.stderr.splitlines() if "envtest binaries" in x), "")
        return seconds, line + "\n" + proc.stderr, _crd_texts(work), proc.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--assets", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    args.assets = args.assets.resolve()
    print(f"load average before: {load_average()}")
    print(
        "| project | crd --server off (median s) | crd with envtest (median s) | server line | same CRDs | only with the server |"
    )
    print("|---|---|---|---|---|---|")
    for checkout in args.checkouts:
        off_times: list[float] = []
        on_times: list[float] = []
        off_out = on_out = ""
        off_files: dict[str, bytes] = {}
        on_files: dict[str, bytes] = {}
        for _ in range(args.runs):
            s, off_out, off_files, _ = _once(checkout, "off", args.assets)
            off_times.append(s)
            s, on_out, on_files, _ = _once(checkout, None, args.assets)
            on_times.append(s)
        line = on_out.splitlines()[0].removeprefix("markergen: ")
        seen = set(off_out.splitlines())
        only = [
            x for x in on_out.splitlines()[1:] if x not in seen and ("MG510" in x or "MG513" in x)
        ]
        print(
            f"| {checkout.name} | {statistics.median(off_times):.2f} | "
            f"{statistics.median(on_times):.2f} | {line} | {on_files == off_files} | "
            f"{len(only)}{': ' + only[0] if only else ''} |"
        )
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
