"""The objects the server-judged union tests send: one generator for the exhaustive test
(tests/test_apiserver_unions.py) and the property test (tests/test_apiserver_property.py).

A fixture project is copied, `markergen crd` patches its CRDs and `markergen generate`
writes its runtime table, both through the real command line. Every place a union's type
is reached from a CRD's root kind (walking the runtime table's fields beside the CRD's
schema) is a `Site`; an object for a site is a schema-minimal object of the kind with the
union's object at the site's path, completed so that the unions of the objects above it
select the way down, and the union's own fields (`overlay`) as the test chooses them.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import kubeserver
import yaml
from helpers import TESTDATA

from markergen.runtime import FieldError, Table, validate
from markergen.runtime.table import TypeInfo, Union

JSON = Any
ABSENT = object()  # an overlay value: the field is left out

# Fixtures of a stale CRD, also judged as controller-gen writes the CRD from their Go
# today (the edits tests/test_enums_server.py's test_regenerated_crd_agrees makes): the
# union's default is then judged, not only reported as stale.
FRESHENED: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "enumcrd-fresh": (
        "enumcrd",
        (("- Syntax", "- InsecureSyntax"), ("default: Image", "default: HTTP")),
    ),
}

# The fixture projects with CRDs. `_layout` is not a project: it holds the Go types and
# CRD that the layout fixtures (copydelete, nested, openshift, submake) link to.
# Left out, each judged by its own server test: gatewaychannels' standard CRD serves a
# subset of the Go (its channel), which a runtime table built from all the Go cannot know
# (tests/test_apiserver_channels.py); helmcopy and sharedapi find their CRDs through the
# git repository around the module (tests/test_crd_unseen_layouts.py).
ELSEWHERE = {"gatewaychannels", "helmcopy", "sharedapi"}
PROJECTS: dict[str, Path] = {
    "example": TESTDATA / "example",
    **{
        p.name: p
        for p in sorted((TESTDATA / "projects").iterdir())
        if p.is_dir() and not p.name.startswith("_") and p.name not in ELSEWHERE
    },
    **{name: TESTDATA / "projects" / base for name, (base, _) in FRESHENED.items()},
}

# `markergen generate`'s patterns where its zero-config reading misses packages whose
# kinds `markergen crd` patches (rootfind: the Makefile's controller-gen reads
# ./exp/api/... too, generate reads ./api/... only; issue 39 "the packages read").
GENERATE_PATTERNS: dict[str, list[str]] = {"rootfind": ["./api/...", "./exp/api/..."]}

# Where markergen runs in a fixture whose Go module is not at its top (the module in
# `operator/`, the chart beside it), as its user would run it.
WORKDIRS: dict[str, str] = {"helmcopy": "operator", "sharedapi": "operator"}


@dataclass(frozen=True)
class CRD:
    """One patched CRD (distinct content; copies of one CRD are judged once)."""

    files: tuple[str, ...]  # where the project keeps it, relative to its root
    value: Mapping[str, Any]

    @property
    def kind(self) -> str:
        return str(self.value["spec"]["names"]["kind"])


@dataclass(frozen=True)
class Project:
    name: str
    root: Path  # the patched copy
    crds: tuple[CRD, ...]
    table_path: Path
    table: Table
    crd_stderr: str  # what `markergen crd` said (warnings MG508/MG510 among it)
    check_stdout: str  # what `markergen check` said (MG520/MG521: a stale CRD)


def _markergen(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "markergen", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def _crd_files(root: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*.yaml")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("vendor/"):
            continue
        text = path.read_text()
        # A Helm template's copy (`{{ ... }}`) is no YAML; its plain copy is judged.
        if "kind: CustomResourceDefinition" in text and "{{" not in text:
            found[rel] = text
    return found


def prepare(name: str, dest: Path) -> Project:
    """Copy fixture `name` to `dest`, run `markergen crd` and `markergen generate` there."""
    root = dest / name
    shutil.copytree(PROJECTS[name], root)  # follows the layout fixtures' links
    if name in FRESHENED:
        for rel in _crd_files(root):
            path = root / rel
            text = path.read_text()
            for old, new in FRESHENED[name][1]:
                text = text.replace(old, new)
            path.write_text(text)
    before = _crd_files(root)
    work = root / WORKDIRS.get(name, "")
    crd = _markergen(["crd"], work)
    if crd.returncode != 0:
        raise AssertionError(f"markergen crd in {name}: {crd.returncode}\n{crd.stderr}")
    gen = _markergen(["generate", *GENERATE_PATTERNS.get(name, [])], work)
    if gen.returncode != 0:
        raise AssertionError(f"markergen generate in {name}: {gen.returncode}\n{gen.stderr}")
    check = _markergen(["check"], work)
    after = _crd_files(root)
    by_text: dict[str, list[str]] = {}
    for rel, text in after.items():
        if before.get(rel) != text:  # patched by markergen
            by_text.setdefault(text, []).append(rel)
    crds = []
    for text, files in by_text.items():
        for doc in yaml.safe_load_all(text):
            if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
                crds.append(CRD(tuple(files), doc))
    table_path = work / "openapi" / "unions_table.json"
    return Project(
        name, root, tuple(crds), table_path, Table.load(table_path), crd.stderr, check.stdout
    )


# --- where the unions are --------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    field: str
    kind: str  # object, list or map
    schema: Mapping[str, Any]  # the schema of the object reached (a list's item, a map's value)
    info: str  # the runtime table's type of the object reached


@dataclass(frozen=True)
class Site:
    """A union at one place of a kind: the object at `steps` from the root."""

    crd: CRD
    version: str
    root_type: str
    root_schema: Mapping[str, Any]
    steps: tuple[Step, ...]
    union_index: int
    # The field of the kind that `root_type` describes, when the table has no type for
    # the kind itself (a root type declared in a generated file `generate` skips).
    top: str | None = None

    @property
    def top_schema(self) -> Mapping[str, Any]:
        if self.top is None:
            return self.root_schema
        return self.root_schema["properties"][self.top]  # type: ignore[no-any-return]

    @property
    def schema(self) -> Mapping[str, Any]:
        return self.steps[-1].schema if self.steps else self.top_schema

    def info(self, table: Table) -> TypeInfo:
        return table.type(self.steps[-1].info if self.steps else self.root_type)

    def union(self, table: Table) -> Union:
        return self.info(table).unions[self.union_index]

    def label(self, table: Table) -> str:
        u = self.union(table)
        where = ".".join(([self.top] if self.top else []) + [s.field + ("[0]" if s.kind == "list" else "[k]" if s.kind == "map" else "")
                         for s in self.steps])  # fmt: skip
        name = self.info(table).name.rsplit(".", 1)[-1]
        return f"{self.crd.kind}/{self.version}:{where}:{name}.{u.discriminator or '-'}"


def root_type(table: Table, kind: str, version: str) -> tuple[str, str | None]:
    """The table's type of the kind, else of its spec (and "spec")."""
    for wanted, top in ((f"{version}.{kind}", None), (kind, None),
                        (f"{version}.{kind}Spec", "spec"), (f"{kind}Spec", "spec")):  # fmt: skip
        try:
            return table.resolve(wanted), top
        except ValueError:
            continue
    raise AssertionError(f"no runtime table type for kind {kind} ({version})")


