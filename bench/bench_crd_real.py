"""`markergen crd` on a real checkout, read-only: every CRD file is patched in memory
and checked (diff holds only inserted lines), diagnostics are counted by code.

    .venv/bin/python bench/bench_crd_real.py /work/real/openshift+api
    .venv/bin/python bench/bench_crd_real.py /work/real/kubernetes-sigs+gateway-api

CRD files: every `*.yaml` that declares `kind: CustomResourceDefinition`, outside
vendor/, hidden directories and testdata/. Types: `./...` of the checkout.

"kept objects rejected" evaluates every rule markergen added (its message ends with
` (union ...)`) on every object of that CRD's kind the checkout keeps (the sources of
`markergen.project.samples`, test suites beside the CRDs included), at the rule's schema
node, with a real CEL engine: it must be 0. `--show MG509,MG508` prints those findings.

`--recheck` re-checks every union proof by brute force, outside the search it uses:
each discriminator value (enum values, or member values, "" and another; unset unless
required) times every set of members (unions of at most 12 members), defaults applied;
on every object one of markergen's rules rejects, the hand-written rules plus the rules
written must reject it too, and for an MG509 the hand-written rules alone. Both counts
of failures must be 0.
"""

from __future__ import annotations

import argparse
import collections
import difflib
import itertools
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import yaml  # noqa: E402

import markergen.crd.patch as patch_module  # noqa: E402
from markergen.accept.celeval import CelEvaluator  # noqa: E402
from markergen.crd.apply import OURS, VALIDATIONS  # noqa: E402
from markergen.crd.cel import escape_property  # noqa: E402
from markergen.crd.helm import mask_templates  # noqa: E402
from markergen.crd.run import plan_files  # noqa: E402
from markergen.pipeline import load_model  # noqa: E402
from markergen.project.samples import load_samples, values_at  # noqa: E402


