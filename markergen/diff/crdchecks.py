"""The CRD checks of `markergen diff`: every check crdify (kubernetes-sigs/crdify) makes,
declared once each in `CHECKS`, with the same meaning, plus the object that shows it.

A check compares two CRDs (scope, a stored version removed, an existing field removed)
or one schema node of two sides (`enum`, `default`, `maximum` ... `type`,
`description`): within a version (base and head of the same version) and across the
served versions of the head (an older served version against a newer one, only what the
base's served versions did not already differ in). A check *flags* a change that can
break a client; a flagged change is `breaking`, with a witness object when the server
rejects something the base accepted (the object the report shows), and without one when
no object is rejected but its meaning changes (a default changed, a value added to an
enum under `enum-addition: disallow`). What a check does not flag is `compatible`.

Each check has a level (the `crd-checks` setting): `error` (the default: a flagged change
counts for `--fail-on`), `warning` (reported, never fails the run) or `off` (not
reported). The options (`crd-check-options`) are those of crdify plus markergen's own:
see `OPTIONS`.

Where the union reading of `markergen.diff.crdclassify` reports a change of the same
cause (a union added over existing fields through `minProperties`/`maxProperties`, a
member added with its discriminator's value, an enum or a default it already compares),
the report keeps one entry: `merge` folds a check's finding into that entry.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from markergen.accept.judge import sample_value
from markergen.diff.classify import Change, ChangeClass
from markergen.diff.crdsource import CrdSet, CrdVersion
from markergen.diff.crdsurface import shown_path
from markergen.diff.surface import version_stage
from markergen.yamlio import PathKey

Level = Literal["error", "warning", "off"]
LEVELS: tuple[Level, ...] = ("error", "warning", "off")


@dataclass(frozen=True, slots=True)
class Option:
    """One option of the CRD checks (a key of `crd-check-options`)."""

    key: str
    values: tuple[str, ...]
    default: str
    help: str


OPTIONS: tuple[Option, ...] = (
    Option(
        "enum-addition",
        ("allow", "disallow"),
        "allow",
        "A value added to an existing enum: allow (compatible: nothing accepted before is "
        "rejected) or disallow (breaking: clients that switch over every value meet one "
        "they do not know).",
    ),
    Option(
        "required-with-default",
        ("compatible", "breaking"),
        "compatible",
        "A field that becomes required and has a default: compatible (the server fills "
        "the default in before it validates, so objects that leave it out are still "
        "accepted) or breaking (as crdify, which does not look at the default).",
    ),
    Option(
        "pattern-removal",
        ("allow", "disallow"),
        "allow",
        "A pattern removed: allow (compatible: every value is accepted) or disallow.",
    ),
    Option(
        "nullable-addition",
        ("allow", "disallow"),
        "allow",
        "A property made nullable: allow (compatible for writers) or disallow (breaking: "
        "readers now meet null where the server used to drop it).",
    ),
    Option(
        "nullable-removal",
        ("allow", "disallow"),
        "disallow",
        "A property no longer nullable: disallow (breaking: a null the client sends is "
        "dropped and the default, if any, stored instead) or allow.",
    ),
)


@dataclass(frozen=True, slots=True)
class CrdChecks:
    """The level of every check and the options, as the settings give them."""

    levels: Mapping[str, Level]
    options: Mapping[str, str]

    def level(self, check: str) -> Level:
        return self.levels.get(check, self.levels.get("*", _BY_NAME[check].level))

    def option(self, key: str) -> str:
        return self.options.get(key, next(o.default for o in OPTIONS if o.key == key))

    def disallows(self, key: str) -> tuple[bool, str]:
        """Whether the option `key` is `disallow`, and the note a finding then ends with."""
        flagged = self.option(key) == "disallow"
        return flagged, f" ({key}: disallow)" if flagged else ""


class CrdChecksError(ValueError):
    """A `crd-checks` or `crd-check-options` value names no check or option."""


def crd_checks(levels: Mapping[str, str], options: Mapping[str, str]) -> CrdChecks:
    """The checks' settings from `crd-checks` and `crd-check-options`, checked."""
    names = {c.name for c in CHECKS}
    for name, level in levels.items():
        if name != "*" and name not in names:
            raise CrdChecksError(
                f"crd-checks: unknown check {name!r}; known: *, {', '.join(sorted(names))}"
            )
        if level not in LEVELS:
            raise CrdChecksError(f"crd-checks: {name}: {level!r} is not one of {LEVELS}")
    known = {o.key: o for o in OPTIONS}
    for key, value in options.items():
        if key not in known:
            raise CrdChecksError(
                f"crd-check-options: unknown option {key!r}; known: {', '.join(sorted(known))}"
            )
        if value not in known[key].values:
            raise CrdChecksError(
                f"crd-check-options: {key} must be one of {', '.join(known[key].values)}, "
                f"not {value!r}"
            )
    return CrdChecks(
        {k: v for k, v in levels.items() if v in LEVELS},
        dict(options),
    )


