"""`markergen diff` beside crdify on the CRDs of real release pairs (issue 37, item 3).

    .venv/bin/python bench/bench_crdify.py /work/real/envoyproxy+gateway \\
        /work/real/kubernetes-sigs+kueue /work/real/kubernetes-sigs+cluster-api \\
        /work/real/kubernetes-sigs+jobset /work/real/kubernetes-sigs+gateway-api

Each argument is a checkout; its history is the checkout's own git directory, else the
mirror the checkout was written from (/work/.mirror/<name>/repo, `--mirrors`). `PAIRS`
says which release tags a year apart and which CRD directory each project is compared
at. Per pair the CRD files of both tags are extracted once (`git archive`, not timed);
then, cold, each tool runs as a user would:

- crdify (harness/crdify, built by tests/kubeserver.py `build("crdify")`): one process
  per CRD present on both sides (crdify compares one CRD with one CRD), default
  configuration; its time is the sum of those processes' wall times;
- markergen: one `markergen diff base.yaml head.yaml --format json --no-cache` process
  over every CRD of each side (default settings), in a fresh directory.

Findings are matched on (CRD, version, property path, check). The table gives, per pair:
each tool's findings (crdify's errors; markergen's entries and how many are breaking),
how many are matched and how many of those have the same class (crdify error =
markergen breaking), and every finding only one tool reports, counted by its explanation
(`REASONS`); `--details` prints each of them. Times are wall seconds on a shared
machine: read them as a ratio taken in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import crdify_peer  # noqa: E402
import kubeserver  # noqa: E402

from markergen.diff.crdchecks import flatten, served_differences  # noqa: E402
from markergen.diff.crdsource import read_paths  # noqa: E402
from markergen.diff.crdsurface import shown_path  # noqa: E402


@dataclass(frozen=True)
class PairSpec:
    base: str
    head: str
    base_crds: tuple[str, ...]  # CRD directories in the repository at the base tag
    head_crds: tuple[str, ...] = ()  # at the head tag, when they moved (else base_crds)


_KUEUE = ("config/components/crd/bases",)
_CAPI_KUBEADM = ("bootstrap/kubeadm/config/crd/bases", "controlplane/kubeadm/config/crd/bases")
# Release tags about a year apart, and where each project keeps its generated CRDs.
PAIRS: dict[str, PairSpec] = {
    "envoyproxy+gateway": PairSpec(
        "v1.5.0",
        "v1.9.0",
        ("charts/gateway-helm/crds/generated",),
        ("charts/gateway-helm/charts/crds/crds/generated",),
    ),
    "kubernetes-sigs+kueue": PairSpec("v0.14.0", "v0.19.0", _KUEUE),
    "kubernetes-sigs+cluster-api": PairSpec(
        "v1.11.0",
        "v1.14.0",
        ("config/crd/bases", *_CAPI_KUBEADM),
        ("core/config/crd/bases", *_CAPI_KUBEADM),
    ),
    "kubernetes-sigs+jobset": PairSpec("v0.8.0", "v0.11.0", _KUEUE),
    "kubernetes-sigs+gateway-api": PairSpec("v1.3.0", "v1.5.0", ("config/crd/experimental",)),
}

# markergen kinds crdify has no check for, and why each is markergen's alone.
MARKERGEN_ONLY = {
    "version-added": "a version added: crdify compares only versions on both sides",
    "version-removed": "a version removed: crdify has no version check (only status.storedVersions)",
    "version-served": "served flag: crdify has no version check",
    "version-unserved": "served flag: crdify has no version check",
    "storage-version-changed": "storage flag: crdify has no version check",
    "version-deprecated": "deprecation: crdify has no version check",
    "version-undeprecated": "deprecation: crdify has no version check",
    "rule-added": "a CEL rule added: crdify reads it only as an unhandled change of its node",
    "rule-removed": "a CEL rule removed: crdify reads it only as an unhandled change",
    "rule-not-compared": "rules markergen could not compare: crdify reads them as unhandled",
    "crd-added": "a new CRD: crdify compares one CRD with one CRD",
    "crd-removed": "a CRD removed: crdify compares one CRD with one CRD",
}
UNION = ("union-", "member-")


def history(checkout: Path, mirrors: Path) -> Path:
    """The git directory holding the checkout's history."""
    for candidate in (checkout / ".git", mirrors / checkout.name / "repo" / ".git",
                      mirrors / checkout.name / "repo"):  # fmt: skip
        if candidate.exists() and (candidate / "HEAD").exists():
            return candidate
    raise SystemExit(f"{checkout}: no git history (checkout or {mirrors / checkout.name})")


