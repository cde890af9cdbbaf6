"""The corpus gate (issue "Go's rules, cost, proofs, corpus", item 7): markergen over
real projects pinned by commit, every finding compared with a hand classification.

    .venv/bin/python bench/bench_corpus.py CHECKOUTS_ROOT [--only NAME ...] [--jobs 2]

CHECKOUTS_ROOT holds one directory per project (bench/corpus_projects.yaml says which
subdirectory is which project and at which commit it was taken). Each project is copied
to a temporary directory first; every command runs on the copy, in the project's
`workdir` (the repository root, or a nested API module), zero-config unless the list
gives `patterns`:

1. `markergen check --format json --no-cache`: errors, warnings, infos, MG001;
2. `markergen generate --out-dir TMP --no-cache`: ok (exit 0) or refused (exit 1);
3. `markergen crd --verify --no-cache`: the CRD directories found zero-config and the
   Makefile line of each (`markergen: using DIR (from FILE:LINE)`);
4. `markergen crd --no-cache`: every file it wrote is compared with the checkout's with
   difflib: a removed or changed line, or a write under vendor/, is reported;
5. the kept objects (what the CRD proof reads: config/samples, examples, samples, docs,
   e2e data, API-server test suites, plus the list's `samples` globs): each is validated
   with the runtime table of the project's types (what `markergen validate` runs), and
   each rule that step 4 added to a CRD is evaluated on it with the CEL engine markergen
   uses; any rejection is a kept object rejected.

Every error and warning of steps 1 and 3 is a finding, keyed (project, code, file:line);
bench/corpus_expectations.yaml classifies each once by hand (verdict true or false, and
why). The run prints a table row per project, then the findings that are unclassified,
classified false, or classified but no longer reported. It exits 1 when a false error,
an MG001, an unclassified error, a kept object rejected (unless classified true: the API
server rejects it too), a changed or removed CRD line, a vendored file or a CRD of a group
no hand-written package of the project declares written, or a project that failed or
timed out appears; else 0.

`--write-unclassified FILE` writes the unclassified findings as expectation entries
with `verdict: null`, to classify by hand. Every markergen command runs as a child
process with a timeout (`--timeout`), so a project that does not parse, crashes or hangs
is reported as such and the others go on. `--jobs` projects run at once (default 2, the
cores of the machine it was sized for).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
PROJECTS = BENCH / "corpus_projects.yaml"
EXPECTATIONS = BENCH / "corpus_expectations.yaml"
COPY_SKIP = {".git", "node_modules", ".markergen-cache"}
DIAG = re.compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|info) (?P<code>MG\d+): (?P<msg>.*)$"
)
USING = re.compile(r"^markergen: using (?P<dir>.+) \(from (?P<src>.+)\)$")


@dataclass(frozen=True)
class Project:
    name: str
    dir: str  # subdirectory of the checkouts root
    repo: str
    commit: str
    workdir: str = "."  # where markergen runs, relative to the checkout
    patterns: tuple[str, ...] = ()  # empty: zero-config
    samples: tuple[str, ...] = ()  # extra kept-object globs, relative to workdir


@dataclass(frozen=True)
class Finding:
    project: str
    code: str
    at: str  # file:line relative to the checkout
    severity: str
    message: str

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.project, self.code, self.at)


@dataclass
class Result:
    project: Project
    status: str = "ok"  # ok, or what failed ("check timeout", "check exit 2", ...)
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    mg001: int = 0
    generate: str = "-"
    crd_dirs: list[str] = field(default_factory=list)
    crd_files: int = 0
    crd_total: int = 0
    crd_note: str = ""
    crd_changed: int = 0
    crd_written: list[str] = field(default_factory=list)
    inserts_only: bool = True
    not_inserted: list[str] = field(default_factory=list)
    vendored: list[str] = field(default_factory=list)
    foreign: list[str] = field(
        default_factory=list
    )  # CRDs written of groups the project does not declare
    kept: int = 0
    mg510: int = 0
    mg511: int = 0
    rejected_validate: list[str] = field(default_factory=list)
    rejected_rules: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)  # per step
    wall: float = 0.0  # the whole project, copy and clean-up included
    notes: list[str] = field(default_factory=list)


def load_projects(path: Path) -> list[Project]:
    data = yaml.safe_load(path.read_text())
    out = []
    for p in data["projects"]:
        out.append(
            Project(
                name=p["name"],
                dir=p["dir"],
                repo=p["repo"],
                commit=p["commit"],
                workdir=p.get("workdir", "."),
                patterns=tuple(p.get("patterns") or ()),
                samples=tuple(p.get("samples") or ()),
            )
        )
    return out


def load_expectations(path: Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text()) or []
    return {(e["project"], e["code"], str(e["at"])): e for e in data}


def markergen(args: list[str], cwd: Path, timeout: float) -> tuple[int | str, str, str, float]:
    """(exit code or "timeout", stdout, stderr, seconds) of one markergen command."""
    env = dict(os.environ, NO_COLOR="1")
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "markergen", *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return "timeout", "", "", time.perf_counter() - start
    return proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start


def _link_or_copy(src: str, dst: str) -> None:
    """YAML files (what `markergen crd` writes) are copied; every other file is
    hard-linked, which is as good as a copy for a writer that replaces files by renaming
    a temporary one over them (markergen's writer does) and makes copying a checkout of
    30,000 files take a second. A write in place to a linked file would show in
    `_written_since` and fail the gate."""
    if dst.endswith((".yaml", ".yml")):
        shutil.copy2(src, dst)
        return
    try:
        os.link(src, dst)
    except OSError:  # another file system, or links not allowed
        shutil.copy2(src, dst)


def copy_tree(src: Path, dst: Path) -> None:
    shutil.copytree(
        src,
        dst,
        symlinks=True,
        copy_function=_link_or_copy,
        ignore=lambda d, names: [n for n in names if n in COPY_SKIP],
    )


def is_crd(path: Path) -> bool:
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:6000]
    except OSError:
        return False
    return "kind: CustomResourceDefinition" in head


def crd_files_under(
    root: Path, skip: tuple[str, ...] = ("vendor", "testdata", "node_modules")
) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in skip)
        for name in sorted(filenames):
            if name.endswith((".yaml", ".yml")) and is_crd(Path(dirpath) / name):
                out.append(Path(dirpath) / name)
    return out


def rel_at(workdir_rel: str, file: str, line: str) -> str:
    path = os.path.normpath(os.path.join(workdir_rel, file)) if not os.path.isabs(file) else file
    return f"{path}:{line}"


def stderr_tail(text: str, n: int = 3) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return " | ".join(lines[-n:])[:300]


def run_project(p: Project, root: Path, timeout: float, keep: bool) -> Result:
    r = Result(p)
    src = root / p.dir
    if not src.is_dir():
        r.status = "missing checkout"
        return r
    tmp = Path(tempfile.mkdtemp(prefix=f"corpus-{p.name}-"))
    start = time.perf_counter()
    try:
        _run_steps(p, src, tmp, timeout, r)
    except Exception as e:  # a bench bug must not hide the other projects
        r.status = f"bench error: {type(e).__name__}: {e}"
    finally:
        if keep:
            r.notes.append(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
        r.wall = time.perf_counter() - start
    return r


def _run_steps(p: Project, src: Path, tmp: Path, timeout: float, r: Result) -> None:
    start = time.perf_counter()
    copy = tmp / "src"
    copy_tree(src, copy)
    r.seconds["copy"] = time.perf_counter() - start
    cwd = copy / p.workdir
    pats = list(p.patterns)
    seen: dict[tuple[str, str, str], Finding] = {}

    def add(code: str, sev: str, at: str, msg: str) -> None:
        f = Finding(p.name, code, at, sev, msg)
        seen.setdefault(f.key, f)

    # 1. check
    code, out, err, secs = markergen(
        ["check", "--format", "json", "--no-cache", *pats], cwd, timeout
    )
    r.seconds["check"] = secs
    if code not in (0, 1):
        r.status = f"check {'timeout' if code == 'timeout' else f'exit {code}'}: {stderr_tail(err)}"
        return
    try:
        diags = json.loads(out or "[]")
    except json.JSONDecodeError:
        r.status = f"check printed no JSON: {stderr_tail(err)}"
        return
    for d in diags:
        sev = d["severity"]
        r.errors += sev == "error"
        r.warnings += sev == "warning"
        r.infos += sev == "info"
        r.mg001 += d["code"] == "MG001"
        r.mg511 += d["code"] == "MG511"
        if sev in ("error", "warning") or d["code"] == "MG001":
            add(d["code"], sev, rel_at(p.workdir, d["file"], str(d["line"])), d["message"])

    # 2. generate
    code, out, err, secs = markergen(
        ["generate", "--no-cache", "--out-dir", str(tmp / "generated"), *pats], cwd, timeout
    )
    r.seconds["generate"] = secs
    r.generate = {0: "ok", 1: "refused", "timeout": "timeout"}.get(code, f"exit {code}")

    # 3. crd --verify: where the CRDs were found
    code, out, err, secs = markergen(["crd", "--verify", "--no-cache"], cwd, timeout)
    r.seconds["crd-verify"] = secs
    r.crd_total = len(crd_files_under(copy))
    if code == "timeout":
        r.status = "crd --verify timeout"
        return
    for line in err.splitlines():
        m = USING.match(line)
        if m:
            r.crd_dirs.append(f"{os.path.normpath(os.path.join(p.workdir, m['dir']))} ({m['src']})")
            r.crd_files += len(crd_files_under(cwd / m["dir"], skip=()))
        elif line.startswith("markergen: error:"):
            r.crd_note = line[len("markergen: error: ") :]
        elif line.startswith("markergen: note:"):
            r.notes.append("crd " + line[len("markergen: ") :])
        d = DIAG.match(line)
        if d:
            r.mg510 += d["code"] == "MG510"
            if d["sev"] in ("error", "warning"):
                add(d["code"], d["sev"], rel_at(p.workdir, d["file"], d["line"]), d["msg"])

    # 4. crd: only inserted lines, nothing vendored
    if r.crd_dirs:
        before = time.time_ns()
        time.sleep(0.01)
        code, out, err, secs = markergen(["crd", "--no-cache"], cwd, timeout)
        r.seconds["crd"] = secs
        if code == "timeout":
            r.status = "crd timeout"
            return
        for path in _written_since(copy, before):
            rel = path.relative_to(copy).as_posix()
            if rel.startswith(".markergen-cache/") or "/.markergen-cache/" in rel:
                continue
            r.crd_changed += 1
            r.crd_written.append(rel)
            if "vendor/" in f"/{rel}":
                r.vendored.append(rel)
            original = src / rel
            old = (
                original.read_text(encoding="utf-8", errors="replace").splitlines()
                if original.is_file()
                else []
            )
            new = path.read_text(encoding="utf-8", errors="replace").splitlines()
            ops = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
            if any(tag not in ("equal", "insert") for tag, *_ in ops):
                r.inserts_only = False
                r.not_inserted.append(rel)

    # 5. kept objects: validate and the added rules
    table = tmp / "generated" / "unions_table.json"
    code, out, err, secs = _worker(p, src, copy, cwd, pats, table, timeout)
    r.seconds["kept"] = secs
    if code == "timeout":
        r.notes.append("kept objects: timeout")
    elif code != 0:
        r.notes.append(f"kept objects: worker exit {code}: {stderr_tail(err)}")
    else:
        info = json.loads(out)
        r.kept = info["kept"]
        r.rejected_validate = info["validate"]
        r.rejected_rules = info["rules"]
        r.foreign = info["foreign"]
        r.notes.extend(info["notes"])
    r.findings = sorted(seen.values(), key=lambda f: (f.code, f.at))


def _written_since(root: Path, ns: int) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".markergen-cache"]
        for name in filenames:
            path = Path(dirpath) / name
            try:
                if not path.is_symlink() and path.stat().st_mtime_ns >= ns:
                    out.append(path)
            except OSError:
                continue
    return sorted(out)


def _worker(
    p: Project, src: Path, copy: Path, cwd: Path, pats: list[str], table: Path, timeout: float
) -> tuple[int | str, str, str, float]:
    argv = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        str(src),
        str(copy),
        str(cwd),
        str(table),
    ]
    argv += [f"--pattern={x}" for x in pats] + [f"--sample={x}" for x in p.samples]
    start = time.perf_counter()
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        return "timeout", "", "", time.perf_counter() - start
    return proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start


# ---- the kept-objects worker (a child process: a crash or hang stays in it) ----


def _escape(value: Any) -> Any:
    from markergen.crd.cel import escape_property

    if isinstance(value, dict):
        return {(escape_property(k) or k): _escape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_escape(v) for v in value]
    return value


def _rules(node: Any) -> list[str]:
    if not isinstance(node, dict):
        return []
    return [
        v["rule"]
        for v in node.get("x-kubernetes-validations") or []
        if isinstance(v, dict) and "rule" in v
    ]


def _added_rule_failures(
    new: Any, old: Any, value: Any, path: str, evaluator: Any, out: list[str]
) -> None:
    """Evaluate the rules `new` has and `old` lacks at every node of `value`."""
    from markergen.accept.celeval import CelError

    if not isinstance(new, dict) or value is None:
        return
    old = old if isinstance(old, dict) else {}
    added = [r for r in _rules(new) if r not in set(_rules(old))]
    for rule in added:
        try:
            ok = evaluator.passes(rule, _escape(value))
        except CelError as e:
            out.append(f"{path}: rule error {e}"[:300])
            continue
        if not ok:
            out.append(f"{path}: {rule}"[:300])
    if isinstance(value, dict):
        props = new.get("properties") or {}
        oldprops = old.get("properties") or {}
        for k, v in value.items():
            if k in props:
                _added_rule_failures(props[k], oldprops.get(k), v, f"{path}.{k}", evaluator, out)
            elif isinstance(new.get("additionalProperties"), dict):
                _added_rule_failures(
                    new["additionalProperties"],
                    old.get("additionalProperties"),
                    v,
                    f"{path}[{k}]",
                    evaluator,
                    out,
                )
    elif isinstance(value, list) and isinstance(new.get("items"), dict):
        for i, v in enumerate(value):
            _added_rule_failures(new["items"], old.get("items"), v, f"{path}[{i}]", evaluator, out)


GROUP_NAME = re.compile(rb"^//\s*\+groupName=([A-Za-z0-9.-]+)", re.MULTILINE)


def declared_groups(root: Path) -> set[str]:
    """Every `+groupName=` of a Go file under `root`, outside vendor/ and hidden
    directories."""
    out: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [
            d for d in dirnames if not d.startswith(".") and d not in ("vendor", "node_modules")
        ]
        for name in filenames:
            if name.endswith(".go"):
                try:
                    data = (Path(dirpath) / name).read_bytes()
                except OSError:
                    continue
                if b"+groupName=" in data:
                    out.update(m.decode() for m in GROUP_NAME.findall(data))
    return out


def worker(
    src: Path, copy: Path, cwd: Path, table_path: Path, patterns: list[str], samples: list[str]
) -> int:
    """Print, as JSON, the kept objects of the project's groups and which of them
    `markergen validate` (the table `generate` wrote) and the rules `markergen crd` added
    reject."""
    from markergen.accept.admit import crd_version_schema, rejection
    from markergen.accept.celeval import CelEvaluator
    from markergen.config import load_config
    from markergen.crd.helm import mask_templates
    from markergen.emit.naming import key_definition_name
    from markergen.pipeline import load_model
    from markergen.project.locate import root_type
    from markergen.project.samples import load_samples
    from markergen.runtime import Table, validate

    os.chdir(cwd)
    cfg = load_config(cwd)
    # the patterns `markergen check` resolves with no arguments (cli._patterns)
    pats = patterns or [
        os.path.relpath(cfg.root / p.removesuffix("...").rstrip("/"), cwd)
        + ("/..." if p.endswith("...") else "")
        for p in (cfg.inputs or ("./...",))
    ]
    pats = [x if x.startswith((".", "/")) else "./" + x for x in pats]
    notes: list[str] = []
    model = load_model(pats, cwd)
    table = Table.load(str(table_path)) if table_path.is_file() else None
    if table is None:
        notes.append("validate: no table (generate wrote none)")
    groups = sorted({p.group_name for p in model.packages if p.group_name})
    kept = load_samples(cfg.root, groups, include=tuple(samples)) if groups else []
    rejected_validate: list[str] = []
    rejected_rules: list[str] = []
    # the groups some hand-written Go package of the checkout declares (vendor/ left out):
    # a CRD of another group is a copy of a third party's, which markergen must not patch
    declared = declared_groups(copy)
    foreign: list[str] = []
    # the CRDs markergen patched in the copy, with their originals: (group, version, kind) -> schemas
    schemas: dict[tuple[str, str, str], tuple[Any, Any]] = {}
    for path in crd_files_under(copy):
        rel = path.relative_to(copy)
        orig = src / rel
        try:
            new_text = path.read_text(encoding="utf-8")
            old_text = orig.read_text(encoding="utf-8") if orig.is_file() else ""
        except (OSError, UnicodeDecodeError):
            continue
        if new_text == old_text:
            continue
        try:
            # a Helm chart's copy is read as markergen reads it: whole template lines masked
            new_docs = [
                d for d in yaml.safe_load_all(mask_templates(new_text).text) if isinstance(d, dict)
            ]
            old_docs = [
                d for d in yaml.safe_load_all(mask_templates(old_text).text) if isinstance(d, dict)
            ]
        except yaml.YAMLError:
            notes.append(f"{rel}: patched CRD does not parse")
            continue
        old_by_name = {(d.get("metadata") or {}).get("name"): d for d in old_docs}
        for d in new_docs:
            if d.get("kind") != "CustomResourceDefinition":
                continue
            spec = d.get("spec") or {}
            if spec.get("group") not in declared:
                foreign.append(f"{rel.as_posix()} ({spec.get('group')})")
            o = old_by_name.get((d.get("metadata") or {}).get("name")) or {}
            oversions = {v.get("name"): v for v in (o.get("spec") or {}).get("versions") or []}
            for v in spec.get("versions") or []:
                key = (spec.get("group"), v.get("name"), (spec.get("names") or {}).get("kind"))
                ov = oversions.get(v.get("name")) or {}
                schemas[key] = (
                    ((v.get("schema") or {}).get("openAPIV3Schema")),
                    ((ov.get("schema") or {}).get("openAPIV3Schema")),
                )
    evaluator = CelEvaluator()
    # Only what the project's CRD accepts today is a kept object (markergen.accept.admit, as
    # `markergen crd` keeps them): a Markdown block with `...` placeholders, a design
    # proposal or an example of a field the CRD lost proves nothing. With several CRDs
    # of one kind (feature-set variants, chart copies), one that accepts it is enough.
    today: dict[tuple[str, str, str], list[Any]] = {}
    for path in crd_files_under(src):
        try:
            docs = list(yaml.safe_load_all(mask_templates(path.read_text(encoding="utf-8")).text))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        for d in docs:
            if not isinstance(d, dict) or d.get("kind") != "CustomResourceDefinition":
                continue
            spec = d.get("spec") or {}
            for v in spec.get("versions") or []:
                if isinstance(v, dict):
                    key = (spec.get("group"), v.get("name"), (spec.get("names") or {}).get("kind"))
                    today.setdefault(key, []).append(crd_version_schema(d, str(v.get("name"))))
    accepted: list[Any] = []
    for obj in kept:
        # a version the CRD does not serve (None) rejects every object of it
        variants = today.get((obj.group, obj.version, obj.kind), [])
        if variants and all(
            s is None or rejection(obj.value, s, evaluator) is not None for s in variants
        ):
            continue
        accepted.append(obj)
    not_proof = len(kept) - len(accepted)
    if not_proof:
        notes.append(f"{not_proof} kept object(s) rejected by the project's CRD today: not proof")
    kept = accepted
    for obj in kept:
        where = f"{os.path.normpath(os.path.join(os.path.relpath(cfg.root, copy), obj.file))}:{obj.line}"
        errors: list[str] = []
        found_type = root_type(model, obj.group, obj.kind, obj.version)
        if table is not None and found_type is not None:
            try:
                errors = [
                    str(e) for e in validate(table, key_definition_name(found_type.key), obj.value)
                ]
            except Exception as e:  # one odd object must not hide the others
                errors = [f"validate raised {type(e).__name__}: {e}"]
        if errors:
            rejected_validate.append(f"{where} {obj.kind}: {'; '.join(errors)}"[:400])
        found = schemas.get((obj.group, obj.version, obj.kind))
        if found:
            fails: list[str] = []
            _added_rule_failures(found[0], found[1], obj.value, "", evaluator, fails)
            rejected_rules.extend(f"{where} {obj.kind}{f}" for f in fails)
    print(
        json.dumps(
            {
                "kept": len(kept),
                "validate": rejected_validate,
                "rules": rejected_rules,
                "notes": notes,
                "foreign": sorted(set(foreign)),
            }
        )
    )
    return 0


# ---- report ----


def row(r: Result) -> list[str]:
    secs = r.wall
    if r.status != "ok":
        return [r.project.name, r.status[:60], "", "", "", "", "", "", "", "", f"{secs:.1f}"]
    crds = f"{r.crd_files}/{r.crd_total}"
    where = "; ".join(r.crd_dirs) if r.crd_dirs else (r.crd_note[:40] or "none")
    inserted = "-" if not r.crd_changed else ("yes" if r.inserts_only else "NO")
    if r.vendored:
        inserted += " VENDOR"
    if r.foreign:
        inserted += f" FOREIGN {len(r.foreign)}"
    kept = f"{r.kept}: {r.mg510}/{r.mg511}/{len(r.rejected_validate)}/{len(r.rejected_rules)}"
    return [
        r.project.name,
        str(r.errors),
        str(r.warnings),
        str(r.infos),
        str(r.mg001),
        r.generate,
        crds,
        f"{r.crd_changed} {inserted}",
        kept,
        where,
        f"{secs:.1f}",
    ]


HEADER = [
    "project",
    "err",
    "warn",
    "info",
    "MG001",
    "generate",
    "CRDs",
    "crd wrote",
    "kept: 510/511/val/rules",
    "found at",
    "s",
]


def print_table(results: list[Result]) -> None:
    rows = [HEADER] + [row(r) for r in results]
    widths = [max(len(x[i]) for x in rows[:]) if i != 9 else 0 for i in range(len(HEADER))]
    for x in rows:
        cells = [
            c.ljust(w) if i != 9 else c for i, (c, w) in enumerate(zip(x, widths, strict=True))
        ]
        # the "found at" column last: it is the widest
        print("  ".join([*cells[:9], cells[10], cells[9]]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("root", type=Path, nargs="?", help="the directory holding the checkouts")
    ap.add_argument(
        "--only", action="append", default=[], help="run only this project (repeatable)"
    )
    ap.add_argument("--jobs", type=int, default=2, help="projects at once (default 2)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per markergen command")
    ap.add_argument("--projects", type=Path, default=PROJECTS)
    ap.add_argument("--expectations", type=Path, default=EXPECTATIONS)
    ap.add_argument("--write-unclassified", type=Path, help="write unclassified findings here")
    ap.add_argument("--json", type=Path, help="write every result here")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copies")
    ap.add_argument(
        "--worker", nargs=4, metavar=("SRC", "COPY", "CWD", "TABLE"), help=argparse.SUPPRESS
    )
    ap.add_argument("--pattern", action="append", default=[], help=argparse.SUPPRESS)
    ap.add_argument("--sample", action="append", default=[], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        src, copy, cwd, table = (Path(x) for x in args.worker)
        return worker(src, copy, cwd, table, args.pattern, args.sample)
    if args.root is None:
        ap.error("give the directory holding the checkouts")

    projects = load_projects(args.projects)
    if args.only:
        unknown = set(args.only) - {p.name for p in projects}
        if unknown:
            ap.error(f"no such project: {', '.join(sorted(unknown))}")
        projects = [p for p in projects if p.name in args.only]
    expectations = load_expectations(args.expectations)
    # markergen's .pyc written once, so that parallel children do not race to write them
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(REPO / "markergen")],
        stdout=subprocess.DEVNULL,
        check=False,
    )

    start = time.perf_counter()
    results: dict[str, Result] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {
            pool.submit(run_project, p, args.root.resolve(), args.timeout, args.keep): p
            for p in projects
        }
        for fut in concurrent.futures.as_completed(futures):
            p = futures[fut]
            results[p.name] = fut.result()
            r = results[p.name]
            print(
                f"  done {p.name} ({r.wall:.1f} s, {r.status})",
                file=sys.stderr,
                flush=True,
            )
    wall = time.perf_counter() - start
    ordered = [results[p.name] for p in projects]

    print(f"markergen corpus: {len(ordered)} projects, {wall:.0f} s wall, --jobs {args.jobs}")
    print_table(ordered)
    return report(ordered, expectations, args)


def report(
    results: list[Result],
    expectations: dict[tuple[str, str, str], dict[str, Any]],
    args: argparse.Namespace,
) -> int:
    failing: list[str] = []
    unclassified: list[Finding] = []
    false: list[Finding] = []
    verdicts: Counter[str] = Counter()
    seen_keys: set[tuple[str, str, str]] = set()
    for r in results:
        if r.status != "ok":
            failing.append(f"{r.project.name}: {r.status}")
        for f in r.findings:
            seen_keys.add(f.key)
            e = expectations.get(f.key)
            if e is None or e.get("verdict") is None:
                unclassified.append(f)
                verdicts[f"unclassified {f.severity}"] += 1
                continue
            verdicts[f"{'true' if e['verdict'] else 'false'} {f.severity}"] += 1
            if not e["verdict"]:
                false.append(f)
        if r.mg001:
            failing.append(f"{r.project.name}: {r.mg001} MG001")
        if not r.inserts_only:
            failing.append(
                f"{r.project.name}: crd changed or removed lines in {', '.join(r.not_inserted)}"
            )
        if r.foreign:
            failing.append(
                f"{r.project.name}: crd wrote CRDs of groups the project does not declare: {', '.join(r.foreign)}"
            )
        if r.vendored:
            failing.append(f"{r.project.name}: crd wrote vendored files {', '.join(r.vendored)}")
        for code, rejected in (("VALIDATE", r.rejected_validate), ("CRDRULE", r.rejected_rules)):
            for x in rejected:
                f = Finding(
                    r.project.name, code, x.split(" ", 1)[0], "rejected", x.split(" ", 1)[1]
                )
                seen_keys.add(f.key)
                e = expectations.get(f.key)
                if e is not None and e.get("verdict") is True:
                    verdicts["true rejected"] += 1  # the object is invalid for the API server too
                    continue
                verdicts[f"{'false' if e else 'unclassified'} rejected"] += 1
                (false if e else unclassified).append(f)
                failing.append(f"{r.project.name}: kept object rejected ({code}): {x[:200]}")
        if r.crd_note:
            print(f"note {r.project.name}: crd --verify: {r.crd_note}")
        for n in r.notes:
            print(f"note {r.project.name}: {n}")
    ran = {r.project.name for r in results}
    gone = [k for k in expectations if k[0] in ran and k not in seen_keys]
    for f in false:
        if f.severity == "error":
            failing.append(f"{f.project}: false error {f.code} at {f.at}")

    print()
    print(
        "classification: "
        + (", ".join(f"{k} {n}" for k, n in sorted(verdicts.items())) or "no findings")
    )
    if false:
        print(f"\nfalse findings ({len(false)}):")
        for f in false:
            print(f"  {f.project} {f.code} {f.severity} {f.at}: {f.message[:160]}")
    if unclassified:
        print(f"\nunclassified findings ({len(unclassified)}):")
        for f in unclassified:
            print(f"  {f.project} {f.code} {f.severity} {f.at}: {f.message[:160]}")
            if f.severity == "error":
                failing.append(f"{f.project}: unclassified error {f.code} at {f.at}")
    if gone:
        print(f"\nclassified but no longer reported ({len(gone)}):")
        for k in sorted(gone):
            e = expectations[k]
            print(f"  {k[0]} {k[1]} {k[2]} (was {'true' if e.get('verdict') else 'false'})")
    if args.write_unclassified and unclassified:
        entries = [
            {
                "project": f.project,
                "code": f.code,
                "at": f.at,
                "severity": f.severity,
                "message": f.message,
                "verdict": None,
                "reason": "",
            }
            for f in unclassified
        ]
        args.write_unclassified.write_text(yaml.safe_dump(entries, sort_keys=False, width=1000))
        print(f"\nwrote {len(entries)} unclassified findings to {args.write_unclassified}")
    if args.json:
        args.json.write_text(
            json.dumps(
                [
                    {
                        **{k: v for k, v in r.__dict__.items() if k not in ("project", "findings")},
                        "project": r.project.name,
                        "findings": [f.__dict__ for f in r.findings],
                    }
                    for r in results
                ],
                indent=1,
                default=str,
            )
        )
    if failing:
        print(f"\nGATE FAILS ({len(failing)}):")
        for x in failing:
            print(f"  {x}")
        return 1
    print("\ngate passes: no false error, no MG001, no kept object rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
