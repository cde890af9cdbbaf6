"""The corpus on the real API server (issue 35, "The corpus, on the real server").

    .venv/bin/python bench/bench_apiserver_corpus.py CHECKOUTS_ROOT [--projects a,b] [--json F]

CHECKOUTS_ROOT holds the checkouts of bench/corpus_projects.yaml (as for
bench/bench_corpus.py). For each project, on a copy: `markergen generate` (the runtime
table `markergen validate` runs) and `markergen crd` (the patched CRDs). Then, on the real
CRD API server of tests/kubeserver.py (built from harness/ with Go, started once):

1. every distinct patched CRD is created, and the project's own CRD it was patched from
   beside it (each under a group of its own); a refusal is shown with the server's message;
2. every kept object (what `markergen crd`'s proof reads: samples, docs, e2e data, API
   server test suites) is dry-run against every patched variant of its kind and the
   variant's original. An object the original rejects too is the server's verdict on the
   object (negative test data, a broken sample): its own column, never a markergen
   fault. An object some original accepts and its patched variant rejects is rejected by
   an added rule. The runtime's verdict (`markergen.runtime.validate`, what `markergen
   validate` runs) is compared with the server's on the objects some original accepts;
3. the generated union objects (tests/unionspace.py: at every union reached from a
   patched CRD's root, no member, each member, each pair, the discriminator with each
   value and each member set, nulls) are dry-run against the union's own schema node,
   created as a small CRD twice (the patched node and the project's own), its members
   keeping their structure and sizes but none of their constraints: what the server
   says is then about the union, never about a member's minimal value. The runtime's
   errors at the union (its object or one of its fields) are compared with the server's
   causes there; an object the server rejects only elsewhere is "not judged".

Columns: CRDs patched accepted/refused (originals refused); kept objects, of which the
server rejects with the project's own CRD ("own"), rejected by an added rule ("added");
runtime vs server on kept objects (objects compared, disagreements); union objects
(sites, objects, not judged), disagreements (runtime rejects and the server accepts: a
"violation the server accepts"; the runtime accepts and the server rejects, of which with
the project's own rules alone). `--json` writes every disagreement with the server's
message. Not run in CI: it needs the checkouts.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path[:0] = [str(BENCH), str(REPO / "tests")]

import bench_corpus as bc  # noqa: E402
import kubeserver  # noqa: E402

try:  # the generator of the server-judged union tests (one generator, not two)
    import unionspace  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - before that module is merged
    unionspace = None


LOCK = threading.Lock()  # the counters the dry-run threads add to
THREADS = 4  # dry runs in flight at once (the server answers each on its own goroutine)


def say(text: str) -> None:
    print(f"  {text}", file=sys.stderr, flush=True)


@dataclass
class Outcome:
    name: str
    status: str = "ok"
    crds: int = 0
    refused: list[str] = field(default_factory=list)
    refused_own: list[str] = field(default_factory=list)
    kept: int = 0
    kept_judged: int = 0  # kept objects with an installed CRD of their kind
    own: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    kept_compared: int = 0
    kept_disagree: list[dict[str, Any]] = field(default_factory=list)
    sites: int = 0
    site_errors: list[str] = field(default_factory=list)
    union_objects: int = 0
    union_unjudged: int = 0
    unjudged_why: Counter[str] = field(default_factory=Counter)
    server_accepts: list[dict[str, Any]] = field(default_factory=list)
    runtime_accepts: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0


def _docs(text: str) -> list[dict[str, Any]]:
    try:
        # libyaml's loader when present: openshift/api's CRDs are 1,000 large files
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        return [d for d in yaml.load_all(text, Loader=loader) if isinstance(d, dict)]
    except yaml.YAMLError:
        return []


def _crd_docs(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    if "{{" in text:  # a Helm template's copy: the plain copy is judged
        return []
    return [d for d in _docs(text) if d.get("kind") == "CustomResourceDefinition"]


def _key(doc: Mapping[str, Any]) -> tuple[str, str]:
    spec = doc.get("spec") or {}
    return str(spec.get("group")), str((spec.get("names") or {}).get("kind"))


def _canon(doc: Mapping[str, Any]) -> str:
    return json.dumps(doc, sort_keys=True)


@dataclass
class Variant:
    """One distinct patched CRD of a kind, with the project's own CRD it came from."""

    files: list[str]
    patched: dict[str, Any]
    original: dict[str, Any]
    p: Any = None  # kubeserver.Installed, or None when refused
    o: Any = None


