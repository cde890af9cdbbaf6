"""The API server's verdict on an object under a CRD's structural schema, for tests that
need to know that a fixture's objects really are valid (issue 22: markergen must never
reject what the API server accepts).

Covers what controller-gen writes for the fixtures: type (with integer-or-string), enum,
required, pattern (strings only, as the API server applies it), minimum/maximum,
minItems, properties, additionalProperties, items, and the CEL rules of
`x-kubernetes-validations` run by cel-python with `self` bound to the node. Fields the
schema does not declare are pruned by the API server, so they are not errors here.
Defaults are applied before validation, as the API server does on create.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import celpy

JSONType = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
}


def _type_ok(kind: str, value: Any) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, JSONType[kind])


def _default(schema: dict[str, Any], value: Any) -> Any:
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for name, prop in props.items():
            if name not in value and "default" in prop:
                value[name] = copy.deepcopy(prop["default"])
        for name, child in value.items():
            if name in props:
                value[name] = _default(props[name], child)
    elif isinstance(value, list) and "items" in schema:
        return [_default(schema["items"], v) for v in value]
    return value


def _walk(schema: dict[str, Any], value: Any, path: str, errors: list[str]) -> None:
    if schema.get("x-kubernetes-int-or-string"):
        if not (isinstance(value, str) or _type_ok("integer", value)):
            errors.append(f"{path}: must be an integer or a string")
            return
    elif "type" in schema and not _type_ok(schema["type"], value):
        errors.append(f"{path}: must be of type {schema['type']}")
        return
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: Unsupported value {value!r}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        errors.append(f"{path}: does not match {schema['pattern']}")
    if "minimum" in schema and isinstance(value, int) and value < schema["minimum"]:
        errors.append(f"{path}: below {schema['minimum']}")
    if "maximum" in schema and isinstance(value, int) and value > schema["maximum"]:
        errors.append(f"{path}: above {schema['maximum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        for i, item in enumerate(value):
            _walk(schema.get("items", {}), item, f"{path}[{i}]", errors)
    if isinstance(value, dict):
        errors.extend(
            f"{path}.{name}: Required value"
            for name in schema.get("required", ())
            if name not in value
        )
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for name, child in value.items():
            if name in props:
                _walk(props[name], child, f"{path}.{name}", errors)
            elif isinstance(extra, dict):
                _walk(extra, child, f"{path}.{name}", errors)
    for rule in schema.get("x-kubernetes-validations", ()):
        env = celpy.Environment()
        program = env.program(env.compile(rule["rule"]))
        if program.evaluate({"self": celpy.json_to_cel(value)}) != celpy.celtypes.BoolType(True):
            errors.append(f"{path}: {rule.get('message', rule['rule'])}")


def apiserver_errors(crd: dict[str, Any], obj: dict[str, Any]) -> list[str]:
    """The errors the API server reports when `obj` is created under `crd` (empty when
    it accepts the object); the version is the one `obj`'s apiVersion names."""
    version = obj["apiVersion"].rsplit("/", 1)[-1]
    (entry,) = [v for v in crd["spec"]["versions"] if v["name"] == version]
    schema = entry["schema"]["openAPIV3Schema"]
    defaulted = _default(schema, copy.deepcopy(obj))
    errors: list[str] = []
    _walk(schema, defaulted, "", errors)
    return errors
