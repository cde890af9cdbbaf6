"""How much work one `markergen check --format json --no-cache` does in the current
directory: the passes of the checker rules (`markergen.rules.run_rules`), CPU and wall
time. Run it in a project, with the markergen to measure first on sys.path:

    cd PROJECT && python /path/to/bench/bench_check_passes.py LABEL
    cd PROJECT && PYTHONPATH=/old/tree python /path/to/bench/bench_check_passes.py old

(docs/performance.md, "The plan and the apply"). Alternate the two versions: on a
shared machine the wall time is mostly the load.
"""

from __future__ import annotations

import io
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from typing import Any


def main() -> None:
    import markergen
    import markergen.rules as rules
    from markergen.cli import main as cli

    passes = 0
    real = rules.run_rules

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal passes
        passes += 1
        return real(*args, **kwargs)

    rules.run_rules = counted  # all_diagnostics looks it up in its module
    cpu, wall = time.process_time(), time.perf_counter()
    with redirect_stdout(io.StringIO()) as out, redirect_stderr(io.StringIO()):
        code = cli(["check", "--format", "json", "--no-cache"])
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    label = sys.argv[1] if len(sys.argv) > 1 else "run"
    print(
        f"{label}: {markergen.__file__}: rule passes {passes}, exit {code}, "
        f"{len(out.getvalue())} bytes, cpu {cpu:.1f} s, wall {wall:.1f} s"
    )


if __name__ == "__main__":
    main()