def collect(src: Path, copy: Path) -> list[Variant]:
    """The CRDs `markergen crd` changed in the copy (distinct contents), each with its
    original; CRDs it left alone are left out (nothing of markergen's to judge)."""
    out: dict[str, Variant] = {}
    for path in bc.crd_files_under(copy):
        rel = path.relative_to(copy).as_posix()
        try:
            if path.read_bytes() == (src / rel).read_bytes():
                continue  # not patched: nothing to parse
        except OSError:
            pass
        new = _crd_docs(path)
        old = {(d.get("metadata") or {}).get("name"): d for d in _crd_docs(src / rel)}
        for d in new:
            o = old.get((d.get("metadata") or {}).get("name"))
            if o is None or _canon(o) == _canon(d):
                continue
            k = _canon(d)
            if k in out:
                out[k].files.append(rel)
            else:
                out[k] = Variant([rel], d, o)
    return list(out.values())


# The server's cause (no field) when an OpenAPI error kept it from evaluating CEL rules.
_NOT_CHECKED = "some validation rules were not checked because the object was invalid"


def _dotted(path: str) -> str:
    """A map key as `.key` (the server's OpenAPI errors write `spec.m.k.f`, its CEL
    errors and markergen `spec.m[k].f`); list indexes stay `[0]`."""
    return re.sub(r"\[([^\]\d][^\]]*)\]", r".\1", path)


def _at_union(path: str, at: str, fields: Iterable[str]) -> bool:
    """Whether a field path names the union: its object, or one of its own fields."""
    names = {at} | {f"{at}.{f}" if at else f for f in fields}
    return _dotted(path.removeprefix("<nil>")) in {_dotted(n) for n in names}


def _node_messages(schema: Mapping[str, Any]) -> set[str]:
    return {
        str(v.get("message") or v.get("rule"))
        for v in schema.get("x-kubernetes-validations") or []
        if isinstance(v, dict)
    }


def _causes_at(
    verdict: Any, at: str, fields: list[str], site_schema: Mapping[str, Any]
) -> list[str]:
    """The server's causes said about the union: at its object or its discriminator, or
    at a member when the cause is the member's presence (required, forbidden) or one of
    the union node's own rules (a rule with a fieldPath). A member's own value refused
    (a minimal value a nested rule or `minProperties` refuses) is not about the union."""
    own = _node_messages(site_schema)
    out = []
    for c in verdict.causes:
        if _NOT_CHECKED in c.message:
            continue
        if _at_union(c.field, at, [f for f in fields[:1] if f]) or (
            _at_union(c.field, at, fields)
            and (
                c.reason in ("FieldValueRequired", "FieldValueForbidden")
                or any(m in c.message for m in own)
            )
        ):
            out.append(f"{c.field}: {c.message}")
    return out


def run_project(
    p: bc.Project,
    root: Path,
    server: kubeserver.Server,
    timeout: float,
    work: Path | None,
    skip_kept: bool = False,
) -> Outcome:
    r = Outcome(p.name)
    src = root / p.dir
    if not src.is_dir():
        r.status = "missing checkout"
        return r
    if work is not None:
        tmp = work / p.name
        tmp.mkdir(parents=True, exist_ok=True)
    else:
        tmp = Path(tempfile.mkdtemp(prefix=f"apicorpus-{p.name}-"))
    start = time.perf_counter()
    installed: list[Any] = []
    try:
        _run(p, src, tmp, server, timeout, r, installed, skip_kept)
    except Exception as e:  # a bench bug must not hide the other projects
        r.status = f"bench error: {type(e).__name__}: {e}"[:200]
    finally:
        for h in installed:
            h.delete()
        if work is None:
            shutil.rmtree(tmp, ignore_errors=True)
        r.seconds = time.perf_counter() - start
    return r


