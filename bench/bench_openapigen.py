"""Time openapi-gen and `markergen generate` on the same kubernetes/api packages.

Usage: python bench/bench_openapigen.py API_DIR APIMACHINERY_DIR [--runs N] [--gocode DIR]
                                       [--keep] [--python [NAME=]PY]...

API_DIR and APIMACHINERY_DIR are checkouts of kubernetes/api and kubernetes/apimachinery
(for local runs only; never commit them). The packages are every directory of API_DIR
with a types.go except core/v1 (the issue "Speed": 59 packages). The script

1. builds a temporary GOPATH with symlinks `src/k8s.io/api` and
   `src/k8s.io/apimachinery` (plus Debian's /usr/share/gocode for the rest), and runs
   openapi-gen on all packages under `/usr/bin/time -v` (wall time, peak RSS);
2. runs `python -m markergen generate <packages> --out-dir <tmp> --no-cache` in a fresh
   process (cold: new interpreter, nothing cached) under `/usr/bin/time -v`, from
   API_DIR; markergen's .pyc files are written first, as installing a wheel does (an
   environment with PYTHONDONTWRITEBYTECODE would otherwise recompile every module on
   every run);
3. runs the same command without `--no-cache`, a cache directory filled by one run
   first (warm: the inputs did not change);
4. parses the packages' hand-written files (not `_test.go`, not files with the standard
   `// Code generated ... DO NOT EDIT.` header) with tree-sitter directly, in this
   process, the floor for any tree-sitter front end (reading files is not timed);

Steps 1-3 are run --runs times (default 5), interleaved so that a slower spell of the
machine hits both tools alike; it prints the median (and the range) of each, the
definitions each tool wrote, and the ratios of the medians.

`--python [NAME=]PY` (repeatable) runs `PY -m markergen` instead of this interpreter's:
with two (the code before a change and after it), each run of openapi-gen is followed by
a cold and a warm run of each, in turn, and each gets its own lines and ratios, so that
a before/after comparison on a shared machine comes from one run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

EXCLUDED = ("core/v1",)
GENERATED = re.compile(rb"^// Code generated .* DO NOT EDIT\.$", re.MULTILINE)
TIME_BIN = "/usr/bin/time"


@dataclass(frozen=True)
class Measure:
    seconds: float
    max_rss_kb: int
    exit_code: int
    stderr_tail: str


def find_packages(api: Path) -> list[str]:
    """Directories (relative, posix) of API_DIR that hold a types.go, minus EXCLUDED."""
    found = {p.parent.relative_to(api).as_posix() for p in api.rglob("types.go")}
    return sorted(d for d in found if d not in EXCLUDED and "/testdata" not in f"/{d}")


def _clock(text: str) -> float:
    # /usr/bin/time prints h:mm:ss or m:ss.ss
    parts = [float(p) for p in text.strip().split(":")]
    seconds = 0.0
    for p in parts:
        seconds = seconds * 60 + p
    return seconds


def timed(cmd: Sequence[str], cwd: Path, env: dict[str, str]) -> Measure:
    """Run `cmd` under GNU time -v; its report goes to a file, not the program's stderr."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        proc = subprocess.run([TIME_BIN, "-v", "-o", report.name, *cmd], cwd=cwd, env=env,
                              capture_output=True, text=True, check=False)
        text = Path(report.name).read_text()
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if not wall or not rss:
        raise SystemExit(f"cannot read {TIME_BIN} -v output:\n{text}")
    return Measure(_clock(wall.group(1)), int(rss.group(1)), proc.returncode,
                   proc.stderr[-2000:])


def go_env(gopath: str) -> dict[str, str]:
    goroot = subprocess.run(["go", "env", "GOROOT"], capture_output=True, text=True,
                            check=True).stdout.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GO")}
    # GOPATH mode (openapi-gen of 2021 knows nothing else); without GOROOT it silently
    # skips what imports the standard library.
    env.update(GO111MODULE="off", GOPATH=gopath, GOROOT=goroot, GOPROXY="off")
    return env


