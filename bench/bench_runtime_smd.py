"""markergen.runtime against structured-merge-diff's Go code, on the same union cases.

Usage: python bench/bench_runtime_smd.py [--cases N] [--seed S] [--runs R] [--min-seconds T]
                                         [--gocode DIR] [--keep DIR] [--profile]

1. Generates N update cases (seeded, so runs compare): six union types (a discriminator
   plus 2, 3 or 4 members, with and without `deduceInvalidDiscriminator`, one more
   plain field), and for each case an old and a new object in the shapes of SMD's
   typed/union_test.go: no member, one, two or three members set (a few null), the
   discriminator absent, naming a member set, naming another member, empty or unknown;
   half of the new objects are the old one with one change (switch, add, remove a
   member, change the discriminator). All go into one JSON file.
2. Builds bench/smd (our Go program, GOPATH mode, against the SMD 4.1.2 sources in
   --gocode, Debian's golang-k8s-sigs-structured-merge-diff-dev). The program types
   every object first (as an API server has decoded them: untimed, as Python's objects
   are already decoded dicts), writes every case's verdict (the normalized object or the
   error), then times `old.NormalizeUnions(new)` over all cases for at least T seconds,
   twice: the first is a warm-up, only the second counts.
3. Times markergen.runtime over the same cases with the same union definitions in a
   runtime table with the `smd` semantics (structured-merge-diff 4.1.2's rules):
   `normalize(table, type, old, new)` alone, then `normalize` followed by
   `validate(table, type, out, old)`. SMD's call also walks the old object and checks
   every scalar's type (string, number) on both; `normalize` does neither, `validate`
   adds the union rules SMD does not check (docs/performance.md, "Runtime").
   R rounds, each one Go invocation then one run of each Python loop, so that the load
   of a shared machine falls on both sides alike.
4. Prints the median rate of each (cases/second), every run, and the ratios (also to
   Go's fastest run, the ratio least flattering to Python), and checks
   that both give the same verdict on every case: both fail, or both succeed with equal
   objects (a member that is null counts as absent: SMD deletes it when it clears the
   union, markergen leaves it null; docs/runtime.md).

`--profile` prints a cProfile of the Python normalize + validate loop.
Needs `go` (1.19 is enough) and the SMD sources; nothing is fetched.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from markergen.runtime import Table, UnionError, normalize, validate  # noqa: E402

NAMES = ("alpha", "bravo", "charlie", "delta")
DISCRIMINATOR = "kind"


def union_types() -> list[dict[str, Any]]:
    """2, 3 and 4 members, with and without deduceInvalidDiscriminator. One member's
    discriminator value is not its capitalized name (SMD maps values to fields both ways)."""
    types = []
    for k in (2, 3, 4):
        for deduce in (True, False):
            members = [
                {"field": name, "value": name.upper() if i == 1 else name.capitalize()}
                for i, name in enumerate(NAMES[:k])
            ]
            types.append(
                {
                    "name": f"u{k}{'d' if deduce else 'n'}",
                    "discriminator": DISCRIMINATOR,
                    "deduce": deduce,
                    "members": members,
                    "others": ["name"],
                }
            )
    return types


def _object(rng: random.Random, t: dict[str, Any]) -> dict[str, Any]:
    members = t["members"]
    obj: dict[str, Any] = {"name": "x"}
    count = rng.choices((0, 1, 2, 3), weights=(25, 55, 15, 5))[0]
    chosen = rng.sample(members, min(count, len(members)))
    for m in chosen:
        obj[m["field"]] = None if rng.random() < 0.1 else rng.randint(0, 9)
    roll = rng.random()
    if roll < 0.30:
        pass  # no discriminator
    elif roll < 0.65 and chosen:
        obj[DISCRIMINATOR] = rng.choice(chosen)["value"]
    elif roll < 0.85:
        obj[DISCRIMINATOR] = rng.choice(members)["value"]
    elif roll < 0.90:
        obj[DISCRIMINATOR] = ""
    else:
        obj[DISCRIMINATOR] = "Other"
    return obj


def _changed(rng: random.Random, t: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    new = dict(old)
    members = t["members"]
    target = rng.choice(members)
    set_now = [m for m in members if new.get(m["field"]) is not None]
    change = rng.randrange(4)
    if change == 0:  # switch: the discriminator and the member, the old member kept
        new[DISCRIMINATOR] = target["value"]
        new[target["field"]] = rng.randint(0, 9)
    elif change == 1:  # add a member
        new[target["field"]] = rng.randint(0, 9)
    elif change == 2 and set_now:  # remove a member
        del new[rng.choice(set_now)["field"]]
    else:  # change or drop the discriminator only
        if DISCRIMINATOR in new and rng.random() < 0.3:
            del new[DISCRIMINATOR]
        else:
            new[DISCRIMINATOR] = target["value"]
    return new


def make_cases(n: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    types = union_types()
    cases = []
    for _ in range(n):
        t = rng.choice(types)
        old = _object(rng, t)
        new = _changed(rng, t, old) if rng.random() < 0.5 else _object(rng, t)
        cases.append({"type": t["name"], "old": old, "new": new})
    return {"types": types, "cases": cases}


def runtime_table(types: list[dict[str, Any]]) -> Table:
    """The same unions as a markergen runtime table with structured-merge-diff's rules."""
    table: dict[str, Any] = {"version": 1, "types": {}}
    for t in types:
        fields = {f: {"kind": "scalar"} for f in (t["discriminator"], *t["others"])}
        fields.update({m["field"]: {"kind": "scalar"} for m in t["members"]})
        table["types"][t["name"]] = {
            "fields": fields,
            "unions": [
                {
                    "dialect": "kep2019",
                    "semantics": "smd",
                    "discriminator": t["discriminator"],
                    "deduceInvalidDiscriminator": t["deduce"],
                    "values": [],
                    "members": t["members"],
                    "mode": "at-most-one",
                }
            ],
        }
    return Table.from_dict(table)


