"""What start-up imports: for `--version`, `--help`, every command's `--help`, and a warm
`generate` and `check` of a project (served from the cache), the modules each install
imports and the dataclasses it creates. Counts, not times: they do not move with the
machine's load, and a module imported for nothing shows by name with `--list`.

Usage: python bench/bench_startup_imports.py LABEL=PYTHON [LABEL=PYTHON ...]
           [--project DIR] [--list LABEL]

Each PYTHON is the interpreter of an environment where markergen is installed (or a
wrapper that sets PYTHONPATH to a checkout). DIR (default: testdata/example of this
checkout) is copied once per install, and each install fills its own cache with one run
of `generate` and `check` first. A run is counted in a fresh interpreter that imports
nothing of markergen before it: "modules" are the modules the run added to sys.modules
(markergen's and others'), "dataclasses" the dataclasses defined at module level by the
markergen modules it imported (each one created at import). `--list LABEL` also prints
that install's markergen modules and dataclasses per run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

COMMANDS = ("check", "generate", "crd", "validate", "normalize", "diff", "dump", "explain",
            "completion")  # fmt: skip

RUNS: dict[str, list[str]] = {
    "--version": ["--version"],
    "--help": ["--help"],
    **{f"{c} --help": [c, "--help"] for c in COMMANDS},
    "warm generate": ["generate", "-q"],
    "warm check": ["check", "-q"],
}

# Runs in the child: markergen's own entry point, then what it left in sys.modules.
PROBE = r"""
import dataclasses, json, runpy, sys
before = set(sys.modules)
sys.argv = ["markergen", *sys.argv[1:]]
try:
    runpy.run_module("markergen", run_name="__main__")
except SystemExit:
    pass
added = sorted(set(sys.modules) - before)
ours = [m for m in added if m.startswith("markergen")]
classes = [
    f"{name}.{k}"
    for name in ours
    for k, v in vars(sys.modules[name]).items()
    if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == name
]
sys.stderr.write("\n@@" + json.dumps({"modules": added, "classes": classes}) + "\n")
"""


def probe(python: str, argv: list[str], cwd: Path) -> dict[str, list[str]]:
    proc = subprocess.run([python, "-c", PROBE, *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=600, check=False)  # fmt: skip
    if "@@" not in proc.stderr:
        raise SystemExit(f"{python} {' '.join(argv)}: no report\n{proc.stderr}")
    result: dict[str, list[str]] = json.loads(proc.stderr.rsplit("@@", 1)[1])
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("installs", nargs="+", metavar="LABEL=PYTHON")
    ap.add_argument("--project", type=Path,
                    default=Path(__file__).resolve().parent.parent / "testdata" / "example")  # fmt: skip
    ap.add_argument("--list", metavar="LABEL", help="print this install's modules and classes")
    args = ap.parse_args(argv)
    installs = dict(item.split("=", 1) for item in args.installs)
    # a relative interpreter path names a file from here, not from the project's copy
    # (abspath, not resolve: a venv's python is a symlink that must stay one)
    installs = {k: os.path.abspath(v) if os.sep in v else v for k, v in installs.items()}
    table: dict[tuple[str, str], dict[str, list[str]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, python in installs.items():
            work = Path(tmp) / label.replace("/", "_")
            shutil.copytree(args.project, work)
            for fill in (["generate", "-q"], ["check", "-q"]):  # this install's cache
                subprocess.run([python, "-m", "markergen", *fill], cwd=work,
                               capture_output=True, check=False)  # fmt: skip
            for name, run_argv in RUNS.items():
                table[(name, label)] = probe(python, run_argv, work)
    labels = list(installs)
    print("modules imported / markergen dataclasses created")
    print(f"{'run':<22}" + "".join(f"{label:>18}" for label in labels))
    for name in RUNS:
        cells = [f"{len(table[(name, lb)]['modules'])} / {len(table[(name, lb)]['classes'])}"
                 for lb in labels]  # fmt: skip
        print(f"{name:<22}" + "".join(f"{c:>18}" for c in cells))
    if args.list:
        for name in RUNS:
            found = table[(name, args.list)]
            ours = [m for m in found["modules"] if m.startswith("markergen")]
            print(f"\n{name} ({args.list}): {' '.join(ours)}")
            print(f"  dataclasses: {' '.join(found['classes'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