def sites(project: Project) -> list[Site]:
    """Every union reached from every served version of every patched CRD."""
    out: list[Site] = []
    for crd in project.crds:
        for ver in crd.value["spec"]["versions"]:
            if not ver.get("served", True):
                continue
            schema = ver["schema"]["openAPIV3Schema"]
            top, at = root_type(project.table, crd.kind, ver["name"])
            start = schema["properties"][at] if at else schema
            walk: list[tuple[str, Mapping[str, Any], tuple[Step, ...]]] = [(top, start, ())]
            while walk:
                tname, node, steps = walk.pop(0)
                info = project.table.type(tname)
                for i, u in enumerate(info.unions):
                    if u.at:
                        raise AssertionError(f"{tname}: a union below the object (`at`)")
                    out.append(Site(crd, ver["name"], top, schema, steps, i, at))
                seen = {s.info for s in steps} | {top}
                for fname, f in info.fields.items():
                    if f.type is None or f.kind not in ("object", "list", "map"):
                        continue
                    child = (node.get("properties") or {}).get(fname)
                    if child is None:
                        continue  # not in this version's schema
                    if f.kind == "list":
                        child = child.get("items")
                    elif f.kind == "map":
                        child = child.get("additionalProperties")
                    if not isinstance(child, dict) or f.type in seen:
                        continue
                    walk.append((f.type, child, (*steps, Step(fname, f.kind, child, f.type))))
    return out