def run_openapi_gen(api: Path, machinery: Path, gocode: Path, packages: list[str],
                    tmp: Path) -> tuple[Measure, int]:
    gopath = tmp / "gopath"
    (gopath / "src" / "k8s.io").mkdir(parents=True)
    (gopath / "src" / "k8s.io" / "api").symlink_to(api.resolve())
    (gopath / "src" / "k8s.io" / "apimachinery").symlink_to(machinery.resolve())
    header = tmp / "header.txt"
    header.write_text("")
    out_pkg = "k8s.io/zz_bench/openapi"
    cmd = ["openapi-gen", "-i", ",".join(f"k8s.io/api/{p}" for p in packages),
           "-p", out_pkg, "-o", str(gopath / "src"), "-h", str(header),
           "-r", str(tmp / "violations.txt")]
    measure = timed(cmd, tmp, go_env(f"{gopath}{os.pathsep}{gocode}"))
    generated = gopath / "src" / out_pkg / "openapi_generated.go"
    count = generated.read_text().count("\nfunc schema_") if generated.is_file() else 0
    return measure, count


def run_markergen(api: Path, packages: list[str], tmp: Path,
                  cache: Path | None = None, python: str = sys.executable) -> tuple[Measure, int]:
    """Cold with `cache` None (--no-cache: never served from the cache), else warm."""
    out = tmp / "markergen-out"
    shutil.rmtree(out, ignore_errors=True)
    cmd = [python, "-m", "markergen", "generate", *[f"./{p}" for p in packages],
           "--out-dir", str(out)]
    env = dict(os.environ)
    env.pop("PYTHONHASHSEED", None)
    if cache is None:
        cmd.append("--no-cache")
    else:
        env["MARKERGEN_CACHE_DIR"] = str(cache)
    measure = timed(cmd, api, env)
    v2 = out / "openapi-v2.json"
    count = 0
    if v2.is_file():
        count = len(json.loads(v2.read_text())["definitions"])
    return measure, count


def compile_markergen(python: str = sys.executable) -> None:
    subprocess.run([python, "-c", "import compileall, markergen, os; "
                    "compileall.compile_dir(os.path.dirname(markergen.__file__), quiet=1)"],
                   check=True, stdout=subprocess.DEVNULL, cwd=tempfile.gettempdir())


def summary(name: str, runs: list[Measure], defs: int) -> str:
    secs = sorted(m.seconds for m in runs)
    rss = statistics.median(m.max_rss_kb for m in runs) / 1024
    codes = sorted({m.exit_code for m in runs})
    return (f"{name}: wall median {statistics.median(secs):.2f} s (range {secs[0]:.2f}-"
            f"{secs[-1]:.2f}, {len(secs)} runs), max RSS median {rss:.0f} MiB, "
            f"exit {','.join(map(str, codes))}, definitions {defs}")


def hand_written_files(api: Path, packages: list[str]) -> list[tuple[Path, bytes]]:
    files: list[tuple[Path, bytes]] = []
    for pkg in packages:
        for path in sorted((api / pkg).glob("*.go")):
            if path.name.endswith("_test.go"):
                continue
            data = path.read_bytes()
            head = data.split(b"\npackage ", 1)[0]
            if not GENERATED.search(head):
                files.append((path, data))
    return files