def _run(
    p: bc.Project,
    src: Path,
    tmp: Path,
    server: kubeserver.Server,
    timeout: float,
    r: Outcome,
    installed: list[Any],
    skip_kept: bool = False,
) -> None:
    copy = tmp / "src"
    cwd = copy / p.workdir
    pats = list(p.patterns)
    done = tmp / "prepared"
    if not done.is_file():  # --work keeps a prepared copy for the next run
        shutil.rmtree(copy, ignore_errors=True)
        bc.copy_tree(src, copy)
        code, _, err, _ = bc.markergen(
            ["generate", "--no-cache", "--out-dir", str(tmp / "generated"), *pats], cwd, timeout
        )
        if code not in (0, 1):
            r.status = f"generate exit {code}: {bc.stderr_tail(err)}"
            return
        code, _, err, _ = bc.markergen(["crd", "--no-cache"], cwd, timeout)
        if code == 2 and "none found" in err:
            r.status = "no CRDs found (zero-config)"
            return
        if code not in (0, 1):
            r.status = f"crd exit {code}: {bc.stderr_tail(err)}"
            return
        done.write_text("")
    variants = collect(src, copy)
    r.crds = len(variants)
    # one installation per distinct original
    own_docs: dict[str, dict[str, Any]] = {}
    for v in variants:
        own_docs.setdefault(_canon(v.original), v.original)
    own_keys = list(own_docs)
    got = server.install_all([v.patched for v in variants] + [own_docs[k] for k in own_keys])
    installed.extend(h for h in got if not isinstance(h, kubeserver.CRDRefused))
    originals = dict(zip(own_keys, got[len(variants) :], strict=True))
    for v, h in zip(variants, got[: len(variants)], strict=True):
        name = (v.patched.get("metadata") or {}).get("name")
        if isinstance(h, kubeserver.CRDRefused):
            r.refused.append(f"{v.files[0]} {name}: {h.message}"[:400])
        else:
            v.p = h
        o = originals[_canon(v.original)]
        if isinstance(o, kubeserver.CRDRefused):
            if f"{name}: {o.message}"[:300] not in {
                x.split(" ", 1)[1][:300] for x in r.refused_own
            }:
                r.refused_own.append(f"{v.files[0]} {name}: {o.message}"[:400])
        else:
            v.o = o
    say(f"{p.name}: {len(variants)} patched CRDs, {len(own_keys)} originals installed")
    if not variants:
        return
    by_kind: dict[tuple[str, str], list[Variant]] = {}
    for v in variants:
        by_kind.setdefault(_key(v.patched), []).append(v)

    from markergen.config import load_config
    from markergen.emit.naming import key_definition_name
    from markergen.pipeline import load_model
    from markergen.project.locate import root_type
    from markergen.project.samples import load_samples
    from markergen.runtime import Table, validate

    table_path = tmp / "generated" / "unions_table.json"
    table = Table.load(str(table_path)) if table_path.is_file() else None
    here = os.getcwd()
    os.chdir(cwd)
    try:
        cfg = load_config(cwd)
        pats = pats or [
            os.path.relpath(cfg.root / x.removesuffix("...").rstrip("/"), cwd)
            + ("/..." if x.endswith("...") else "")
            for x in (cfg.inputs or ("./...",))
        ]
        pats = [x if x.startswith((".", "/")) else "./" + x for x in pats]
        model = load_model(pats, cwd)
        groups = sorted({q.group_name for q in model.packages if q.group_name})
        kept = load_samples(cfg.root, groups, include=p.samples) if groups else []
    finally:
        os.chdir(here)
    r.kept = len(kept)

    # --- kept objects --------------------------------------------------------------
    def judge_kept(obj: Any) -> None:
        vs = by_kind.get((obj.group, obj.kind)) or []
        vs = [v for v in vs if v.p is not None and v.o is not None]
        vs = [
            v
            for v in vs
            if any(x.get("name") == obj.version for x in v.patched["spec"]["versions"])
        ]
        if not vs:
            return
        with LOCK:
            r.kept_judged += 1
        where = f"{obj.file}:{obj.line} {obj.kind}"
        own_ok = patched_ok = False
        own_msg = ""
        for v in vs:
            ov = v.o.dry_run(obj.value, version=obj.version)
            pv = v.p.dry_run(obj.value, version=obj.version)
            own_ok |= ov.accepted
            patched_ok |= pv.accepted and ov.accepted
            own_msg = own_msg or ov.message
            if ov.accepted and not pv.accepted:
                r.added.append(f"{where} ({v.files[0]}): {pv.message}"[:500])
        if not own_ok:
            r.own.append(f"{where}: {own_msg}"[:300])
            return
        found = root_type(model, obj.group, obj.kind, obj.version)
        if table is None or found is None:
            return
        try:
            errors = [str(e) for e in validate(table, key_definition_name(found.key), obj.value)]
        except Exception as e:  # one odd object must not hide the others
            errors = [f"validate raised {type(e).__name__}: {e}"]
        with LOCK:
            r.kept_compared += 1
        if bool(errors) == patched_ok:
            r.kept_disagree.append(
                {
                    "object": where,
                    "runtime": errors,
                    "server": "accepts" if patched_ok else "rejects",
                }
            )

    if not skip_kept:
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            list(pool.map(judge_kept, kept))
    say(f"{p.name}: {len(kept)} kept objects judged")

    # --- generated union objects ------------------------------------------------------
    if unionspace is None or table is None:
        r.site_errors.append("no union generator (tests/unionspace.py) or no runtime table")
        return
    nodes = NodeCRDs(server, installed)
    for v in variants:
        if v.p is None or v.o is None:
            continue
        given = {
            "name": p.name,
            "root": copy,
            "crds": (unionspace.CRD(tuple(v.files), v.patched),),
            "table_path": table_path,
            "table": table,
        }
        proj = unionspace.Project(
            **{f.name: given.get(f.name, "") for f in dataclasses.fields(unionspace.Project)}
        )
        try:
            found_sites = unionspace.sites(proj)
        except (AssertionError, ValueError, KeyError) as e:
            r.site_errors.append(f"{v.files[0]}: {e}"[:200])
            continue
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            judged = pool.map(lambda x, v=v: _judge_site(x, table, v, r, nodes), found_sites)
            for site, err in zip(found_sites, judged, strict=True):
                if err:
                    r.site_errors.append(f"{site.label(table)}: {err}"[:500])
    say(f"{p.name}: {r.sites} union sites, {r.union_objects} objects")