# --- values ------------------------------------------------------------------------------


def minimal(schema: Mapping[str, Any]) -> JSON:
    """The smallest value the schema accepts by itself (required fields without a default
    filled in, the rest left to the server's defaults)."""
    if "enum" in schema:
        values = [v for v in schema["enum"] if v not in ("", None)]
        return values[0] if values else schema["enum"][0]
    t = schema.get("type")
    if t == "object" or "properties" in schema:
        props = schema.get("properties") or {}
        return {
            r: minimal(props.get(r) or {})
            for r in schema.get("required") or ()
            if "default" not in (props.get(r) or {})
        }
    if t == "array":
        return [minimal(schema.get("items") or {}) for _ in range(int(schema.get("minItems", 0)))]
    if t == "string":
        fmt = schema.get("format")
        if fmt == "date-time":
            return "2024-01-01T00:00:00Z"
        if fmt == "duration":
            return "1s"
        if fmt in ("uri", "url"):
            return "https://example.com"
        if fmt == "email":
            return "a@example.com"
        return "x" * max(1, int(schema.get("minLength", 1)))
    if t in ("integer", "number"):
        low = schema.get("minimum", 1)
        return int(low) + (1 if schema.get("exclusiveMinimum") else 0)
    if t == "boolean":
        return True
    if schema.get("x-kubernetes-int-or-string"):
        return 1
    return {}


def zero(schema: Mapping[str, Any]) -> JSON:
    """A value that is present but empty (what Go's omitempty would leave out), or
    ABSENT when the member's own schema refuses it: the runtime judges unions, not what
    a member holds."""
    t = schema.get("type")
    if "enum" in schema:
        return "" if "" in schema["enum"] else ABSENT
    if t == "string":
        plain = not (schema.get("minLength") or schema.get("pattern") or schema.get("format"))
        return "" if plain else ABSENT
    if t in ("integer", "number"):
        fits = schema.get("minimum", 0) <= 0 <= schema.get("maximum", 0)
        return 0 if fits and not schema.get("exclusiveMinimum") else ABSENT
    if t == "boolean":
        return False
    if t == "array":
        return [] if not schema.get("minItems") else ABSENT
    return {} if not schema.get("required") else ABSENT


def member_schema(site: Site, field: str) -> Mapping[str, Any]:
    return (site.schema.get("properties") or {}).get(field) or {}


def discriminator_values(union: Union) -> list[JSON]:
    """The values the tests give a discriminator: the union's, its members', the empty
    string, one no union knows, and a number (another JSON type than a string's)."""
    out: list[JSON] = []
    for v in (*union.values, *(m.value for m in union.members), "", "Bogus", 1):
        if v not in out:
            out.append(v)
    return out


def member_choices(site: Site, field: str) -> list[JSON]:
    """What the property test gives a member: absent, a value, null, its empty value."""
    schema = member_schema(site, field)
    empty = zero(schema)
    return [ABSENT, minimal(schema), None] + ([] if empty is ABSENT else [empty])


def discriminator_choices(union: Union) -> list[JSON]:
    """What the property test gives a discriminator: absent, null, the exhaustive test's
    values, and each known value in lower case (an almost-right spelling)."""
    values = [ABSENT, None, *discriminator_values(union)]
    for v in union.values:
        if isinstance(v, str) and v.lower() not in values:
            values.append(v.lower())
    return values


def exhaustive(site: Site, table: Table) -> Iterator[tuple[str, dict[str, JSON]]]:
    """The overlays of the exhaustive test, with a label each: no member, each member,
    each pair, the discriminator with each value and each member set, a member null or
    empty (`""`, `0`, `{}`: alone, and with the value that selects it), a discriminator
    null."""
    u = site.union(table)
    val = {m.field: minimal(member_schema(site, m.field)) for m in u.members}
    fields = [m.field for m in u.members]
    seen: list[dict[str, JSON]] = []

    def once(label: str, overlay: dict[str, JSON]) -> Iterator[tuple[str, dict[str, JSON]]]:
        if overlay not in seen:
            seen.append(overlay)
            yield label, overlay

    empty = {m.field: zero(member_schema(site, m.field)) for m in u.members}
    yield from once("none", {})
    for f in fields:
        yield from once(f"{f}", {f: val[f]})
        yield from once(f"{f}=null", {f: None})
        if empty[f] is not ABSENT:
            yield from once(f"{f}={empty[f]!r}", {f: empty[f]})
    for i, f in enumerate(fields):
        for g in fields[i + 1 :]:
            yield from once(f"{f}+{g}", {f: val[f], g: val[g]})
    d = u.discriminator
    if d is None:
        return
    for v in [*discriminator_values(u), None]:
        yield from once(f"{d}={v!r}", {d: v})
        for f in fields:
            yield from once(f"{d}={v!r}+{f}", {d: v, f: val[f]})
            yield from once(f"{d}={v!r}+{f}=null", {d: v, f: None})
        for m in u.members:
            if m.value == v and empty[m.field] is not ABSENT:
                yield from once(
                    f"{d}={v!r}+{m.field}={empty[m.field]!r}", {d: v, m.field: empty[m.field]}
                )


