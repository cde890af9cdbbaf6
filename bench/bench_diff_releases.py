"""`markergen diff` over consecutive release tags of a real checkout.

    .venv/bin/python bench/bench_diff_releases.py /tmp/api --tags v0.33.0 v0.34.0 v0.35.0
    .venv/bin/python bench/bench_diff_releases.py /tmp/gateway-api --last 6 [--patterns ./apis/...]

Runs the library's `run_diff` on each consecutive pair (git revisions of the checkout,
read with `git archive`: the checkout is never modified) and prints, per pair, the
counts per class and kind, how many breaking changes `--fail-on breaking` counts (GA,
ungated), how many changes lack a file and line, and the breaking changes themselves.
Without `--tags`, the last `--last` final release tags (vX.Y.0) in version order.

Timing (issue 37 item 6), two revisions of one checkout:

    .venv/bin/python bench/bench_diff_releases.py /tmp/kueue --time v0.10.0 v0.15.0 \
        --runs 3 [--crdify BIN] [--before DIR]

runs, alternately in each round, as separate processes: `markergen diff BASE HEAD` cold
(an empty cache directory) and warm (the base kept there by the cold run), a cold
`markergen check --no-cache` of HEAD (a detached worktree of the checkout at HEAD, made
and removed by the script), crdify on every CRD the two revisions share (one process per
CRD, as crdify takes one pair), and with `--before` the diff of the markergen tree at DIR
(`PYTHONPATH=DIR`: a `git archive` of an older commit's `markergen/`). Prints per
measurement the median (range) of wall seconds and of the children's CPU seconds
(user+sys), then the issue's goal: warm diff <= crdify + cold check, in this run.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from markergen.diff import run_diff

_FINAL = re.compile(r"^v(\d+)\.(\d+)\.0$")


def release_tags(checkout: Path, last: int) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(checkout), "tag"], capture_output=True, text=True, check=True
    ).stdout.split()
    finals = sorted(
        (t for t in out if _FINAL.match(t)),
        key=lambda t: tuple(int(x) for x in _FINAL.match(t).groups()),  # type: ignore[union-attr]
    )
    return finals[-last:]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--tags", nargs="+", help="the releases, oldest first")
    ap.add_argument("--last", type=int, default=6, help="without --tags: how many releases")
    ap.add_argument("--patterns", nargs="*", default=[], help="package patterns, as check")
    ap.add_argument("--show", type=int, default=15, help="breaking changes printed per pair")
    ap.add_argument("--time", nargs=2, metavar=("BASE", "HEAD"), help="time one pair")
    ap.add_argument("--runs", type=int, default=3, help="with --time: rounds")
    ap.add_argument("--crdify", type=Path, help="with --time: a crdify binary")
    ap.add_argument("--before", type=Path, help="with --time: an older markergen tree")
    args = ap.parse_args(argv)
    if args.time:
        return time_pair(args.checkout, *args.time, args.runs, args.crdify, args.before)
    tags = args.tags or release_tags(args.checkout, args.last)
    totals: Counter[str] = Counter()
    for base, head in itertools.pairwise(tags):
        start = time.perf_counter()
        result = run_diff(base, head, args.checkout, "json", patterns=args.patterns)
        seconds = time.perf_counter() - start
        kinds = Counter(f"{c.classification}/{c.kind}" for c in result.changes)
        no_line = sum(1 for c in result.changes if not (c.file and c.line))
        print(
            f"== {base} -> {head}: {len(result.changes)} changes, {result.breaking} breaking "
            f"({result.breaking_at_ga} at GA ungated: --fail-on breaking "
            f"{'FAILS' if result.fails('breaking') else 'passes'}), {result.compatible} "
            f"compatible, {result.not_compared} not compared, {no_line} without file:line "
            f"[{seconds:.1f}s]"
        )
        for kind, n in sorted(kinds.items()):
            print(f"   {n:5d}  {kind}")
        shown = [c for c in result.changes if c.breaking][: args.show]
        for c in shown:
            stage = c.stage + (f", {c.gate}" if c.gate else "")
            print(
                f"   ! {c.file}:{c.line} {c.go_type}.{c.go_field} [{stage}] {c.kind}: {c.message[:140]}"
            )
        totals.update(kinds)
        totals["pairs"] += 1
        totals["without file:line"] += no_line
    print("== totals")
    for kind, n in sorted(totals.items()):
        print(f"   {n:5d}  {kind}")
    return 0


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(run: Callable[[], None]) -> tuple[float, float]:
    """(wall, CPU of the children) of one call."""
    cpu, wall = _children_cpu(), time.perf_counter()
    run()
    return time.perf_counter() - wall, _children_cpu() - cpu


def _markergen(
    args: list[str], cwd: Path, env: dict[str, str], check: bool = False
) -> Callable[[], None]:
    def run() -> None:
        proc = subprocess.run(
            [sys.executable, "-m", "markergen", *args], cwd=cwd, env=env, capture_output=True
        )
        # diff exits 0/1 (the report), check 0/1 (findings); 2 and up is a failure
        if proc.returncode > 1:
            raise SystemExit(f"markergen {' '.join(args)}: {proc.stderr.decode()[-2000:]}")

    return run


def _crd_pairs(checkout: Path, base: str, head: str, into: Path) -> list[tuple[Path, Path]]:
    """Every CRD in both revisions, as one file per side (what crdify takes), found as
    markergen's diff finds them."""
    import yaml

    from markergen.diff.crdsource import collect
    from markergen.diff.revtree import RevisionTree
    from markergen.diff.sources import _crd_places, _revision_crds

    places = _crd_places(checkout, checkout)
    sides = []
    for rev in (base, head):
        commit = subprocess.run(
            ["git", "-C", str(checkout), "rev-parse", f"{rev}^{{commit}}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        files = _revision_crds(places, "", RevisionTree(checkout, commit, rev, rev)) or []
        by_name: dict[str, object] = {}
        for v in collect(files, rev).versions.values():
            by_name.setdefault(v.name, v.document.value)
        sides.append(by_name)
    pairs = []
    for name in sorted(set(sides[0]) & set(sides[1])):
        pair = []
        for i, side in enumerate(sides):
            f = into / f"{i}-{name}.yaml"
            f.write_text(yaml.safe_dump(side[name], sort_keys=False))
            pair.append(f)
        pairs.append((pair[0], pair[1]))
    return pairs


def _crdify(binary: Path, pairs: list[tuple[Path, Path]]) -> Callable[[], None]:
    def run() -> None:
        for old, new in pairs:
            proc = subprocess.run(
                [str(binary), f"file://{old}", f"file://{new}"], capture_output=True
            )
            if proc.returncode > 1:
                raise SystemExit(f"crdify {old.name}: {proc.stderr.decode()[-2000:]}")

    return run


def time_pair(
    checkout: Path,
    base: str,
    head: str,
    runs: int,
    crdify: Path | None,
    before: Path | None,
) -> int:
    checkout = checkout.resolve()
    with tempfile.TemporaryDirectory(prefix="bench-diff-") as tmp_name:
        tmp = Path(tmp_name)
        tree = tmp / "head"
        subprocess.run(
            ["git", "-C", str(checkout), "worktree", "add", "-q", "--detach", str(tree), head],
            check=True,
        )
        try:
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            measures: dict[str, Callable[[], None]] = {}

            def fresh_cache(name: str, env: dict[str, str]) -> dict[str, str]:
                where = tmp / name
                shutil.rmtree(where, ignore_errors=True)
                return {**env, "MARKERGEN_CACHE_DIR": str(where)}

            warm_env = {**env, "MARKERGEN_CACHE_DIR": str(tmp / "warm")}
            diff = ["diff", base, head, "--format", "json"]
            measures["diff cold"] = lambda: _markergen(diff, checkout, fresh_cache("c", env))()
            measures["diff warm"] = _markergen(diff, checkout, warm_env)
            measures["check cold (head)"] = _markergen(["check", "--no-cache"], tree, env)
            if before is not None:
                old_env = {**env, "PYTHONPATH": str(before.resolve())}
                measures["diff before"] = lambda: _markergen(
                    diff, checkout, fresh_cache("b", old_env)
                )()
            pairs: list[tuple[Path, Path]] = []
            if crdify is not None:
                crds = tmp / "crds"
                crds.mkdir()
                pairs = _crd_pairs(checkout, base, head, crds)
                measures[f"crdify ({len(pairs)} CRDs)"] = _crdify(crdify, pairs)
            _markergen(diff, checkout, warm_env)()  # the warm runs find the base kept
            got: dict[str, list[tuple[float, float]]] = {k: [] for k in measures}
            names = list(measures)
            for r in range(runs):
                order = names if r % 2 == 0 else list(reversed(names))
                for name in order:
                    got[name].append(_timed(measures[name]))
        finally:
            subprocess.run(
                ["git", "-C", str(checkout), "worktree", "remove", "--force", str(tree)],
                check=False,
            )
    load = os.getloadavg()
    print(f"== {checkout.name} {base} -> {head}: {runs} rounds, load {load[0]:.1f}")
    med: dict[str, float] = {}
    for name, values in got.items():
        walls = [w for w, _ in values]
        cpus = [c for _, c in values]
        med[name] = statistics.median(cpus)
        print(
            f"   {name:24s} wall {statistics.median(walls):6.2f} s ({min(walls):.2f}-"
            f"{max(walls):.2f})   cpu {med[name]:6.2f} s ({min(cpus):.2f}-{max(cpus):.2f})"
        )
    crdify_key = next((k for k in med if k.startswith("crdify")), None)
    if crdify_key is not None:
        goal = med[crdify_key] + med["check cold (head)"]
        verdict = "met" if med["diff warm"] <= goal else "missed"
        print(
            f"   goal (cpu): diff warm {med['diff warm']:.2f} s <= crdify + cold check "
            f"{goal:.2f} s: {verdict}; diff cold {med['diff cold']:.2f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