def _judge_site(site: Any, table: Any, v: Variant, r: Outcome, nodes: NodeCRDs) -> str:
    try:
        _judge_site_objects(site, table, v, r, nodes)
    except (AssertionError, ValueError, KeyError, TypeError) as e:
        return f"{type(e).__name__}: {e}"
    return ""


def _walk(root: Mapping[str, Any], site: Any) -> Mapping[str, Any] | None:
    """The schema node at the site's steps in another CRD's schema (the original)."""
    node: Any = root
    top = getattr(site, "top", None)
    if top:
        node = (node.get("properties") or {}).get(top)
    for step in site.steps:
        if not isinstance(node, dict):
            return None
        node = (node.get("properties") or {}).get(step.field)
        if isinstance(node, dict) and step.kind == "list":
            node = node.get("items")
        elif isinstance(node, dict) and step.kind == "map":
            node = node.get("additionalProperties")
    return node if isinstance(node, dict) else None


_KEEP = ("type", "format", "nullable", "maxItems", "maxLength", "maxProperties",
         "x-kubernetes-preserve-unknown-fields", "x-kubernetes-int-or-string")  # fmt: skip


def _strip(schema: Any) -> Any:
    """A member's schema with its structure and sizes but none of its constraints: the
    node's own rules still compile against it (`self.zoneAware.weightedZones`) and cost
    what they cost, while a minimal member value is never refused for its content."""
    if not isinstance(schema, dict):
        return schema
    out = {k: v for k, v in schema.items() if k in _KEEP}
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {k: _strip(v) for k, v in schema["properties"].items()}
    if isinstance(schema.get("items"), dict):
        out["items"] = _strip(schema["items"])
    if isinstance(schema.get("additionalProperties"), dict):
        out["additionalProperties"] = _strip(schema["additionalProperties"])
    if (
        out.get("type") == "object"
        and "properties" not in out
        and "additionalProperties" not in out
    ):
        out["x-kubernetes-preserve-unknown-fields"] = True
    if not out.get("type") and not out.get("x-kubernetes-int-or-string"):
        out["x-kubernetes-preserve-unknown-fields"] = True
    return out


def _loosen(node: Mapping[str, Any], keep: str | None) -> dict[str, Any]:
    """The union's node with every property but the discriminator stripped of its
    constraints (`_strip`): what the server says is then about the union, never about a
    member's own content (a minimal member value a nested rule refuses)."""
    out = {k: v for k, v in node.items() if k != "properties"}
    out["properties"] = {
        name: sub if name == keep else _strip(sub)
        for name, sub in (node.get("properties") or {}).items()
    }
    return out