def go_env(gopath: str) -> dict[str, str]:
    goroot = subprocess.run(
        ["go", "env", "GOROOT"], capture_output=True, text=True, check=True
    ).stdout.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GO")}
    env.update(GO111MODULE="off", GOPATH=gopath, GOROOT=goroot, GOPROXY="off",
               GOFLAGS="", GOCACHE=os.environ.get("GOCACHE", str(Path(gopath) / "cache")))
    return env


def build_go(tmp: Path, gocode: Path) -> tuple[Path, dict[str, str]]:
    # GOPATH mode only resolves SMD's module-style imports (".../v4/...") for code that
    # lives inside a GOPATH and has a go.mod: the program is copied into a temporary one.
    src = tmp / "gopath" / "src" / "smdbench"
    src.mkdir(parents=True)
    for name in ("main.go", "go.mod"):
        shutil.copy(ROOT / "bench" / "smd" / name, src / name)
    env = go_env(f"{tmp / 'gopath'}{os.pathsep}{gocode}")
    binary = tmp / "smdbench"
    subprocess.run(["go", "build", "-o", str(binary), "."], cwd=src, env=env, check=True)
    return binary, env


def run_go(binary: Path, env: dict[str, str], cases_path: Path, verdicts_path: Path) -> Any:
    """One run of the Go program: every case's verdict, and the rate of its timed runs."""
    subprocess.run([str(binary), str(cases_path), str(verdicts_path)], env=env, check=True)
    return json.loads(verdicts_path.read_text())


