"""Where zero-config `markergen crd` finds each project's CRDs, and from which line.

    python bench/bench_crd_locate.py CHECKOUT [CHECKOUT ...] [--dirs]

For each checkout (read only; nothing is written): the directories `find_crd_outputs`
returns with the make file or script line that puts the CRDs there, the number of CRD
files in them, the notes, the nested API module patterns zero-config reads, and the
time taken. Run it with another markergen on PYTHONPATH to compare two versions (an
older markergen has no `how` and no nested-module patterns: shown as "-").
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import time
from pathlib import Path

from markergen.project.outputs import find_crd_outputs

_CRD = re.compile(r"^kind:\s*CustomResourceDefinition\b", re.MULTILINE)


def _crd_files(path: Path) -> int:
    files = [path] if path.is_file() else sorted(path.glob("*.y*ml")) if path.is_dir() else []
    count = 0
    for f in files:
        with contextlib.suppress(OSError):
            count += bool(_CRD.search(f.read_text(encoding="utf-8", errors="replace")))
    return count


def _nested(root: Path) -> str:
    try:
        from markergen.golang.packages import nested_api_patterns
    except ImportError:
        return "-"
    return " ".join(nested_api_patterns(root)) or "(none)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--dirs", action="store_true", help="list every directory found")
    args = parser.parse_args()
    total_dirs = total_files = found_projects = 0
    for root in args.checkouts:
        start = time.perf_counter()
        targets = find_crd_outputs(root)
        took = time.perf_counter() - start
        counts = [_crd_files(root / o.directory) for o in targets.outputs]
        total_dirs += len(targets.outputs)
        total_files += sum(counts)
        found_projects += bool(sum(counts))
        print(
            f"{root.name}: {len(targets.outputs)} dir(s), {sum(counts)} CRD file(s), "
            f"{len(targets.notes)} note(s), {took:.2f}s; nested API: {_nested(root)}"
        )
        shown = zip(targets.outputs, counts, strict=True)
        for i, (out, count) in enumerate(shown):
            if not args.dirs and i >= 4:
                print(f"    ... {len(targets.outputs) - 4} more")
                break
            how = getattr(out, "how", "-")
            print(f"    {out.directory.as_posix()} ({count}) from {out.source} [{how}]")
    print(
        f"total: {found_projects}/{len(args.checkouts)} projects with CRD files found, "
        f"{total_dirs} dir(s), {total_files} CRD file(s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
