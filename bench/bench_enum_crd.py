"""markergen's enums against the project's own CRDs, on real checkouts (read-only).

    .venv/bin/python bench/bench_enum_crd.py CHECKOUT [CHECKOUT...] [--list]

For each checkout: the CRDs are found as `markergen crd` finds them (the Makefile's
controller-gen outputs, else config/crd/bases); when that finds none, every `*.yaml`
declaring `kind: CustomResourceDefinition` outside vendor/, testdata/ and hidden
directories (openshift's zz_generated.crd-manifests, charts; not openshift's
intermediate zz_generated.featuregated-crd-manifests). The Go types are the
Makefile's `paths=` (else ./api/..., ./apis/..., else ./...; when those find no CRD's
root type, `./...` and every nested Go module, `./DIR/...`). Every enum node of
markergen's OpenAPI v3 schema of each CRD's root type is compared with the CRD's node at
the same place (markergen.crd.enumcheck): nodes compared, agree, wider (markergen
accepts values the CRD rejects), narrower (the CRD accepts values markergen rejects),
both; then each disagreement with its CRD file and line, and the MG520/MG521 findings
`markergen check` would print. Nothing is written.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from markergen.crd.enumcheck import EnumNode, compare_files, findings, summary  # noqa: E402
from markergen.crd.files import crd_files  # noqa: E402
from markergen.pipeline import InputError, load_model  # noqa: E402
from markergen.project.outputs import find_crd_outputs  # noqa: E402

# openshift's zz_generated.featuregated-crd-manifests/ hold controller-gen's output per
# feature gate before openshift's generator applies FeatureGateAwareEnum and merges them
# into zz_generated.crd-manifests/: an intermediate input, not a CRD the project ships.
_SKIP = {"vendor", "testdata", "node_modules", "zz_generated.featuregated-crd-manifests"}


def scan_crds(root: Path) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIP)
        for name in sorted(filenames):
            if name.endswith((".yaml", ".yml")):
                path = Path(dirpath) / name
                head = path.read_text(encoding="utf-8", errors="replace")[:4000]
                if "kind: CustomResourceDefinition" in head:
                    out.append(path)
    return out


def _types(root: Path, given: tuple[str, ...]) -> list[str]:
    named = [p if p.startswith(".") else "./" + p for p in given if not p.startswith("/")]
    named = [p for p in named if (root / p.removesuffix("...").strip("/")).is_dir() and p != "./"]
    if named:
        return named
    found = [p for p in ("./api/...", "./apis/...") if (root / p.split("/")[1]).is_dir()]
    return found or ["./..."]


def _compare(root: Path, patterns: list[str], files: list[Path]) -> list[EnumNode]:
    cwd = Path.cwd()
    os.chdir(root)
    try:
        model = load_model(patterns, root)
        return compare_files(model, files, root)
    finally:
        os.chdir(cwd)


def _loads(root: Path, pattern: str) -> bool:
    cwd = Path.cwd()
    os.chdir(root)
    try:
        load_model([pattern], root)
        return True
    except InputError:
        return False  # a module of generated code only (a clientset)
    finally:
        os.chdir(cwd)


_NOT_API = {"vendor", "hack", "test", "tests", "tools", "scripts", "e2e", "docs"}


def _nested_modules(root: Path) -> list[str]:
    """`./DIR/...` for every Go module below the root (not in vendor/, hack/, test/...)."""
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _NOT_API)
        if "go.mod" in filenames and Path(dirpath) != root:
            out.append("./" + Path(dirpath).relative_to(root).as_posix() + "/...")
    return out


def run(root: Path, show: bool) -> dict[str, int]:
    targets = find_crd_outputs(root)
    dirs = [root / d for d in targets.dirs if (root / d).is_dir()]
    files = crd_files(dirs) if dirs else []
    how = "Makefile" if dirs else "scan"
    if not files:
        files = scan_crds(root)
    patterns = _types(root, targets.types)
    start = time.perf_counter()
    try:
        nodes = _compare(root, patterns, files)
    except InputError:
        nodes = []  # e.g. `./api/...` holds only generated files: try the modules
    if not nodes:
        # The API elsewhere in the root module, or in nested modules (`api/go.mod`):
        # `./...` of the root stops at those.
        nested = [p for p in ["./...", *_nested_modules(root)] if _loads(root, p)]
        if nested:
            patterns = nested
            nodes = _compare(root, patterns, files)
    took = time.perf_counter() - start
    counts = summary(nodes)
    defaults = [n for n in nodes if n.what == "default"]
    counts["defaults"] = len(defaults)
    counts["defaults differ"] = sum(n.verdict != "agree" for n in defaults)
    diags = findings(nodes)
    counts["findings"] = len(diags)
    print(
        f"{root.name}: {len(files)} CRD files ({how}), types {' '.join(patterns)}, "
        f"{took:.1f} s: " + ", ".join(f"{k} {v}" for k, v in counts.items())
    )
    if show:
        for n in nodes:
            if n.verdict != "agree":
                print(
                    f"  {n.verdict:8} {n.what:7} {n.file}:{n.line} {n.subject}: "
                    f"markergen {list(n.ours) if n.ours is not None else None} "
                    f"CRD {list(n.theirs) if n.theirs is not None else None}"
                    + (f" floor {list(n.floor)}" if n.floor is not None else "")
                )
    for d in diags:
        print(f"  {d.code} {d.pos.file}:{d.pos.line}: {d.message}")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--list", action="store_true", help="list every disagreeing node")
    args = parser.parse_args()
    total: dict[str, int] = {}
    for root in args.checkouts:
        try:
            counts = run(root.resolve(), args.list)
        except Exception as e:  # one checkout that cannot be read does not stop the rest
            print(f"{root.name}: not measured: {type(e).__name__}: {str(e).splitlines()[0]}")
            continue
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
    print("total: " + ", ".join(f"{k} {v}" for k, v in total.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
