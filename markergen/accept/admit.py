"""Whether a project's CRD, as it is today, accepts an object: its schema (types, enums,
required fields, bounds, unknown fields as the API server's strict field validation
rejects them) and its own `x-kubernetes-validations` rules, evaluated with markergen's
CEL engine.

The proofs keep an object the project keeps (docs, samples, e2e data) only when its
own CRD accepts it: a design proposal in a Markdown page, or an example of a field the
CRD no longer has, proves nothing about what users apply. The reading is conservative in
one direction only: what cannot be decided here (a rule that does not compile in
markergen's engine, reads `oldSelf`, or fails on the object) counts as accepting, so
that an object is never dropped from the proof for markergen's own shortcoming. The
tests hold these verdicts against the real API server.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from markergen.accept.celeval import CelEvaluator
from markergen.accept.judge import rule_passes
from markergen.celcost.escape import escape_property

_ROOT_KEYS = frozenset({"apiVersion", "kind", "metadata"})
_TYPES: Mapping[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
}


def crd_version_schema(crd: Any, version: str) -> dict[str, Any] | None:
    """The openAPIV3Schema of a served version of a CRD document (None: not served)."""
    spec = crd.get("spec") if isinstance(crd, dict) else None
    for v in (spec or {}).get("versions") or ():
        if isinstance(v, dict) and v.get("name") == version and v.get("served", True):
            schema = (v.get("schema") or {}).get("openAPIV3Schema")
            return schema if isinstance(schema, dict) else {}
    return None


def rejection(obj: Any, schema: Mapping[str, Any], evaluator: CelEvaluator) -> str | None:
    """Why the schema (a CRD version's openAPIV3Schema) rejects `obj` on create, as
    `path: reason`; None when it accepts it (or cannot tell)."""
    return _node(obj, schema, "", evaluator, root=True)


def _node(
    value: Any, schema: Mapping[str, Any], path: str, evaluator: CelEvaluator, root: bool = False
) -> str | None:
    where = path or "<root>"
    if value is None:
        # the server prunes a null of a field that is not nullable, before it validates
        return None
    if isinstance(value, dict):
        value = _defaulted(value, schema)
    if schema.get("x-kubernetes-int-or-string"):
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            return f"{where}: must be an integer or a string"
    else:
        kind = str(schema.get("type") or "")
        want = _TYPES.get(kind)
        if want is not None and (not isinstance(value, want) or _bool_as_number(value, kind)):
            return f"{where}: must be of type {kind}"
    enum = schema.get("enum")
    if isinstance(enum, list) and value not in enum:
        return f"{where}: {value!r} is not one of {enum!r}"
    found = _bounds(value, schema, where)
    if found is not None:
        return found
    if isinstance(value, dict):
        found = _object(value, schema, path, evaluator, root)
    elif isinstance(value, list):
        items = schema.get("items")
        found = None
        if isinstance(items, dict):
            for i, item in enumerate(value):
                found = found or _node(item, items, f"{path}[{i}]", evaluator)
    if found is not None:
        return found
    return _rules(value, schema, where, evaluator)


def _bool_as_number(value: Any, kind: str) -> bool:
    return isinstance(value, bool) and kind in ("integer", "number")


def _bounds(value: Any, schema: Mapping[str, Any], where: str) -> str | None:
    checks: list[tuple[str, Any, Any]] = []
    if isinstance(value, str):
        checks = [("minLength", len(value), 1), ("maxLength", len(value), -1)]
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            try:
                if re.search(pattern, value) is None:
                    return f"{where}: does not match {pattern!r}"
            except re.error:
                pass  # an RE2 form Python's re does not take: not decided here
    elif isinstance(value, list):
        checks = [("minItems", len(value), 1), ("maxItems", len(value), -1)]
    elif isinstance(value, dict):
        checks = [("minProperties", len(value), 1), ("maxProperties", len(value), -1)]
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        checks = [("minimum", value, 1), ("maximum", value, -1)]
    for key, actual, sign in checks:
        bound = schema.get(key)
        number = isinstance(bound, (int, float)) and not isinstance(bound, bool)
        if number and (actual - bound) * sign < 0:
            return f"{where}: {key} {bound}"
    return None


def _object(
    value: dict[str, Any],
    schema: Mapping[str, Any],
    path: str,
    evaluator: CelEvaluator,
    root: bool,
) -> str | None:
    props = schema.get("properties")
    props = props if isinstance(props, dict) else {}
    extra = schema.get("additionalProperties")
    preserve = bool(schema.get("x-kubernetes-preserve-unknown-fields"))
    for key, item in value.items():
        sub = f"{path}.{key}" if path else str(key)
        if root and key in _ROOT_KEYS and key not in props:
            continue
        if key == "metadata" and root:
            continue  # ObjectMeta is the server's own, not the CRD's
        if key in props and isinstance(props[key], dict):
            found = _node(item, props[key], sub, evaluator)
        elif isinstance(extra, dict):
            found = _node(item, extra, sub, evaluator)
        elif extra is True or preserve or (not props and extra is None and not schema):
            found = None
        else:
            found = f"{sub}: unknown field"
        if found is not None:
            return found
    required = schema.get("required")
    for name in required if isinstance(required, list) else ():
        if isinstance(name, str) and value.get(name) is None:
            return f"{path + '.' if path else ''}{name}: Required value"
    return None


def _rules(
    value: Any, schema: Mapping[str, Any], where: str, evaluator: CelEvaluator
) -> str | None:
    rules = schema.get("x-kubernetes-validations")
    if not isinstance(rules, list) or not rules:
        return None
    as_cel = _cel_value(value, schema)
    for r in rules:
        if not isinstance(r, dict) or not isinstance(r.get("rule"), str):
            continue
        rule = str(r["rule"])
        if "oldSelf" in rule:
            continue  # a transition rule: not run on create
        if not rule_passes(evaluator, rule, as_cel, errors="accept"):
            return f"{where}: {r.get('message') or 'failed rule: ' + rule}"
    return None


def _cel_value(value: Any, schema: Mapping[str, Any]) -> Any:
    """`value` as CEL sees it: property names escaped (`x-y`, reserved words)."""
    if isinstance(value, dict):
        props = schema.get("properties")
        if isinstance(props, dict) and props:
            return {
                (escape_property(str(k)) or str(k)): _cel_value(v, _sub(props, k))
                for k, v in value.items()
                if v is not None
            }
        extra = schema.get("additionalProperties")
        sub = extra if isinstance(extra, dict) else {}
        return {k: _cel_value(v, sub) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        items = schema.get("items")
        sub = items if isinstance(items, dict) else {}
        return [_cel_value(v, sub) for v in value]
    return value


def _sub(props: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    found = props.get(key)
    return found if isinstance(found, dict) else {}


def _defaulted(value: dict[str, Any], schema: Mapping[str, Any]) -> dict[str, Any]:
    """`value` with the defaults of its absent (or null) properties, as the API server
    sets them before it validates."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return value
    missing = {
        str(k): p["default"]
        for k, p in props.items()
        if isinstance(p, dict) and "default" in p and value.get(k) is None
    }
    return {**value, **missing} if missing else value