def extract(git_dir: Path, tag: str, paths: tuple[str, ...], dest: Path) -> dict[str, Path]:
    """The CRDs of `paths` at `tag`, one file per CRD, by CRD name."""
    dest.mkdir(parents=True)
    proc = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", "--format=tar", tag, "--", *paths],
        capture_output=True,
        check=True,
    )
    subprocess.run(["tar", "-x", "-C", str(dest)], input=proc.stdout, check=True)
    out: dict[str, Path] = {}
    files = sorted(f for p in paths for f in (dest / p).rglob("*.y*ml"))
    for f in files:
        for doc in yaml.safe_load_all(f.read_text(encoding="utf-8")):
            if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
                name = str(doc["metadata"]["name"])
                one = dest / "one" / f"{name}.yaml"
                one.parent.mkdir(exist_ok=True)
                one.write_text(yaml.safe_dump(doc, sort_keys=False))
                out[name] = one
    return out


def joined(crds: dict[str, Path], dest: Path) -> Path:
    dest.write_text("".join(f"---\n{p.read_text()}" for _, p in sorted(crds.items())))
    return dest


def crdify_path(prop: str) -> str:
    """crdify's `^.spec.a.items.b` as markergen's `spec.a[*].b`."""
    path = prop.removeprefix("^").lstrip(".")
    path = re.sub(r"\.items(?=\.|$)", "[*]", path)
    path = re.sub(r"\.additionalProperties(?=\.|$)", "{*}", path)
    return path or "(root)"


def markergen_path(c: dict[str, Any]) -> str:
    node, field = c["crd"]["path"] or "(root)", c["field"]
    if field is None or str(c["kind"]).removeprefix("served-").startswith("required-"):
        return node  # a node's `required` list, as crdify names it
    return field if node == "(root)" else f"{node}.{field}"


def markergen_check(c: dict[str, Any]) -> str:
    if c["crd"].get("check"):
        return str(c["crd"]["check"])
    kind = str(c["kind"])
    for prefix, check in (("enum", "enum"), ("default", "default")):
        if kind.startswith(prefix):
            return check
    return kind


def unchanged(base: Any, head: Any) -> dict[tuple[str, str, str], int]:
    """(CRD, version, shown path) -> 1 where the node (with its children) is the same on
    both sides, 0 where it differs (absent on both sides counts as the same)."""

    def nodes(side: Any) -> dict[tuple[str, str, str], Any]:
        out = {}
        for v in side.versions.values():
            for path, node in flatten(v.schema):
                shown = shown_path(path)
                out[(v.name, v.version, shown)] = node
        return out

    b, h = nodes(base), nodes(head)
    keys = set(b) | set(h)
    return {k: int(b.get(k) == h.get(k)) for k in keys}


def _listed(path: str, check: str) -> str:
    """An enum of a list's items or a map's values counts as the list's (markergen
    reports it at the list property)."""
    if check == "enum" and path.endswith(("[*]", "{*}")):
        return path[:-3]
    return path


def _served(c: dict[str, Any]) -> str:
    m = re.match(r"between served versions (\S+) and (\S+):", c["message"])
    return f"{m.group(1)} -> {m.group(2)}" if m else c["crd"]["version"]


_RULE_FIELDS = {"Rule", "Message", "MessageExpression", "Reason", "FieldPath", "OptionalOldSelf"}
# A keyword whose value differs: a line of it marked - or +, or a multi-line value
# (`Pattern: strings.Join({...` with the marked lines below it).
_DIFF_FIELD = re.compile(
    r"^\s*(?:[-+]\s*([A-Z][A-Za-z]+):|([A-Z][A-Za-z]+):\s+strings\.Join)", re.M
)


def _diff_fields(message: str) -> set[str]:
    return {a or b for a, b in _DIFF_FIELD.findall(message)}


