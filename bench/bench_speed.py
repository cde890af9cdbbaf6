"""Cold (empty cache, and --no-cache), warm, `check` and `dump` (warm and --no-cache),
--version and --help times of `markergen generate` on a Go tree, and the tree-sitter floor
(parsing the hand-written files alone).

Usage: python bench/bench_speed.py API_DIR [PATTERNS...] [--repeat N]

Example (the 59 packages of kubernetes/api that openapi-gen processes):
  cd /tmp/k8s/api && python /work/main/bench/bench_speed.py . \
      $(find . -name types.go | grep -v core/v1 | xargs -n1 dirname | sort)
Each figure is the median of --repeat runs (default 5; the floor is the best). Cold runs
use a fresh, empty cache directory; warm runs repeat a run whose inputs did not change;
`check` and `dump` run after one run of their own (warm: served from their cache), and
with --no-cache (everything read again).
Nothing is fetched.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _run import compile_package, markergen_argv, run


def floor_seconds(root: Path, patterns: list[str], repeat: int) -> tuple[float, int, int]:
    """tree-sitter alone on the files markergen reads (generated files excluded)."""
    import tree_sitter_go
    from tree_sitter import Language, Parser

    from markergen.golang.header import scan_header
    from markergen.golang.packages import input_files
    from markergen.golang.source import prepare

    files = input_files(patterns, root) or ()
    blobs = []
    for f in files:
        data = prepare(f.path, Path(f.path).read_bytes())
        header = scan_header(data)
        if header is not None and header.generated:
            continue
        blobs.append(data)
    parser = Parser(Language(tree_sitter_go.language()))
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for data in blobs:
            parser.parse(data)
        best = min(best, time.perf_counter() - start)
    return best, len(blobs), sum(len(b) for b in blobs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("root", type=Path)
    ap.add_argument("patterns", nargs="*", default=["./..."])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    root = args.root.resolve()
    compile_package()
    mg = markergen_argv()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        gen = [*mg, "generate", *args.patterns, "--out-dir", str(out)]
        colds = []
        no_cache = []
        for i in range(args.repeat):
            colds.append(run(gen, root, {"MARKERGEN_CACHE_DIR": str(Path(tmp) / f"cold{i}")}))
            no_cache.append(run([*gen, "--no-cache"], root))
        warm_env = {"MARKERGEN_CACHE_DIR": str(Path(tmp) / "warm")}
        run(gen, root, warm_env)
        warms = [run(gen, root, warm_env) for _ in range(args.repeat)]
        check = [*mg, "check", *args.patterns]
        run(check, root, warm_env)
        checks = [run(check, root, warm_env) for _ in range(args.repeat)]
        checks_cold = [run([*check, "--no-cache"], root) for _ in range(args.repeat)]
        dump = [*mg, "dump", *args.patterns]
        run(dump, root, warm_env)
        dumps = [run(dump, root, warm_env) for _ in range(args.repeat)]
        dumps_cold = [run([*dump, "--no-cache"], root) for _ in range(args.repeat)]
        version = median(run([*mg, "--version"], root).seconds for _ in range(args.repeat))
        helps = median(run([*mg, "--help"], root).seconds for _ in range(args.repeat))
    floor, nfiles, nbytes = floor_seconds(root, args.patterns, args.repeat)
    cold = median(r.seconds for r in colds)
    print(f"patterns={len(args.patterns)}")
    print(f"cold generate: {cold:.2f} s, peak RSS {max(r.peak_mb for r in colds):.0f} MB "
          f"(exit {colds[0].code})")
    print(f"cold generate --no-cache: {median(r.seconds for r in no_cache):.2f} s, peak RSS "
          f"{max(r.peak_mb for r in no_cache):.0f} MB (exit {no_cache[0].code})")
    print(f"warm generate: {median(r.seconds for r in warms):.3f} s, peak RSS "
          f"{max(r.peak_mb for r in warms):.0f} MB")
    for name, warm, cold_runs in (("check", checks, checks_cold), ("dump", dumps, dumps_cold)):
        print(f"{name} warm: {median(r.seconds for r in warm):.3f} s, peak RSS "
              f"{max(r.peak_mb for r in warm):.0f} MB (exit {warm[0].code}); --no-cache: "
              f"{median(r.seconds for r in cold_runs):.3f} s, "
              f"{max(r.peak_mb for r in cold_runs):.0f} MB")
    print(f"--version: {version:.3f} s   --help: {helps:.3f} s")
    print(f"floor (tree-sitter parse of {nfiles} files, {nbytes / 1e6:.2f} MB): {floor:.3f} s;"
          f" cold = {cold / floor:.1f}x floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