# --- whole objects -----------------------------------------------------------------------


def _select(
    info: TypeInfo, node: dict[str, JSON], keep: str | None, schema: Mapping[str, Any]
) -> None:
    """Make the unions of `node` valid with field `keep` (the way down) set."""
    props = schema.get("properties") or {}
    for u in info.unions:
        member = u.member_for_field(keep) if keep else None
        if member is not None:
            for m in u.members:
                if m.field != keep:
                    node.pop(m.field, None)
            if u.discriminator:
                node[u.discriminator] = member.value
            continue
        if any(node.get(m.field) is not None for m in u.members):
            continue
        if u.discriminator:
            pick = next((m for m in u.members if m.value in u.values or not u.values), None)
            if pick is None:
                continue
            if u.discriminator in props and pick.field in props:
                node[u.discriminator] = pick.value
                node[pick.field] = minimal(props[pick.field])
        elif u.mode == "exactly-one" and u.members and u.members[0].field in props:
            node[u.members[0].field] = minimal(props[u.members[0].field])


def _repair(table: Table, info: TypeInfo, node: JSON, schema: Mapping[str, Any]) -> None:
    """Make every union of a minimal object valid (a required discriminator the schema
    filled in with its first value needs its member)."""
    if not isinstance(node, dict):
        return
    _select(info, node, None, schema)
    props = schema.get("properties") or {}
    for fname, f in info.fields.items():
        if f.type is None or fname not in node or fname not in props:
            continue
        sub = props[fname]
        if f.kind == "object":
            _repair(table, table.type(f.type), node[fname], sub)
        elif f.kind == "list" and isinstance(node[fname], list):
            for item in node[fname]:
                _repair(table, table.type(f.type), item, sub.get("items") or {})
        elif f.kind == "map" and isinstance(node[fname], dict):
            for item in node[fname].values():
                _repair(table, table.type(f.type), item, sub.get("additionalProperties") or {})


def build(table: Table, placed: list[tuple[Site, dict[str, JSON]]]) -> dict[str, JSON]:
    """One object of the sites' kind with each site's overlay at its place (all sites of
    one CRD version); list steps use the first item, map steps the key `k`."""
    first = placed[0][0]
    obj = minimal(first.root_schema)
    assert isinstance(obj, dict)
    if first.top is not None:
        obj.setdefault(first.top, minimal(first.top_schema))
    _repair(table, table.type(first.root_type), _top(first, obj), first.top_schema)
    obj["apiVersion"] = f"{first.crd.value['spec']['group']}/{first.version}"
    obj["kind"] = first.crd.kind
    obj["metadata"] = {"name": "o"}
    for site, overlay in placed:
        node: dict[str, JSON] = _top(site, obj)
        info = table.type(site.root_type)
        schema = site.top_schema
        for step in site.steps:
            _select(info, node, step.field, schema)
            fresh = minimal(step.schema)
            _repair(table, table.type(step.info), fresh, step.schema)
            if step.kind == "object":
                child = node.get(step.field)
                if not isinstance(child, dict):
                    child = node[step.field] = fresh
            elif step.kind == "list":
                items = node.get(step.field)
                if not isinstance(items, list) or not items:
                    items = node[step.field] = [fresh]
                child = items[0]
            else:
                values = node.get(step.field)
                if not isinstance(values, dict):
                    values = node[step.field] = {}
                child = values.setdefault("k", fresh)
            node, info, schema = child, table.type(step.info), step.schema
        union = info.unions[site.union_index]
        for f in (union.discriminator, *union.fields):
            if f is not None:
                node.pop(f, None)
        _select(info, node, None, schema)
        for f in (union.discriminator, *union.fields):
            if f is not None:
                node.pop(f, None)
        for k, v in overlay.items():
            if v is not ABSENT:
                node[k] = v
    return obj