def why_crdify_only(key: tuple[str, str, str, str], f: crdify_peer.PeerFinding,
                    mg: list[dict[str, Any]], removed: set[tuple[str, str, str]],
                    absent: set[tuple[str, str, str]],
                    before: set[tuple[str, str, str, str]],
                    kept: dict[tuple[str, str, str], int]) -> str:  # fmt: skip
    crd, version, path, _ = key
    if (crd, version, path) in absent and f.check != "existingFieldRemoval":
        if f.across:
            return ("crdify false positive: a property the newer served version does not have "
                    "(renamed or dropped there, converted), compared with an empty schema")  # fmt: skip
        return ("crdify false positive: a removed property compared with an empty schema "
                "(markergen: its one field-removed entry)")  # fmt: skip
    version = version.split(" -> ")[-1]
    if any(path.startswith((r + ".", r + "[", r + "{")) for c, v, r in removed
           if (c, v) == (crd, version)):  # fmt: skip
        return ("crdify false positive: a property gone with a removed field (markergen: one "
                "field-removed entry at the topmost one)")  # fmt: skip
    if f.check == "description":
        return "description: markergen's description check is off by default"
    if f.check == "unhandled":
        fields = sorted(_diff_fields(f.message) - {"Properties", "Items"})
        if "XValidations" in f.message or set(fields) & _RULE_FIELDS:
            fields = sorted((set(fields) - _RULE_FIELDS) | {"XValidations"})
        here = [c for c in mg if c["crd"]["name"] == crd and markergen_path(c) == path]
        rules = [c for c in here if c["kind"].startswith(("rule-", *UNION))]
        if "XValidations" in fields and rules:
            return "CEL rules: markergen compares them (union reading / rule entries)"
        if fields == ["XValidations"]:
            return ("CEL rules: a message or an equivalent rewrite (markergen compares what "
                    "the rules accept)")  # fmt: skip
        return f"unhandled by crdify, not a check of either tool: {', '.join(fields) or '?'}"
    if f.across and (crd, key[1], path, f.check) in before:
        return ("served versions: the base's versions already differed so (crdify compares "
                "message texts, and lists fields in random order)")  # fmt: skip
    older = key[1].split(" -> ")[0]
    if f.across and all(
        kept.get((crd, v, path), 1) == 1 for v in (older, version)
    ):  # fmt: skip
        return ("served versions: the node is unchanged since the base in both versions "
                "(crdify re-reports it: its message lists fields in random order)")  # fmt: skip
    parent = path.rpartition(".")[0] or "(root)"
    if f.check in ("enum", "required") and any(
        c["crd"]["name"] == crd and c["crd"]["version"] == version
        and c["kind"].startswith(UNION) and markergen_path(c) in (path, parent) for c in mg
    ):  # fmt: skip
        return "one cause: the union's entry (a member with its discriminator value)"
    if f.check == "enum" and "values added" in f.message:
        return "an enum value added: compatible under markergen's default enum-addition allow"
    return f"markergen miss: {f.check}"


def why_markergen_only(c: dict[str, Any]) -> str:
    kind = str(c["kind"])
    if kind in MARKERGEN_ONLY:
        return MARKERGEN_ONLY[kind]
    if kind.startswith(("pattern-", "nullable-")):
        return ("crdify v0.5.0 has no check for it: it reports the node as unhandled, "
                "with other keywords")  # fmt: skip
    if kind.startswith(UNION):
        return "a union only markergen reads"
    if c["class"] == "compatible":
        return "a compatible change: crdify reports only what it flags"
    if kind == "field-removed":
        return "field removed (crdify reports it per descendant path)"
    return f"markergen only: {kind}"


def run_markergen(base: Path, head: Path, work: Path) -> tuple[list[dict[str, Any]], float]:
    env = dict(os.environ, MARKERGEN_CACHE_DIR=str(work / "cache"))
    args = [sys.executable, "-m", "markergen", "diff", str(base), str(head),
            "--format", "json"]  # fmt: skip
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=work, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"markergen diff failed: {proc.stderr.strip()}")
    return list(json.loads(proc.stdout)["changes"]), seconds