def _rule_nodes(
    node: object, path: tuple[object, ...]
) -> list[tuple[tuple[object, ...], list[str]]]:
    """(schema path below openAPIV3Schema, markergen's rules there) for every node."""
    out: list[tuple[tuple[object, ...], list[str]]] = []
    if isinstance(node, dict):
        ours = [
            str(r["rule"])
            for r in node.get(VALIDATIONS) or []
            if isinstance(r, dict) and OURS.search(str(r.get("message", "")))
        ]
        if ours:
            out.append((path, ours))
        for k, v in node.items():
            if k != VALIDATIONS:
                out.extend(_rule_nodes(v, (*path, k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_rule_nodes(v, (*path, i)))
    return out


class Recheck:
    """Records every `prove_union` call of a run, then re-checks it by brute force."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.original = patch_module.prove_union

        def spy(*args: Any) -> Any:
            proof = self.original(*args)
            self.calls.append((*args, proof))
            return proof

        patch_module.prove_union = spy

    def run(self) -> dict[str, int]:
        cel = CelEvaluator()
        stats = dict.fromkeys(
            ("unions", "covered", "objects", "not enforced", "wrong MG509", "too big"), 0
        )
        seen: set[Any] = set()
        for union, rules, props, required, enum, _cel, hand, _types, facts, proof in self.calls:
            key = (union, tuple(rules), tuple(props), tuple(required), str(enum), tuple(hand))
            if key in seen or proof.problems or proof.allowances:
                continue
            seen.add(key)
            members = [m.json_name for m in union.members if m.json_name in props]
            members = [m for m in members if escape_property(m)]
            if len(members) > 12:
                stats["too big"] += 1
                continue
            stats["unions"] += 1
            stats["covered"] += proof.covered
            defaults = {k: json.loads(v) for k, v in facts.defaults}
            disc = union.discriminator
            values: list[Any] = []
            if disc is not None:
                values = (
                    list(enum)
                    if enum is not None
                    else sorted({m.value for m in union.members} | {"", "other"})
                )
                values = [
                    v
                    for v in values
                    if not any(cel.verdict(r, v) is False for r in facts.discriminator_rules)
                ]
                if disc.json_name in defaults:
                    values.append(defaults[disc.json_name])
                elif disc.json_name not in required:
                    values.append(None)
            hand_rules = [h for h in hand if "oldSelf" not in h]
            for value in values or [None]:
                for n in range(len(members) + 1):
                    for chosen in itertools.combinations(members, n):
                        if any(r in members and r not in chosen for r in required):
                            continue
                        obj: dict[str, Any] = {m: {} for m in chosen}
                        for m in members:
                            if m in defaults and m not in obj:
                                obj[m] = defaults[m]
                        if disc is not None and value is not None:
                            obj[disc.json_name] = value
                        obj = {escape_property(k) or k: v for k, v in obj.items()}
                        if all(cel.verdict(r.rule, obj) is not False for r in rules):
                            continue
                        stats["objects"] += 1
                        hand_ok = all(cel.verdict(h, obj) is not False for h in hand_rules)
                        kept_ok = all(cel.verdict(r.rule, obj) is not False for r in proof.rules)
                        stats["not enforced"] += hand_ok and kept_ok
                        stats["wrong MG509"] += proof.covered and hand_ok
        return stats


def kept_rejected(outputs: dict[Path, str], root: Path) -> tuple[int, int, list[str]]:
    """(objects checked, objects some added rule rejects, examples)."""
    # a Helm chart's copy: template lines outside the documents, masked as `crd` does
    docs = [
        d
        for text in outputs.values()
        for d in yaml.safe_load_all(mask_templates(text).text)
        if isinstance(d, dict)
    ]
    groups = sorted({str(d.get("spec", {}).get("group", "")) for d in docs} - {""})
    samples = load_samples(root, groups, crd_files=list(outputs))
    cel = CelEvaluator()
    checked: set[tuple[str, int]] = set()
    rejected: dict[tuple[str, int], str] = {}
    for d in docs:
        spec = d.get("spec") or {}
        kind = (spec.get("names") or {}).get("kind")
        for version in spec.get("versions") or []:
            schema = (version.get("schema") or {}).get("openAPIV3Schema")
            objects = [
                o
                for o in samples
                if (o.group, o.version, o.kind) == (spec.get("group"), version.get("name"), kind)
            ]
            for o in objects:
                checked.add((o.file, o.line))
            for path, rules in _rule_nodes(schema, ()):
                for o in objects:
                    for part in values_at(o.value, path):
                        if not isinstance(part, dict):
                            continue
                        for rule in rules:
                            if cel.verdict(rule, part) is False:
                                rejected.setdefault((o.file, o.line), rule)
    examples = [f"{f}:{line}: {rule}" for (f, line), rule in sorted(rejected.items())[:10]]
    return len(checked), len(rejected), examples


def crd_files(root: Path) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(
            d for d in dirnames if not d.startswith(".") and d not in ("vendor", "testdata")
        )
        for name in sorted(filenames):
            if name.endswith((".yaml", ".yml")):
                path = Path(dirpath) / name
                head = path.read_text(encoding="utf-8", errors="replace")[:4000]
                if "kind: CustomResourceDefinition" in head:
                    out.append(path)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--show", default="MG502,MG508,MG510", help="codes whose findings to print")
    ap.add_argument("--recheck", action="store_true", help="re-check every proof by brute force")
    args = ap.parse_args()
    recheck = Recheck() if args.recheck else None
    root = args.checkout.resolve()
    files = crd_files(root)
    size = sum(p.stat().st_size for p in files)
    start = time.perf_counter()
    model = load_model(["./..."], root)
    loaded = time.perf_counter()
    # root: the proof on the objects the checkout keeps (samples, e2e data, openshift's
    # API-server test suites), as `markergen crd` does in a project
    outputs, found = plan_files(files, model, root=root)
    diagnostics = [f.for_crd() for f in found]
    done = time.perf_counter()
    only_inserts = 0
    rules = 0
    for path, new in outputs.items():
        old = path.read_text(encoding="utf-8")
        ops = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
        tags = {t for t, *_ in ops.get_opcodes()}
        only_inserts += tags <= {"equal", "insert"}
        rules += sum(1 for line in new.splitlines() if line.lstrip().startswith("rule: ")) - sum(
            1 for line in old.splitlines() if line.lstrip().startswith("rule: ")
        )
    codes = collections.Counter(d.code for d in diagnostics)
    print(f"{root.name}: {len(files)} CRD files, {size / 1e6:.1f} MB")
    print(f"load Go types: {loaded - start:.2f} s; patch in memory: {done - loaded:.2f} s")
    print(f"files changed: {len(outputs)}; diff only inserted lines: {only_inserts}/{len(outputs)}")
    print(f"rules added: {rules}")
    print("diagnostics: " + ", ".join(f"{c} {n}" for c, n in sorted(codes.items())))
    checked, rejected, examples = kept_rejected(outputs, root)
    print(f"kept objects of patched CRDs: {checked}; rejected by an added rule: {rejected}")
    for e in examples:
        print(f"  {e}")
    if recheck is not None:
        figures = recheck.run()
        print("recheck by brute force: " + ", ".join(f"{k} {v}" for k, v in figures.items()))
    show = set(args.show.split(","))
    for d in diagnostics:
        if d.code in show:
            print(f"  {d.pos}: {d.message}")


if __name__ == "__main__":
    main()