class NodeCRDs:
    """One small CRD per distinct union node (its schema as `spec`), installed once."""

    def __init__(self, server: kubeserver.Server, installed: list[Any]) -> None:
        self.server = server
        self.installed = installed
        self.cache: dict[str, Any] = {}
        self.seen: set[tuple[str, ...]] = set()  # (union, node, own node) judged already
        self.lock = threading.Lock()

    def first(self, key: tuple[str, ...]) -> bool:
        with self.lock:
            if key in self.seen:
                return False
            self.seen.add(key)
            return True

    def get(self, node: Mapping[str, Any]) -> Any:
        key = _canon(node)
        with self.lock:
            if key not in self.cache:
                n = len(self.cache) + 1
                crd = {
                    "apiVersion": "apiextensions.k8s.io/v1",
                    "kind": "CustomResourceDefinition",
                    "metadata": {"name": f"unodes{n}.nodes.markergen.test"},
                    "spec": {
                        "group": "nodes.markergen.test",
                        "scope": "Namespaced",
                        "names": {"kind": f"UNode{n}", "plural": f"unodes{n}"},
                        "versions": [
                            {
                                "name": "v1",
                                "served": True,
                                "storage": True,
                                "schema": {
                                    "openAPIV3Schema": {
                                        "type": "object",
                                        "properties": {"spec": node},
                                    }
                                },
                            }
                        ],
                    },
                }
                try:
                    h = self.server.install(crd)
                    self.installed.append(h)
                    self.cache[key] = h
                except kubeserver.CRDRefused as e:
                    self.cache[key] = e
            return self.cache[key]


def _judge_site_objects(site: Any, table: Any, v: Variant, r: Outcome, nodes: NodeCRDs) -> None:
    from markergen.runtime import validate

    u = site.union(table)
    fields = [f for f in (u.discriminator, *u.fields) if f]
    patched = nodes.get(_loosen(site.schema, u.discriminator))
    own_node = _walk(v.original["spec"]["versions"][0]["schema"]["openAPIV3Schema"], site)
    for ver in v.original["spec"]["versions"]:
        if ver.get("name") == site.version:
            own_node = _walk(ver["schema"]["openAPIV3Schema"], site)
    if not nodes.first((site.label(table), _canon(site.schema), _canon(own_node or {}))):
        return  # the same union node in another variant of the CRD (a feature set)
    own = nodes.get(_loosen(own_node, u.discriminator)) if own_node is not None else None
    if isinstance(patched, kubeserver.CRDRefused):
        raise ValueError(f"the union's node as a CRD is refused: {patched.message}"[-300:])
    tname = site.info(table).name
    with LOCK:
        r.sites += 1
    base = unionspace.minimal(site.schema)
    if not isinstance(base, dict):
        base = {}
    for f in fields:
        base.pop(f, None)
    for label, overlay in unionspace.exhaustive(site, table):
        spec = dict(base)
        spec.update({k: x for k, x in overlay.items() if x is not unionspace.ABSENT})
        obj = {"apiVersion": "nodes.markergen.test/v1", "kind": "UNode", "spec": spec}
        with LOCK:
            r.union_objects += 1
        errs = validate(table, tname, spec)
        rt = [str(e) for e in errs if _at_union(e.path, "", fields)]
        pv = patched.dry_run(obj)
        sv = [
            f"{c.field}: {c.message}"
            for c in pv.causes
            if _at_union(c.field.removeprefix("spec").lstrip("."), "", fields)
            and _NOT_CHECKED not in c.message
        ]
        if not pv.accepted and not sv:
            first = pv.causes[0] if pv.causes else None
            why = f"{first.field} {first.reason}: {first.message}" if first else pv.message
            with LOCK:
                r.union_unjudged += 1
                r.unjudged_why[re.sub(r"(Invalid value: )[^:]*:", r"\1...:", why)[:120]] += 1
            continue
        if bool(rt) == bool(sv):
            continue
        case: dict[str, Any] = {"site": site.label(table), "crd": v.files[0], "object": label,
                                "spec": spec}  # fmt: skip
        if rt:
            case["runtime"] = rt
            r.server_accepts.append(case)
        else:
            case["server"] = sv
            ov = own.dry_run(obj) if own is not None and not isinstance(own, Exception) else None
            case["own_rules_reject"] = ov is not None and not ov.accepted
            r.runtime_accepts.append(case)