DEFAULTS = CrdChecks({}, {})


# -- findings --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finding:
    """What a check says about one place: flagged (breaking) or not (compatible)."""

    check: str
    kind: str
    flagged: bool
    message: str
    witness: object = None  # the value at the checked node the base accepts, head rejects
    # Set for a finding about a node's list of required properties: the property named,
    # the witness is then the whole object at the node.
    field: str | None = None


@dataclass(frozen=True, slots=True)
class Pair:
    """One schema node on both sides (without its children)."""

    path: PathKey
    base: Mapping[str, Any]
    head: Mapping[str, Any]


PropertyCheck = Callable[[Pair, CrdChecks], Iterable[Finding]]
CrdCheck = Callable[[Mapping[str, Any], Mapping[str, Any], CrdChecks], Iterable[Finding]]


@dataclass(frozen=True, slots=True)
class Check:
    """One check: its crdify name, its default level and what it compares."""

    name: str
    level: Level
    summary: str
    prop: PropertyCheck | None = None  # per schema node
    whole: CrdCheck | None = None  # per CRD (scope)


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True)


# -- witnesses -------------------------------------------------------------------------


def _accepts(node: Mapping[str, Any], value: object) -> bool:
    """Whether `value` passes the scalar constraints of `node` markergen reads here
    (type, enum, bounds, lengths, pattern, counts); the server's verdict on the witness is
    what the tests check."""
    if value is None:
        return node.get("nullable") is True
    t = node.get("type")
    if t == "string" and not isinstance(value, str):
        return False
    if t == "integer" and (not isinstance(value, int) or isinstance(value, bool)):
        return False
    if t == "number" and (not isinstance(value, (int, float)) or isinstance(value, bool)):
        return False
    if t == "array" and not isinstance(value, list):
        return False
    if t == "object" and not isinstance(value, dict):
        return False
    enum = node.get("enum")
    if isinstance(enum, list) and value not in enum:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        lo, hi = node.get("minimum"), node.get("maximum")
        if isinstance(lo, (int, float)) and (
            value < lo or (node.get("exclusiveMinimum") is True and value == lo)
        ):
            return False
        if isinstance(hi, (int, float)) and (
            value > hi or (node.get("exclusiveMaximum") is True and value == hi)
        ):
            return False
    sized = {str: "Length", list: "Items", dict: "Properties"}
    for kind, suffix in sized.items():
        if isinstance(value, kind):
            lo, hi = node.get(f"min{suffix}"), node.get(f"max{suffix}")
            n = len(value)
            if (isinstance(lo, int) and n < lo) or (isinstance(hi, int) and n > hi):
                return False
    pattern = node.get("pattern")
    if isinstance(value, str) and isinstance(pattern, str):
        try:
            if re.search(pattern, value) is None:
                return False
        except re.error:
            return False
    return True


def _first(
    base: Mapping[str, Any], head: Mapping[str, Any], candidates: Iterable[object]
) -> object:
    """The first candidate the base accepts and the head rejects (None: none)."""
    for c in candidates:
        if _accepts(base, c) and not _accepts(head, c):
            return c
    return None


def _strings(node: Mapping[str, Any], lengths: Iterable[int]) -> Iterator[str]:
    enum = node.get("enum")
    if isinstance(enum, list):
        yield from (v for v in enum if isinstance(v, str))
    for n in lengths:
        if n >= 0:
            yield from ("a" * n, "x" * n, "0" * n, "A" * n)
    yield from ("", "x", "a-b", "A", "0", "a.b", "a/b", "a b", "-", "_")


def _items(node: Mapping[str, Any], n: int) -> list[Any]:
    """`n` distinct items the node's item schema accepts (for list-type set or map)."""
    items = node.get("items")
    t = items.get("type") if isinstance(items, dict) else None
    if t == "string":
        return [f"v{i}" for i in range(n)]
    if t == "integer":
        return list(range(1, n + 1))
    if node.get("x-kubernetes-list-type") in ("set", "map"):
        return []  # distinct objects need keys markergen does not make up here
    return [sample_value(items) for _ in range(n)]