def _top(site: Site, obj: dict[str, JSON]) -> dict[str, JSON]:
    return obj[site.top] if site.top is not None else obj  # type: ignore[no-any-return]


# --- verdicts ------------------------------------------------------------------------------


def runtime_errors(table: Table, site: Site, obj: JSON) -> list[FieldError]:
    """`markergen validate`'s verdict: the library function the command calls (on the
    spec, with `spec.` before the paths, when the table has no type for the kind)."""
    if site.top is None:
        return validate(table, site.root_type, obj)
    errors = validate(table, site.root_type, obj.get(site.top))
    return [replace(e, path=f"{site.top}.{e.path}" if e.path else site.top) for e in errors]


_SEGMENT = re.compile(r"\.?([^.\[\]]+)|\[([^\]]*)\]")


def server_path(path: str, obj: JSON) -> str:
    """A runtime error path as the API server writes it: list-map items `[name=x]` by
    their index."""
    out: list[str] = []
    node = obj
    for m in _SEGMENT.finditer(path):
        name, key = m.group(1), m.group(2)
        if name is not None:
            out.append(("." if out else "") + name)
            node = node.get(name) if isinstance(node, dict) else None
            continue
        if isinstance(node, list) and "=" in key:
            wanted = dict(part.split("=", 1) for part in key.split(","))
            index = next(
                (i for i, e in enumerate(node)
                 if isinstance(e, dict) and all(str(e.get(k)) == v for k, v in wanted.items())),
                None,
            )  # fmt: skip
            out.append(f"[{index}]")
            node = node[index] if index is not None else None
        elif isinstance(node, list):
            out.append(f"[{key}]")
            node = node[int(key)] if key.isdigit() and int(key) < len(node) else None
        else:
            out.append(f"[{key}]")
            node = node.get(key) if isinstance(node, dict) else None
    return "".join(out)


def site_path(site: Site) -> str:
    """The union's object as the server names it."""
    out = ""
    for s in site.steps:
        out += ("." if out else "") + s.field
        out += "[0]" if s.kind == "list" else "[k]" if s.kind == "map" else ""
    return out


# Unions where the CRD on the server enforces something else than the Go types' union
# markers, and the code markergen reports it with: the runtime follows the markers.
# "laxer": only objects the server accepts and the runtime rejects (a rule markergen
# withheld); "stricter": only objects the server rejects and the runtime accepts (a
# project's own rule); "stale": a CRD generated from other Go, differences either way.
KNOWN: dict[str, dict[str, tuple[str, str]]] = {
    # hand-written rules allow policy=Collect with no member: markergen writes no rule
    "fleetnet": {
        "Uplink/v1:spec.collector:Collector.policy": ("MG508", "laxer"),
        # the project's own test suite keeps mode=TLS without tls: rule withheld
        "Uplink/v1:spec.endpoint:Endpoint.mode": ("MG510", "laxer"),
        # the project's own rule on the discriminator (`self in ['S3', 'GCS']`) is its
        # enum; markergen reads no enum from a rule, and says nothing (no code)
        "Uplink/v1:spec.storage:Storage.type": ("", "stricter"),
    },
    # the CRD's default of `type` is Image, the Go's +kubebuilder:default is HTTP
    "enumcrd": {"Proxy/v1:spec.source:Source.type": ("MG521", "stale")},
    # the docs keep mode=Plain beside tls: the rule is withheld (MG510/MG511)
    "keptdocs": {"Tunnel/v1:spec:TunnelSpec.mode": ("MG511", "laxer")},
    # a 2019 member with a default (percentage): the sample sets httpStatus, the server
    # adds percentage, so the at-most-one rule would reject it and is withheld
    "defaulted": {"Injector/v1:spec.abort:Abort.-": ("MG510", "laxer")},
}


# Unions whose CRD leaves out a rule the project's own rules imply, so that the server
# names fewer fields than markergen (both rejecting): fleetnet's Provider has
# controller-gen's ExactlyOneOf, and `markergen crd` writes no "must be set when type is
# X" beside it (one member is set, and each other is forbidden): `type: AWS` with `gcp`
# set is rejected at gcp only, markergen names aws (required) and gcp.
IMPLIED: dict[str, set[str]] = {
    "fleetnet": {"Uplink/v1:spec.provider:Provider.type", "Uplink/v1:spec.provider:Provider.-"},
}