HEADER = [
    "project",
    "CRDs ok/refused (own refused)",
    "kept (judged)",
    "own",
    "added",
    "kept rt=srv (disagree)",
    "union sites/objects (not judged)",
    "srv accepts violation",
    "rt accepts, srv rejects (own rules)",
    "s",
]


def row(r: Outcome) -> list[str]:
    if r.status != "ok":
        return [r.name, r.status[:70], "", "", "", "", "", "", "", f"{r.seconds:.0f}"]
    own_rules = sum(1 for c in r.runtime_accepts if c["own_rules_reject"])
    return [
        r.name,
        f"{r.crds - len(r.refused)}/{len(r.refused)} ({len(r.refused_own)})",
        f"{r.kept} ({r.kept_judged})",
        str(len(r.own)),
        str(len(r.added)),
        f"{r.kept_compared} ({len(r.kept_disagree)})",
        f"{r.sites}/{r.union_objects} ({r.union_unjudged})",
        str(len(r.server_accepts)),
        f"{len(r.runtime_accepts)} ({own_rules})",
        f"{r.seconds:.0f}",
    ]


def print_table(results: list[Outcome]) -> None:
    rows = [HEADER] + [row(r) for r in results]
    widths = [max(len(x[i]) for x in rows) for i in range(len(HEADER))]
    for x in rows:
        print("  ".join(c.ljust(w) for c, w in zip(x, widths, strict=True)).rstrip())


def details(results: list[Outcome]) -> None:
    for r in results:
        for name in ("refused", "refused_own", "own", "added", "site_errors"):
            getattr(r, name).sort()
        for name in ("kept_disagree", "server_accepts", "runtime_accepts"):
            getattr(r, name).sort(key=lambda x: json.dumps(x, sort_keys=True))
        lines: list[str] = []
        lines += [f"  CRD refused: {x}" for x in r.refused]
        lines += [f"  own CRD refused: {x}" for x in r.refused_own]
        lines += [f"  kept object rejected by an added rule: {x}" for x in r.added]
        lines += [
            f"  kept, runtime/server disagree: {json.dumps(x)[:400]}" for x in r.kept_disagree
        ]
        lines += [f"  server accepts a violation: {json.dumps(x)[:400]}" for x in r.server_accepts]
        lines += [
            f"  runtime accepts, server rejects: {json.dumps(x)[:400]}" for x in r.runtime_accepts
        ]
        lines += [f"  not generated: {x}" for x in r.site_errors]
        lines += [
            f"  not judged (the server rejects elsewhere) {n}x: {why}"
            for why, n in sorted(r.unjudged_why.items(), key=lambda x: (-x[1], x[0]))[:8]
        ]
        if lines:
            print(f"\n{r.name}:")
            print("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("root", type=Path, help="the directory holding the checkouts")
    ap.add_argument("--projects", default="", help="comma-separated project names (default all)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per markergen command")
    ap.add_argument("--json", type=Path, help="write every result here")
    ap.add_argument(
        "--skip-kept", action="store_true", help="judge the union objects only (while iterating)"
    )
    ap.add_argument(
        "--work",
        type=Path,
        help="keep each project's patched copy here and reuse it on the next run "
        "(delete it after changing markergen)",
    )
    args = ap.parse_args(argv)
    projects = bc.load_projects(bc.PROJECTS)
    if args.projects:
        wanted = [x.strip() for x in args.projects.split(",") if x.strip()]
        unknown = set(wanted) - {p.name for p in projects}
        if unknown:
            ap.error(f"no such project: {', '.join(sorted(unknown))}")
        projects = [p for p in projects if p.name in wanted]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(REPO / "markergen")],
        stdout=subprocess.DEVNULL,
        check=False,
    )
    server = kubeserver.Server.start()
    results: list[Outcome] = []
    try:
        for p in projects:
            r = run_project(p, args.root.resolve(), server, args.timeout, args.work, args.skip_kept)
            print(f"  done {p.name} ({r.seconds:.0f} s, {r.status})", file=sys.stderr, flush=True)
            results.append(r)
    finally:
        server.stop()
    print_table(results)
    details(results)
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in results], indent=1, default=str))
    bad = any(
        r.status not in ("ok", "no CRDs found (zero-config)")
        or r.refused
        or r.added
        or r.kept_disagree
        or r.server_accepts
        or r.runtime_accepts
        for r in results
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