# -- property checks -------------------------------------------------------------------


def _enum(pair: Pair, cfg: CrdChecks) -> Iterator[Finding]:
    b, h = pair.base.get("enum"), pair.head.get("enum")
    be = {_json(v): v for v in b} if isinstance(b, list) else {}
    he = {_json(v): v for v in h} if isinstance(h, list) else {}
    if not be and he:
        outside = _first(pair.base, pair.head, [*_strings(pair.base, (1,)), 1, 2, 0])
        yield Finding(
            "enum",
            "enum-added",
            True,
            f"an enum is set where there was none: only {', '.join(sorted(he))} are accepted",
            outside,
        )
        return
    gone = sorted(set(be) - set(he))
    new = sorted(set(he) - set(be))
    if gone and he:
        yield Finding(
            "enum",
            "enum-value-removed",
            True,
            f"enum value(s) {', '.join(gone)} removed: objects that use them are rejected",
            be[gone[0]],
        )
    if new and be:
        disallow, note = cfg.disallows("enum-addition")
        added = f"enum value(s) {', '.join(new)} added"
        why = ": clients that handle every value meet one they do not know" if disallow else ""
        yield Finding("enum", "enum-value-added", disallow, added + why + note)
    if be and not he:
        yield Finding("enum", "enum-removed", False, "the enum is gone: any value is accepted")


_NONE = object()


def _default(pair: Pair, cfg: CrdChecks) -> Iterator[Finding]:
    b, h = pair.base.get("default", _NONE), pair.head.get("default", _NONE)
    if b == h:
        return
    if b is _NONE:
        # Kept as markergen reads it: the server accepts every object it accepted, and
        # an object that left the field out reads as the default now (docs/diff.md).
        yield Finding("default", "default-added", False, f"default {_json(h)} added")
    elif h is _NONE:
        yield Finding("default", "default-removed", True, f"default {_json(b)} removed")
    else:
        yield Finding(
            "default", "default-changed", True, f"default {_json(b)} changed to {_json(h)}"
        )


def _bound(key: str, upper: bool) -> PropertyCheck:
    """maximum/maxLength/maxItems/maxProperties (upper) and their min forms."""
    word = "maximum" if upper else "minimum"
    side = "above" if upper else "below"

    def check(pair: Pair, cfg: CrdChecks) -> Iterator[Finding]:
        b, h = pair.base.get(key), pair.head.get(key)
        if b == h or (h is None and b is None):
            return
        if h is None:
            yield Finding(key, f"{key}-removed", False, f"{key} {b} removed")
            return
        tighter = b is None or (h < b if upper else h > b)
        if not tighter:
            yield Finding(key, f"{key}-loosened", False, f"{key} {b} changed to {h}")
            return
        what = f"{key} {h} added" if b is None else f"{key} {b} changed to {h}"
        yield Finding(
            key,
            f"{key}-added" if b is None else f"{key}-tightened",
            True,
            f"{what}: values {side} the new {word} are rejected",
            _bound_witness(pair, key, h, upper),
        )

    return check


def _bound_witness(pair: Pair, key: str, h: float, upper: bool) -> object:
    step = 1 if upper else -1
    if key in ("maximum", "minimum"):
        nums: list[object] = [h + step] if isinstance(h, int) else [math.floor(h) + step]
        if pair.base.get("type") == "number":
            nums.append(h + step * 0.5)
        return _first(pair.base, pair.head, nums)
    n = int(h) + step
    if n < 0:
        return None
    if key.endswith("Length"):
        return _first(pair.base, pair.head, _strings(pair.base, (n,)))
    if key.endswith("Items"):
        items = _items(pair.base, n)
        return _first(pair.base, pair.head, [items] if len(items) == n else [])
    additional = pair.base.get("additionalProperties")
    if isinstance(additional, dict):
        value = {f"k{i}": sample_value(additional) for i in range(n)}
        return _first(pair.base, pair.head, [value])
    props = pair.base.get("properties")
    if isinstance(props, dict) and len(props) >= n:
        required = [p for p in pair.base.get("required") or [] if p in props]
        names = (required + sorted(p for p in props if p not in required))[:n]
        return _first(pair.base, pair.head, [{p: sample_value(props[p]) for p in names}])
    return None