def compare(
    name: str, spec: PairSpec, git_dir: Path, crdify: Path, details: bool
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-crdify-") as tmp:
        t = Path(tmp)
        base = extract(git_dir, spec.base, spec.base_crds, t / "base")
        head = extract(git_dir, spec.head, spec.head_crds or spec.base_crds, t / "head")
        both = sorted(set(base) & set(head))
        peer: list[tuple[str, crdify_peer.PeerFinding]] = []
        crdify_s = 0.0
        for crd in both:
            run = crdify_peer.run(crdify, base[crd], head[crd])
            crdify_s += run.seconds
            peer += [(crd, f) for f in run.findings]
        # what the base's served versions already differed in (crdify subtracts it)
        base_set = read_paths([t / "base" / "one"], t, "base")
        before = served_differences(base_set)
        kept = unchanged(base_set, read_paths([t / "head" / "one"], t, "head"))
        (t / "mg").mkdir()
        mg, mg_s = run_markergen(joined(base, t / "base.yaml"), joined(head, t / "head.yaml"),
                                 t / "mg")  # fmt: skip
    mg = [c for c in mg if c.get("crd")]
    removed = {(c["crd"]["name"], c["crd"]["version"], markergen_path(c)) for c in mg
               if c["kind"] == "field-removed"}  # fmt: skip
    mkey: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for c in mg:
        version = _served(c) if c["kind"].startswith("served-") else c["crd"]["version"]
        check = markergen_check(c)
        mkey.setdefault((c["crd"]["name"], version, _listed(markergen_path(c), check), check), c)
    pkey: dict[tuple[str, str, str, str], crdify_peer.PeerFinding] = {}
    for crd, f in peer:
        check = f.check
        path = crdify_path(f.property)
        if check == "existingFieldRemoval":
            m = re.search(r"removed field : ([^.]+)\.(.*)$", f.message)
            version, path = (m.group(1), crdify_path(m.group(2))) if m else ("", path)
        else:
            version = f.version
        if check == "unhandled":
            # crdify v0.5.0 has no pattern or nullable check: the change is "unhandled"
            fields = _diff_fields(f.message)
            if len(fields) == 1 and fields <= {"Pattern", "Nullable"}:
                check = fields.pop().lower()
        path = _listed(path, check)
        if check in ("scope", "storedVersionRemoval"):
            version, path = "*", "(root)"
        pkey.setdefault((crd, version, path, check), f)
    # whole-CRD checks: markergen places them at a version; compare by CRD
    for k in list(mkey):
        if k[3] in ("scope", "storedVersionRemoval"):
            mkey[(k[0], "*", "(root)", k[3])] = mkey.pop(k)
    matched = set(mkey) & set(pkey)
    same = sum(1 for k in matched if (mkey[k]["class"] == "breaking") == (pkey[k].level == "error"))
    # crdify compares a property missing on the newer side with an empty schema: its
    # type "changes" to "" there
    absent = {k[:3] for k, f in pkey.items() if f.check == "type" and f.message.endswith('-> ""')}
    only_p = Counter(
        why_crdify_only(k, pkey[k], mg, removed, absent, before, kept) for k in set(pkey) - matched
    )
    only_m = Counter(why_markergen_only(mkey[k]) for k in set(mkey) - matched)
    if details:
        for k in sorted(set(pkey) - matched):
            print(
                f"  crdify only {k}: {why_crdify_only(k, pkey[k], mg, removed, absent, before, kept)}: {pkey[k].message[:160]!r}"
            )
        for k in sorted(set(mkey) - matched):
            print(f"  markergen only {k}: {mkey[k]['class']} {mkey[k]['kind']}")
        for k in sorted(matched):
            if (mkey[k]["class"] == "breaking") != (pkey[k].level == "error"):
                print(f"  class differs {k}: markergen {mkey[k]['class']} {mkey[k]['kind']}, "
                      f"crdify {pkey[k].message[:120]!r}")  # fmt: skip
    return {
        "pair": f"{name} {spec.base}..{spec.head}",
        "crds": f"{len(both)} (+{len(set(head) - set(base))} new, -{len(set(base) - set(head))})",
        "crdify": len(peer),
        "markergen": f"{len(mg)} ({sum(1 for c in mg if c['class'] == 'breaking')} breaking)",
        "matched": f"{len(matched)} ({same} same class)",
        "only_crdify": only_p,
        "only_markergen": only_m,
        "crdify_s": crdify_s,
        "markergen_s": mg_s,
    }


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("checkouts", nargs="+", type=Path)
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--details", action="store_true", help="print every unmatched finding")
    args = ap.parse_args()
    crdify = kubeserver.build("crdify")
    rows = []
    for checkout in args.checkouts:
        spec = PAIRS.get(checkout.name)
        if spec is None:
            raise SystemExit(f"{checkout.name}: no release pair in PAIRS")
        print(f"# {checkout.name} {spec.base}..{spec.head}", file=sys.stderr)
        rows.append(
            compare(checkout.name, spec, history(checkout, args.mirrors), crdify, args.details)
        )
    print("| pair | CRDs on both sides | crdify findings | markergen entries | matched | "
          "crdify wall s | markergen wall s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['pair']} | {r['crds']} | {r['crdify']} | {r['markergen']} | {r['matched']} "
              f"| {r['crdify_s']:.1f} | {r['markergen_s']:.1f} |")  # fmt: skip
    for r in rows:
        print(f"\n{r['pair']}: only crdify")
        for why, n in r["only_crdify"].most_common():
            print(f"  {n:5d}  {why}")
        print(f"{r['pair']}: only markergen")
        for why, n in r["only_markergen"].most_common():
            print(f"  {n:5d}  {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