# --- judging -------------------------------------------------------------------------------

# The server's cause (no field) when an OpenAPI error (required, enum, type) kept it
# from evaluating the CEL rules (apiextensions-apiserver's hasBlockingErr).
_NOT_CHECKED = "some validation rules were not checked because the object was invalid"


@dataclass(frozen=True)
class Judged:
    site: str
    label: str
    obj: dict[str, Any]
    server: kubeserver.Verdict
    runtime: tuple[FieldError, ...]
    implied: bool = False  # the site is in IMPLIED

    def disagreement(self) -> str | None:
        """What differs between the two verdicts, or None when they agree: the verdict,
        a field the server names that markergen does not, or one markergen names that the
        server does not although it checked its rules (not for a site in IMPLIED)."""
        if self.server.accepted != (not self.runtime):
            return "verdict"
        if self.server.accepted:
            return None
        runtime_paths = {server_path(e.path, self.obj) for e in self.runtime}
        named = {c.field for c in self.server.causes if _NOT_CHECKED not in c.message}
        unnamed = {f for f in named if not any(_names(f, r) for r in runtime_paths)}
        if unnamed:
            return f"fields the server names and markergen does not: {sorted(unnamed)}"
        more = self.more()
        if more and not self.blocked() and not self.implied:
            return f"fields markergen names and the server does not: {sorted(more)}"
        return None

    def blocked(self) -> bool:
        """Whether an OpenAPI error kept the server from checking the CEL rules."""
        return any(_NOT_CHECKED in c.message for c in self.server.causes)

    def more(self) -> set[str]:
        """The fields markergen names beyond the server's (both rejecting)."""
        if self.server.accepted or not self.runtime:
            return set()
        named = {c.field for c in self.server.causes if _NOT_CHECKED not in c.message}
        paths = {server_path(e.path, self.obj) for e in self.runtime}
        return {r for r in paths if not any(_names(f, r) for f in named)}

    def describe(self) -> str:
        return (
            f"{self.site} [{self.label}] {self.disagreement()}\n"
            f"  object: {json.dumps(_body(self.obj), sort_keys=True)}\n"
            f"  server: {'accepted' if self.server.accepted else self.server.message}\n"
            f"  markergen: {[str(e) for e in self.runtime] or 'accepted'}"
        )


def _body(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k not in ("apiVersion", "kind", "metadata")}


def _dotted(path: str) -> str:
    """A map value's key as `.key`: the server's OpenAPI errors write `spec.m.k.f`, its
    CEL errors `spec.m[k].f`, markergen `spec.m[k].f`; list indexes stay `[0]`."""
    return re.sub(r"\[([^\]\d][^\]]*)\]", r".\1", path)


def _names(server_field: str, runtime_path: str) -> bool:
    """Whether the server's cause field names markergen's error path: the same field, or
    the union's object when the server's rule has no fieldPath."""
    server_field, runtime_path = _dotted(server_field), _dotted(runtime_path)
    if server_field == runtime_path:
        return True
    parent = runtime_path.rsplit(".", 1)[0] if "." in runtime_path else ""
    return server_field == parent


def judge(
    project: Project, handle: kubeserver.Installed, site: Site,
    label: str, overlay: dict[str, Any],
) -> Judged:  # fmt: skip
    obj = build(project.table, [(site, overlay)])
    verdict = handle.dry_run(obj)
    errors = runtime_errors(project.table, site, obj)
    where = site.label(project.table)
    implied = where in IMPLIED.get(project.name, set())
    return Judged(where, label, obj, verdict, tuple(errors), implied)


class Prepared:
    """The fixture projects patched and their CRDs installed, each once, when first used."""

    def __init__(self, kube: kubeserver.Server, dest: Path) -> None:
        self._kube = kube
        self._dest = dest
        self._projects: dict[str, Project] = {}
        self.handles: dict[int, kubeserver.Installed] = {}

    def __getitem__(self, name: str) -> Project:
        if name not in self._projects:
            project = prepare(name, self._dest)
            for crd in project.crds:
                self.handles[id(crd)] = self._kube.install(crd.value)
            self._projects[name] = project
        return self._projects[name]

    def delete(self) -> None:
        for handle in self.handles.values():
            handle.delete()