def _nullable(pair: Pair, cfg: CrdChecks) -> Iterator[Finding]:
    b, h = pair.base.get("nullable") is True, pair.head.get("nullable") is True
    if b == h:
        return
    if h:
        flagged, note = cfg.disallows("nullable-addition")
        yield Finding(
            "nullable",
            "nullable-added",
            flagged,
            "the property is nullable now: null is stored instead of dropped" + note,
        )
    else:
        flagged = cfg.option("nullable-removal") == "disallow"
        # The server drops a null of a property that is not nullable (pruning, before
        # defaulting): the object is accepted and stored without what the client sent.
        yield Finding(
            "nullable",
            "nullable-removed",
            flagged,
            "the property is no longer nullable: a null the client sends is dropped",
            None if not flagged else _NULL,
        )


# A witness that is JSON null (None means "no witness").
_NULL = "<null>"


def _pattern(pair: Pair, cfg: CrdChecks) -> Iterator[Finding]:
    b, h = pair.base.get("pattern"), pair.head.get("pattern")
    if b == h:
        return
    if h is None:
        flagged, note = cfg.disallows("pattern-removal")
        yield Finding("pattern", "pattern-removed", flagged, f"pattern {_json(b)} removed{note}")
        return
    lengths = [pair.base.get("minLength", 1), pair.base.get("maxLength", 1), 1, 3]
    witness = _first(pair.base, pair.head, _strings(pair.base, [int(n) for n in lengths]))
    what = f"pattern {_json(h)} added" if b is None else f"pattern {_json(b)} changed to {_json(h)}"
    yield Finding(
        "pattern",
        "pattern-added" if b is None else "pattern-changed",
        True,
        what
        + (
            ": values it does not match are rejected"
            if witness is not None
            else ": markergen found no value the base accepts that the new pattern rejects, "
            "and does not compare regular expressions"
        ),
        witness,
    )


def _required(pair: Pair, cfg: CrdChecks) -> Iterator[Finding]:
    b, h = pair.base.get("required") or [], pair.head.get("required") or []
    new = [f for f in h if f not in b]
    gone = [f for f in b if f not in h]
    props = pair.head.get("properties") or {}
    base_props = pair.base.get("properties") or {}
    defaulted_ok = cfg.option("required-with-default") == "compatible"
    for name in new:
        sub = props.get(name)
        has_default = isinstance(sub, dict) and "default" in sub
        if has_default:
            # The server fills the default in before it validates: nothing is rejected.
            yield Finding(
                "required",
                "required-added",
                not defaulted_ok,
                f"{name!r} is required now and has a default: the server fills it in"
                + ("" if defaulted_ok else " (required-with-default: breaking)"),
                field=name,
            )
            continue
        witness = {
            f: sample_value(base_props.get(f)) for f in sorted(b) if f in base_props and f != name
        }
        yield Finding(
            "required",
            "required-added",
            True,
            f"{name!r} is required now: objects that leave it out are rejected",
            witness,
            field=name,
        )
    for name in gone:
        yield Finding(
            "required", "required-removed", False, f"{name!r} is no longer required", field=name
        )


def _type(pair: Pair, cfg: CrdChecks) -> Iterator[Finding]:
    b, h = pair.base.get("type"), pair.head.get("type")
    if b == h:
        return
    witness = sample_value(dict(pair.base, **{"default": None}))
    yield Finding(
        "type",
        "type-changed",
        True,
        f"type {_json(b)} changed to {_json(h)}: values of the old type are rejected",
        witness if _accepts(pair.base, witness) and not _accepts(pair.head, witness) else None,
    )


def _description(pair: Pair, cfg: CrdChecks) -> Iterator[Finding]:
    if pair.base.get("description") != pair.head.get("description"):
        # No object changes verdict; a reviewer may still read a new meaning in it.
        yield Finding(
            "description",
            "description-changed",
            True,
            "the description changed: check that the field's meaning did not",
        )


# -- whole-CRD checks ------------------------------------------------------------------


def _scope(base: Mapping[str, Any], head: Mapping[str, Any], cfg: CrdChecks) -> Iterator[Finding]:
    b, h = _spec(base).get("scope", "Namespaced"), _spec(head).get("scope", "Namespaced")
    if b != h:
        yield Finding(
            "scope",
            "scope-changed",
            True,
            f"scope {b} changed to {h}: every client's request path changes and objects "
            "stored under the old scope are not served",
        )


def _stored(base: Mapping[str, Any], version: str) -> bool:
    """Whether the base CRD lists `version` in status.storedVersions."""
    status = base.get("status")
    stored = status.get("storedVersions") if isinstance(status, dict) else None
    return isinstance(stored, list) and version in stored


