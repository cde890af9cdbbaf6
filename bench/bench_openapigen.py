"""Time openapi-gen and `markergen generate` on the same kubernetes/api packages.

Usage: python bench/bench_openapigen.py API_DIR APIMACHINERY_DIR [--gocode DIR] [--keep]

API_DIR and APIMACHINERY_DIR are checkouts of kubernetes/api and kubernetes/apimachinery
(for local runs only; never commit them). The packages are every directory of API_DIR
with a types.go except core/v1 (the issue "Speed": 59 packages). The script

1. builds a temporary GOPATH with symlinks `src/k8s.io/api` and
   `src/k8s.io/apimachinery` (plus Debian's /usr/share/gocode for the rest), and runs
   openapi-gen once on all packages under `/usr/bin/time -v` (wall time, peak RSS);
2. runs `python -m markergen generate <packages> --out-dir <tmp>` in a fresh process
   (cold: new interpreter, nothing cached) under `/usr/bin/time -v`, from API_DIR;
3. parses the packages' hand-written files (not `_test.go`, not files with the standard
   `// Code generated ... DO NOT EDIT.` header) with tree-sitter directly, in this
   process, the floor for any tree-sitter front end (reading files is not timed);

and prints the figures, the definitions each tool wrote, and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
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


def run_markergen(api: Path, packages: list[str], tmp: Path) -> tuple[Measure, int]:
    out = tmp / "markergen-out"
    cmd = [sys.executable, "-m", "markergen", "generate", *[f"./{p}" for p in packages],
           "--out-dir", str(out), "--no-cache"]  # cold: never served from the cache
    env = dict(os.environ)
    env.pop("PYTHONHASHSEED", None)
    measure = timed(cmd, api, env)
    v2 = out / "openapi-v2.json"
    count = 0
    if v2.is_file():
        count = len(json.loads(v2.read_text())["definitions"])
    return measure, count


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
    args = ap.parse_args(argv)
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
    tmp = Path(tempfile.mkdtemp(prefix="bench-openapigen-"))
    try:
        og, og_defs = run_openapi_gen(args.api, args.apimachinery, args.gocode, packages, tmp)
        mg, mg_defs = run_markergen(args.api, packages, tmp)
        floor = tree_sitter_floor(files)
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"packages: {len(packages)} (every types.go package of {args.api} but "
          f"{', '.join(EXCLUDED)})")
    print(f"hand-written files: {len(files)}, {size} bytes")
    for name, m, defs in (("openapi-gen", og, og_defs), ("markergen generate (cold)", mg,
                                                          mg_defs)):
        print(f"{name}: wall {m.seconds:.2f} s, max RSS {m.max_rss_kb / 1024:.0f} MiB, "
              f"exit {m.exit_code}, definitions {defs}")
        if m.exit_code not in (0, 1):
            print(f"  stderr: {m.stderr_tail}")
    print(f"tree-sitter parse of the hand-written files: {floor:.3f} s")
    if mg.seconds > 0:
        print(f"ratio openapi-gen / markergen: wall {og.seconds / mg.seconds:.1f}x, "
              f"memory {og.max_rss_kb / max(mg.max_rss_kb, 1):.1f}x")
    return 0 if og.exit_code == 0 and mg.exit_code in (0, 1) else 1


if __name__ == "__main__":
    sys.exit(main())
