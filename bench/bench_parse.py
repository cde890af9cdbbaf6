"""Parse every .go file below a directory and print files, bytes and wall time.

Usage: python bench/bench_parse.py DIR [--repeat N]

Used to measure the Go front end on a large tree (kubernetes/api: about 1.75 MB of Go).
Reading the files from disk is not timed; parsing (decode, tree-sitter, record walk) is.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from markergen.golang.parser import DecodeError, GoParser


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("dir", type=Path)
    ap.add_argument("--repeat", type=int, default=1, help="parse the whole set N times")
    args = ap.parse_args(argv)
    if not args.dir.is_dir():
        print(f"not a directory: {args.dir}", file=sys.stderr)
        return 2
    files = sorted(p for p in args.dir.rglob("*.go") if p.is_file())
    blobs = [(p.as_posix(), p.read_bytes()) for p in files]
    total = sum(len(b) for _, b in blobs)
    parser = GoParser()
    best = float("inf")
    errors = undecodable = types = 0
    for _ in range(max(1, args.repeat)):
        errors = undecodable = types = 0
        start = time.perf_counter()
        for path, data in blobs:
            try:
                f = parser.parse(path, data)
            except DecodeError:
                undecodable += 1
                continue
            types += len(f.types)
            errors += len(f.errors)
        best = min(best, time.perf_counter() - start)
    print(
        f"files={len(blobs)} bytes={total} seconds={best:.3f} "
        f"MB/s={total / 1e6 / best if best else 0:.1f} types={types} "
        f"syntax_errors={errors} undecodable={undecodable}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