def python_verdicts(table: Table, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for c in cases:
        try:
            out.append({"ok": True, "out": normalize(table, c["type"], c["old"], c["new"])})
        except UnionError as e:
            out.append({"ok": False, "error": "; ".join(sorted(str(x) for x in e.errors))})
    return out


def _normalize_all(table: Table, cases: list[tuple[str, Any, Any]]) -> None:
    for type_name, old, new in cases:
        # a bare try, not contextlib.suppress: its enter/exit would be timed as ours
        try:  # noqa: SIM105
            normalize(table, type_name, old, new)
        except UnionError:
            pass


def _normalize_validate_all(table: Table, cases: list[tuple[str, Any, Any]]) -> None:
    for type_name, old, new in cases:
        try:
            out = normalize(table, type_name, old, new)
        except UnionError:
            continue
        validate(table, type_name, out, old)


def python_rate(table: Table, work: list[tuple[str, Any, Any]], min_seconds: float,
                with_validate: bool) -> float:
    """One timed run: cases per second over at least `min_seconds`, after a warm-up pass."""
    step = _normalize_validate_all if with_validate else _normalize_all
    step(table, work)  # warm up
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < min_seconds:
        step(table, work)
        n += len(work)
    return n / (time.perf_counter() - start)


def _without_nulls(obj: Any) -> Any:
    return {k: v for k, v in obj.items() if v is not None} if isinstance(obj, dict) else obj


def compare(go: list[dict[str, Any]], py: list[dict[str, Any]],
            cases: list[dict[str, Any]]) -> tuple[list[str], int]:
    """The cases whose verdicts differ, and how many agree only up to null members.

    SMD's clear deletes a member that is null; markergen leaves it null (documented in
    docs/runtime.md: a null member is not set, null and absent mean the same), so an
    output that differs only there is the same verdict.
    """
    problems = []
    null_only = 0
    for i, (g, p) in enumerate(zip(go, py, strict=True)):
        same = g["ok"] == p["ok"] and (not g["ok"] or g.get("out") == p["out"])
        if same:
            continue
        if g["ok"] and p["ok"] and _without_nulls(g.get("out")) == _without_nulls(p["out"]):
            null_only += 1
            continue
        problems.append(f"case {i} {json.dumps(cases[i])}: smd {json.dumps(g)} "
                        f"markergen {json.dumps(p)}")
    return problems, null_only


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--cases", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5,
                    help="rounds; each times Go, normalize and normalize + validate once (median)")
    ap.add_argument("--min-seconds", type=float, default=1.0, help="length of one run")
    ap.add_argument("--gocode", type=Path, default=Path("/usr/share/gocode"),
                    help="GOPATH entry holding sigs.k8s.io/structured-merge-diff (4.1.2)")
    ap.add_argument("--keep", type=Path, help="write the cases and verdicts here")
    ap.add_argument("--profile", action="store_true",
                    help="print a cProfile of the Python normalize + validate loop")
    args = ap.parse_args(argv)
    if shutil.which("go") is None:
        print("go not found", file=sys.stderr)
        return 2
    if not (args.gocode / "src" / "sigs.k8s.io" / "structured-merge-diff").is_dir():
        print(f"no structured-merge-diff under {args.gocode}/src", file=sys.stderr)
        return 2
    data = make_cases(args.cases, args.seed)
    # two Go runs per round, the first a warm-up whose rate is dropped (Go's first second
    # in a fresh process is up to a tenth slower); the rounds interleave Go and Python
    data["runs"] = 2
    data["minSeconds"] = args.min_seconds
    cases = data["cases"]
    table = runtime_table(data["types"])
    work = [(c["type"], c["old"], c["new"]) for c in cases]
    go_rates: list[float] = []
    norm: list[float] = []
    both: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-smd-") as tmp_name:
        tmp = Path(tmp_name)
        cases_path = tmp / "cases.json"
        cases_path.write_text(json.dumps(data))
        binary, env = build_go(tmp, args.gocode)
        verdicts_path = tmp / "verdicts.json"
        go: dict[str, Any] = {}
        # Go and Python alternate, so that a slower minute of a shared machine slows both
        for _ in range(args.runs):
            go = run_go(binary, env, cases_path, verdicts_path)
            go_rates.append(go["rates"][-1])
            norm.append(python_rate(table, work, args.min_seconds, with_validate=False))
            both.append(python_rate(table, work, args.min_seconds, with_validate=True))
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(cases_path, args.keep / "cases.json")
            shutil.copy(verdicts_path, args.keep / "smd-verdicts.json")
    py = python_verdicts(table, cases)
    problems, null_only = compare(go["verdicts"], py, cases)
    go_rate = statistics.median(go_rates)
    failing = sum(1 for v in py if not v["ok"])
    print(f"cases: {len(cases)} (seed {args.seed}; {failing} fail normalization), "
          f"{len(data['types'])} union types; median of {args.runs} rounds, each one run "
          f"of >= {args.min_seconds:g} s of Go (after a warm-up run), normalize, "
          "normalize + validate in turn")
    print("runs (cases/s): Go " + ", ".join(f"{r:,.0f}" for r in go_rates)
          + "; normalize " + ", ".join(f"{r:,.0f}" for r in norm)
          + "; normalize + validate " + ", ".join(f"{r:,.0f}" for r in both))
    print(f"structured-merge-diff 4.1.2 NormalizeUnions (Go): {go_rate:,.0f} cases/s")
    print(f"markergen.runtime normalize (smd semantics): {statistics.median(norm):,.0f} "
          f"cases/s, ratio to SMD {statistics.median(norm) / go_rate:.2f}")
    print(f"markergen.runtime normalize + validate: {statistics.median(both):,.0f} cases/s, "
          f"ratio to SMD {statistics.median(both) / go_rate:.2f}")
    print(f"against SMD's fastest run ({max(go_rates):,.0f} cases/s): normalize "
          f"{statistics.median(norm) / max(go_rates):.2f}, normalize + validate "
          f"{statistics.median(both) / max(go_rates):.2f}")
    print(f"verdicts: {len(cases) - len(problems)} of {len(cases)} agree ({null_only} of them "
          "only up to null members: SMD deletes a null member it clears, markergen keeps it)")
    for line in problems[:10]:
        print("  " + line)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        _normalize_validate_all(table, work)
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