def tree_sitter_floor(files: list[tuple[Path, bytes]]) -> float:
    import tree_sitter_go
    from tree_sitter import Language, Parser

    parser = Parser(Language(tree_sitter_go.language()))
    start = time.perf_counter()
    for _, data in files:
        parser.parse(data)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("api", type=Path, help="checkout of kubernetes/api")
    ap.add_argument("apimachinery", type=Path, help="checkout of kubernetes/apimachinery")
    ap.add_argument("--gocode", type=Path, default=Path("/usr/share/gocode"),
                    help="extra GOPATH entry with openapi-gen's other imports (Debian's)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--runs", type=int, default=5, help="runs of each tool (median)")
    ap.add_argument("--python", action="append", default=[],
                    help="[NAME=]interpreter whose markergen runs (repeat to alternate several)")
    args = ap.parse_args(argv)
    pythons = [(p.split("=", 1) if "=" in p else (p, p)) for p in args.python] or [
        ("markergen", sys.executable)
    ]
    for d in (args.api, args.apimachinery):
        if not d.is_dir():
            print(f"not a directory: {d}", file=sys.stderr)
            return 2
    for tool in ("openapi-gen", "go", TIME_BIN):
        if shutil.which(tool) is None:
            print(f"{tool} not found", file=sys.stderr)
            return 2
    packages = find_packages(args.api)
    files = hand_written_files(args.api, packages)
    size = sum(len(d) for _, d in files)
    for _, py in pythons:
        compile_markergen(py)
    tmp = Path(tempfile.mkdtemp(prefix="bench-openapigen-"))
    og_runs: list[Measure] = []
    cold_runs: dict[str, list[Measure]] = {name: [] for name, _ in pythons}
    warm_runs: dict[str, list[Measure]] = {name: [] for name, _ in pythons}
    defs: dict[str, int] = {}
    loads: list[str] = []
    try:
        for name, py in pythons:  # fills each cache
            run_markergen(args.api, packages, tmp, tmp / f"cache-{name}", py)
        for i in range(args.runs):
            loads.append(" ".join(f"{x:.1f}" for x in os.getloadavg()))
            run_tmp = tmp / f"og{i}"
            run_tmp.mkdir()
            og, og_defs = run_openapi_gen(args.api, args.apimachinery, args.gocode, packages,
                                          run_tmp)
            og_runs.append(og)
            for name, py in pythons:
                mg, defs[name] = run_markergen(args.api, packages, tmp, None, py)
                cold_runs[name].append(mg)
                warm, _ = run_markergen(args.api, packages, tmp, tmp / f"cache-{name}", py)
                warm_runs[name].append(warm)
        floor = min(tree_sitter_floor(files) for _ in range(args.runs))
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"packages: {len(packages)} (every types.go package of {args.api} but "
          f"{', '.join(EXCLUDED)})")
    print(f"hand-written files: {len(files)}, {size} bytes")
    print(f"load average (1, 5, 15 min) at each round: {'; '.join(loads)}")
    print(summary("openapi-gen", og_runs, og_defs))
    for name, _ in pythons:
        print(summary(f"{name} generate (cold)", cold_runs[name], defs[name]))
        print(summary(f"{name} generate (warm)", warm_runs[name], defs[name]))
    for m in (*og_runs, *(m for r in cold_runs.values() for m in r),
              *(m for r in warm_runs.values() for m in r)):
        if m.exit_code not in (0, 1):
            print(f"  stderr: {m.stderr_tail}")
    print(f"tree-sitter parse of the hand-written files: {floor:.3f} s (best of {args.runs})")
    og_s = statistics.median(m.seconds for m in og_runs)
    og_kb = statistics.median(m.max_rss_kb for m in og_runs)
    for pname, _ in pythons:
        for name, runs in (("cold", cold_runs[pname]), ("warm", warm_runs[pname])):
            mg_s = statistics.median(m.seconds for m in runs)
            mg_kb = statistics.median(m.max_rss_kb for m in runs)
            per_round = " ".join(f"{m.seconds / o.seconds:.3f}" for m, o in zip(runs, og_runs, strict=True))
            print(f"{pname} {name}: markergen / openapi-gen wall {mg_s / og_s:.3f} "
                  f"(openapi-gen / markergen {og_s / mg_s:.1f}x), memory "
                  f"{og_kb / max(mg_kb, 1):.1f}x less; per round {per_round}")
    ok = all(m.exit_code == 0 for m in og_runs) and all(
        m.exit_code in (0, 1) for r in (*cold_runs.values(), *warm_runs.values()) for m in r)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