# what the API server does to the CRD update that drops a stored version
_STORED = (
    "it is in the base's status.storedVersions: the API server refuses the update until "
    "its objects are migrated and status.storedVersions no longer lists it"
)


def _spec(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    spec = doc.get("spec")
    return spec if isinstance(spec, dict) else {}


CHECKS: tuple[Check, ...] = (
    Check("scope", "error", "the CRD's scope (Namespaced, Cluster) changed", whole=_scope),
    Check(
        "existingFieldRemoval",
        "error",
        "a property of a version that is still there is removed",
    ),
    Check(
        "storedVersionRemoval",
        "error",
        "a version listed in the base's status.storedVersions is not in the head",
    ),
    Check("enum", "error", "an enum added, a value removed, a value added", _enum),
    Check("default", "error", "a default added, removed or changed", _default),
    Check("maximum", "error", "a maximum added or lowered", _bound("maximum", True)),
    Check("maxLength", "error", "a maxLength added or lowered", _bound("maxLength", True)),
    Check("maxItems", "error", "a maxItems added or lowered", _bound("maxItems", True)),
    Check(
        "maxProperties", "error", "a maxProperties added or lowered", _bound("maxProperties", True)
    ),
    Check("minimum", "error", "a minimum added or raised", _bound("minimum", False)),
    Check("minLength", "error", "a minLength added or raised", _bound("minLength", False)),
    Check("minItems", "error", "a minItems added or raised", _bound("minItems", False)),
    Check(
        "minProperties", "error", "a minProperties added or raised", _bound("minProperties", False)
    ),
    Check("nullable", "error", "nullable added or removed", _nullable),
    Check("pattern", "error", "a pattern added, changed or removed", _pattern),
    Check("required", "error", "a property became required", _required),
    Check("type", "error", "a property's type changed", _type),
    # Off by default: no description change alters what the server accepts (crdify
    # reports every one as an error; `crd-checks: {description: error}` does the same).
    Check("description", "off", "a description changed", _description),
)
_BY_NAME = {c.name: c for c in CHECKS}


# -- walking the schemas ---------------------------------------------------------------

_CHILD_ONE = ("items", "additionalProperties", "not")
_CHILD_LISTS = ("allOf", "anyOf", "oneOf")


def flatten(schema: Any, path: PathKey = ()) -> Iterator[tuple[PathKey, Mapping[str, Any]]]:
    """Every schema node by its path (below openAPIV3Schema), in document order."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    props = schema.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            yield from flatten(sub, (*path, "properties", str(name)))
    for key in _CHILD_ONE:
        yield from flatten(schema.get(key), (*path, key))
    for key in _CHILD_LISTS:
        seq = schema.get(key)
        if isinstance(seq, list):
            for i, sub in enumerate(seq):
                yield from flatten(sub, (*path, key, i))


def _pairs(base: Any, head: Any) -> Iterator[Pair]:
    hnodes = dict(flatten(head))
    for path, b in flatten(base):
        h = hnodes.get(path)
        if h is not None:
            yield Pair(path, b, h)


def _where(path: PathKey) -> tuple[str, str | None]:
    """The shown node and the property a finding at schema path `path` is about."""
    if len(path) >= 2 and path[-2] == "properties":
        return shown_path(path[:-2]), str(path[-1])
    return shown_path(path), None


def _removed(base: Any, head: Any) -> Iterator[tuple[PathKey, str]]:
    """The topmost properties of the base that the head no longer has."""
    hpaths = {p for p, _ in flatten(head)}
    gone: list[PathKey] = []
    for path, _ in flatten(base):
        removed = len(path) >= 2 and path[-2] == "properties" and path not in hpaths
        if removed and not any(path[: len(g)] == g for g in gone):
            gone.append(path)
            yield path[:-2], str(path[-1])


def _served(crd: Iterable[CrdVersion]) -> list[CrdVersion]:
    return sorted((v for v in crd if v.served), key=lambda v: _kube_order(v.version))


_KUBE = re.compile(r"^v(\d+)(?:(alpha|beta)(\d+))?$")


def _kube_order(name: str) -> tuple[int, int, int, str]:
    """Kubernetes' version order, oldest first: v1alpha1 < v1beta1 < v1 < v2alpha1 < v2;
    names outside it sort before, by name."""
    m = _KUBE.match(name)
    if m is None:
        return (-1, 0, 0, name)
    stage = {"alpha": 0, "beta": 1, None: 2}[m.group(2)]
    return (int(m.group(1)), stage, int(m.group(3) or 0), name)


# -- the comparison --------------------------------------------------------------------


def _witness(finding: Finding, field: str | None, parent: Any) -> str | None:
    """The witness as the part of an object at the reported node: a property's value
    with the node's other required properties set to sample values."""
    if finding.witness is None:
        return None
    value = None if finding.witness == _NULL else finding.witness
    if field is None or finding.field is not None:
        return _json(value)
    out: dict[str, Any] = {}
    if isinstance(parent, dict):
        props = parent.get("properties") or {}
        for name in parent.get("required") or []:
            if name != field and name in props:
                out[name] = sample_value(props[name])
    out[field] = value
    return _json(out)


def _change(
    cls: ChangeClass,
    finding: Finding,
    v: CrdVersion,
    node: str,
    field: str | None,
    line: int,
    message: str,
    *,
    base: bool = False,
    level: Level = "error",
    parent: Any = None,
) -> Change:
    subject = v.kind + (f".{node}" if node and node != "(root)" else "")
    witness = _witness(finding, field, parent) if cls == "breaking" else None
    if level == "warning" and cls == "breaking":
        message += f" (a warning: crd-checks {finding.check}: warning)"
    return Change(
        cls,
        finding.kind,
        subject,
        field,
        message,
        package=f"{v.group}/{v.version}",
        stage=version_stage(v.version),
        crd=v.name,
        crd_kind=v.kind,
        crd_version=v.version,
        crd_path=node,
        crd_file=v.file,
        crd_line=line,
        crd_base=base,
        crd_witness=witness,
        crd_check=finding.check,
        crd_warning=level == "warning" and cls == "breaking",
    )


class _Run:
    def __init__(self, cfg: CrdChecks) -> None:
        self.cfg = cfg
        self.out: list[Change] = []

    def add(
        self,
        f: Finding,
        v: CrdVersion,
        path: PathKey,
        message: str,
        *,
        base: bool = False,
        old: Any = None,
    ) -> None:
        """`old`: the schema the witness must satisfy (the base's version, or the older
        served version)."""
        level = self.cfg.level(f.check)
        if level == "off":
            return
        field: str | None
        if f.field is not None:
            node, field = shown_path(path), f.field
            parent = None
        else:
            node, field = _where(path)
            parent = _node(old, path[:-2]) if field is not None else None
        cls: ChangeClass = "breaking" if f.flagged else "compatible"
        line = v.line_of(path)
        self.out.append(
            _change(cls, f, v, node, field, line, message, base=base, level=level, parent=parent)
        )

    def crds(self, base: CrdSet, head: CrdSet) -> list[Change]:
        docs: dict[str, tuple[CrdVersion, CrdVersion]] = {}
        for key in sorted(set(base.versions) & set(head.versions)):
            b, h = base.versions[key], head.versions[key]
            docs.setdefault(b.name, (b, h))
            self.version(b, h)
        # A version gone from the head is `version-removed` (crdclassify); a stored one
        # is flagged at it too (`merge` makes them one entry). The whole-CRD checks need
        # one version on each side, any will do for the documents.
        for key in sorted(set(base.versions) - set(head.versions)):
            b = base.versions[key]
            h2 = next((h for h in head.versions.values() if h.name == b.name), None)
            if h2 is not None:
                docs.setdefault(b.name, (b, h2))
                if _stored(b.document.value, b.version):
                    f = Finding("storedVersionRemoval", "stored-version-removed", True, _STORED)
                    self.add(f, b, (), f"stored version {b.version} is gone: {_STORED}", base=True)
        for name in sorted(docs):
            b, h = docs[name]
            for c in CHECKS:
                if c.whole is not None:
                    for f in c.whole(b.document.value, h.document.value, self.cfg):
                        self.add(f, h, (), f.message)
            self.served(
                [v for v in base.versions.values() if v.name == name],
                [v for v in head.versions.values() if v.name == name],
            )
        return self.out

    def version(self, b: CrdVersion, h: CrdVersion) -> None:
        if self.cfg.level("existingFieldRemoval") != "off":
            for parent, name in _removed(b.schema, h.schema):
                path = (*parent, "properties", name)
                witness = sample_value(_node(b.schema, path))
                f = Finding(
                    "existingFieldRemoval",
                    "field-removed",
                    True,
                    "",
                    _NULL if witness is None else witness,
                )
                self.add(
                    f,
                    b,
                    path,
                    f"property {name!r} is gone: clients that set it are refused under strict "
                    "field validation (kubectl's default) and lose it otherwise",
                    base=True,
                    old=b.schema,
                )
        for pair in _pairs(b.schema, h.schema):
            found = [f for c in CHECKS if c.prop is not None for f in c.prop(pair, self.cfg)]
            for f in _exactly_one(pair, found):
                self.add(f, h, pair.path, f.message, old=b.schema)

    def served(self, bvs: Sequence[CrdVersion], hvs: Sequence[CrdVersion]) -> None:
        """Findings between served versions of the head that the base did not have
        between the same versions: an object written in the older version that the
        newer one rejects fails its conversion round trip."""
        # By kind and property, not by text (crdify compares its messages, which list
        # fields in random order): the base already had this difference between the two
        # versions, and a change of its values within a version is reported by the
        # within-version comparison.
        known = set(self._across(bvs))
        for older, newer, path, f in self._across_full(hvs):
            if (older.version, newer.version, path, f.kind, f.field) in known:
                continue
            finding = replace(f, kind=f"served-{f.kind}")
            self.add(
                finding,
                newer,
                path,
                f"between served versions {older.version} and {newer.version}: {f.message}",
                old=older.schema,
            )

    def _across(
        self, vs: Sequence[CrdVersion]
    ) -> Iterator[tuple[str, str, PathKey, str, str | None]]:
        for older, newer, path, f in self._across_full(vs):
            yield (older.version, newer.version, path, f.kind, f.field)

    def _across_full(
        self, vs: Sequence[CrdVersion]
    ) -> Iterator[tuple[CrdVersion, CrdVersion, PathKey, Finding]]:
        served = _served(vs)
        for i, older in enumerate(served):
            for newer in served[i + 1 :]:
                for pair in _pairs(older.schema, newer.schema):
                    for c in CHECKS:
                        if c.prop is not None and c.name != "description":
                            for f in c.prop(pair, self.cfg):
                                if f.flagged:
                                    yield older, newer, pair.path, f


def _exactly_one(pair: Pair, found: list[Finding]) -> list[Finding]:
    """minProperties 1 and maxProperties 1 set together over existing properties: an
    exactly-one union added, one entry (the union reading's kind), its witness an object
    that sets two of them."""
    kinds = {f.kind: f for f in found}
    if pair.head.get("minProperties") != 1 or pair.head.get("maxProperties") != 1:
        return found
    most = next((f for k, f in kinds.items() if k.startswith("maxProperties-")), None)
    least = next((f for k, f in kinds.items() if k.startswith("minProperties-")), None)
    if most is None or least is None or not most.flagged:
        return found
    props = sorted((pair.head.get("properties") or {}).keys())
    union = Finding(
        "maxProperties",
        "union-added",
        True,
        f"minProperties 1 and maxProperties 1: exactly one of {', '.join(props)} must be "
        "set now (an exactly-one union over existing fields)",
        most.witness,
    )
    return [union if f is most else f for f in found if f is not least]


def _node(schema: Any, path: PathKey) -> Any:
    node = schema
    for step in path:
        if isinstance(node, dict):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
        else:
            return None
    return node


def check_crds(base: CrdSet, head: CrdSet, cfg: CrdChecks = DEFAULTS) -> list[Change]:
    """Every check's findings between two sides of CRDs, unsorted."""
    return _Run(cfg).crds(base, head)


# -- one entry per cause ---------------------------------------------------------------

# crdclassify's kinds that compare the same thing as a check at the same property.
_SAME = {
    "enum": ("enum-added", "enum-value-removed", "enum-value-added", "enum-removed"),
    "default": ("default-added", "default-removed", "default-changed"),
}
_UNION_KINDS = (
    "union-added",
    "union-removed",
    "member-added",
    "member-removed",
    "member-changed",
    "union-stricter",
    "union-looser",
)


def merge(
    union: Sequence[Change], checks: Sequence[Change], cfg: CrdChecks = DEFAULTS
) -> list[Change]:
    """crdclassify's changes and the checks' findings, one entry per cause: a finding of
    the same kind about the same property as a change of crdclassify is folded into it
    (the class is the stricter of the two, the level the check's), and a finding at a
    node where the union reading reports a change over the same field is left out."""
    out = list(union)
    by_place = {(*_property(c), c.kind): i for i, c in enumerate(out)}
    removed = {(c.crd, c.crd_version): i for i, c in enumerate(out) if c.kind == "version-removed"}
    unions = [c for c in union if c.kind in _UNION_KINDS]
    for f in checks:
        i = by_place.get((*_property(f), f.kind))
        gone = removed.get((f.crd, f.crd_version))
        if f.kind == "stored-version-removed" and gone is not None:
            out[gone] = _stored_removed(out[gone], f)
        elif i is not None and f.crd_check in _SAME:
            out[i] = _fold(out[i], f, cfg)
        elif not _union_covers(unions, f):
            out.append(f)
    # A discriminator's value added or removed with its member is the member's change:
    # the union's entry says it, with the stricter class of the two.
    return [c for c in out if not (c.kind in _MEMBER_ENUM and _union_covers(unions, c))]


_MEMBER_ENUM = ("enum-value-added", "enum-value-removed")


def _property(c: Change) -> tuple[str, str, str, str | None]:
    """The property a change is about: a list's or a map's values count as the list's
    (crdclassify reports an enum of the items at the list property)."""
    path, field = c.crd_path, c.field
    if field is None and path.endswith(("[*]", "{*}")):
        inner = path[:-3]
        parent, _, name = inner.rpartition(".")
        path, field = parent or "(root)", name
    return (c.crd, c.crd_version, path, field)


def _fold(c: Change, f: Change, cfg: CrdChecks) -> Change:
    level = cfg.level(f.crd_check)
    if level == "off":
        return replace(c, crd_check=f.crd_check)
    breaking = "breaking" in (c.classification, f.classification)
    cls: ChangeClass = "breaking" if breaking else c.classification
    message = f.message if cls != c.classification else c.message
    warning = cls == "breaking" and level == "warning"
    if warning and not message.endswith(": warning)"):
        message += f" (a warning: crd-checks {f.crd_check}: warning)"
    return replace(
        c, classification=cls, message=message, crd_check=f.crd_check, crd_warning=warning
    )


def _stored_removed(removed: Change, f: Change) -> Change:
    """A stored version removed is one entry with the version's removal: the check's
    stricter kind (the server refuses the update), always breaking, at the version's
    place in the base, with the removal's witness (an object of a served version). A
    `warning` level lowers it only where the removal alone is not breaking (a version
    that was not served)."""
    warning = f.crd_warning and not removed.breaking
    note = f" (a warning: crd-checks {f.crd_check}: warning)" if warning else ""
    return replace(
        removed,
        classification="breaking",
        kind=f.kind,
        message=f"{removed.message}; {_STORED}{note}",
        crd_check=f.crd_check,
        crd_warning=warning,
    )


def _union_covers(unions: Sequence[Change], f: Change) -> bool:
    """Whether a union change reports the cause of `f`: minProperties/maxProperties at the
    union's node (an exactly-one union), the node removed with its union, or an enum or a
    `required` of a field the union's rules read."""
    removed_node = _join(f.crd_path, f.field) if f.kind == "field-removed" else None
    for u in unions:
        if (u.crd, u.crd_version) != (f.crd, f.crd_version):
            continue
        if f.breaking and not u.breaking:
            continue  # the union's entry would lower the class
        if removed_node is not None and u.crd_path == removed_node:
            return True
        if f.crd_check in ("minProperties", "maxProperties"):
            if u.crd_path == _join(f.crd_path, f.field):
                return True
            continue
        if (
            f.crd_check not in ("enum", "required", "existingFieldRemoval")
            and f.kind not in _MEMBER_ENUM
        ):
            continue
        if f.kind in _MEMBER_ENUM and not u.kind.startswith("member-"):
            continue
        if u.crd_path != f.crd_path or not f.field:
            continue
        name = re.escape(f.field)
        if any(re.search(rf"\b{name}\b", r) for r in u.crd_rules) or f'"{f.field}"' in u.message:
            return True
    return False


def _join(node: str, field: str | None) -> str:
    if field is None:
        return node
    return field if node in ("", "(root)") else f"{node}.{field}"


def served_differences(side: CrdSet, cfg: CrdChecks = DEFAULTS) -> set[tuple[str, str, str, str]]:
    """What the checks flag between the served versions of each CRD of one side, as
    (CRD, "older -> newer", shown property path, check): what a head's served-version
    finding is measured against (bench/bench_crdify.py explains crdify's with it)."""
    run = _Run(cfg)
    out: set[tuple[str, str, str, str]] = set()
    for name in sorted({v.name for v in side.versions.values()}):
        versions = [v for v in side.versions.values() if v.name == name]
        for older, newer, path, f in run._across_full(versions):
            node, field = _where(path)
            shown = node if field is None else _join(node, field)
            out.add((name, f"{older.version} -> {newer.version}", shown, f.check))
    return out
