"""Objects and CRDs for the server-judged tests: the CRDs of a project as YAML values (a
Helm chart's copy read as markergen reads it), and an object that is valid around a
schema node so that only what is put at that node decides the server's verdict."""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from markergen.crd.helm import mask_templates

PathKey = tuple[str | int, ...]
# spec.versions[i].schema.openAPIV3Schema: what comes before a schema path in a CRD
SCHEMA_DEPTH = 5


def crd_documents(path: Path) -> Iterator[dict[str, Any]]:
    """The CRDs of a file (a Helm chart's whole template lines masked, as `crd` does)."""
    text = mask_templates(path.read_text(encoding="utf-8")).text
    for doc in yaml.safe_load_all(text):
        if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
            yield doc


def version_of(crd: Mapping[str, Any], name: str) -> dict[str, Any] | None:
    for v in crd["spec"]["versions"]:
        if v["name"] == name:
            return v  # type: ignore[no-any-return]
    return None


def node_at(value: Any, path: Sequence[str | int]) -> Any:
    for key in path:
        value = value[key]
    return value


def with_rule(crd: Mapping[str, Any], path: PathKey, rule: Mapping[str, str]) -> dict[str, Any]:
    """A copy of `crd` with `rule` added to the rules of the schema node at `path`."""
    out = copy.deepcopy(dict(crd))
    node = node_at(out, path)
    node.setdefault("x-kubernetes-validations", []).append(dict(rule))
    return out


def with_enum(crd: Mapping[str, Any], path: PathKey, values: Sequence[Any]) -> dict[str, Any]:
    """A copy of `crd` whose schema node at `path` takes only `values`."""
    out = copy.deepcopy(dict(crd))
    node_at(out, path)["enum"] = list(values)
    return out


def minimal(schema: Mapping[str, Any]) -> Any:
    """The smallest value `schema` accepts as far as its structure says: required
    properties filled in, lists and maps at their minimum size."""
    if schema.get("x-kubernetes-int-or-string"):
        return 1
    if schema.get("enum"):
        return copy.deepcopy(schema["enum"][0])
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties") or {}
        out: dict[str, Any] = {}
        for name in schema.get("required") or ():
            if name in props:
                out[name] = minimal(props[name])
        extra = schema.get("additionalProperties")
        for i in range(int(schema.get("minProperties") or 0) - len(out)):
            out[f"k{i}"] = minimal(extra) if isinstance(extra, dict) else "x"
        return out
    if kind == "array":
        items = schema.get("items") or {}
        return [minimal(items) for _ in range(int(schema.get("minItems") or 0))]
    if kind == "string":
        return "x" * max(1, int(schema.get("minLength") or 0))
    if kind in ("integer", "number"):
        return max(int(schema.get("minimum") or 0), 1)
    if kind == "boolean":
        return False
    return {}


def placed(root_schema: Mapping[str, Any], below: PathKey, value: Any) -> dict[str, Any]:
    """An object whose part at the schema path `below` (under openAPIV3Schema:
    `properties.x`, `items`, `additionalProperties`) is `value`, and that is otherwise
    `minimal`."""
    obj = minimal(root_schema)

    def put(schema: Mapping[str, Any], current: Any, rest: PathKey) -> Any:
        if not rest:
            return copy.deepcopy(value)
        head = rest[0]
        if head == "properties":
            name = str(rest[1])
            child = schema["properties"][name]
            inner = current if isinstance(current, dict) else minimal(schema)
            inner[name] = put(child, inner.get(name, minimal(child)), rest[2:])
            return inner
        if head == "items":
            return [put(schema["items"], minimal(schema["items"]), rest[1:])]
        if head == "additionalProperties":
            child = schema["additionalProperties"]
            return {"k": put(child, minimal(child), rest[1:])}
        raise ValueError(f"no object below schema key {head!r}")

    out: dict[str, Any] = put(root_schema, obj, below)
    return out


_STEP = re.compile(r"\[\*\]|\{\*\}|[^.\[{]+")


def schema_path(shown: str | None) -> PathKey:
    """The schema path below openAPIV3Schema of a `diff` report's `crd.path` (`spec.a[*]`)."""
    out: list[str] = []
    for step in _STEP.findall("" if shown in (None, "", "(root)") else shown):
        if step == "[*]":
            out.append("items")
        elif step == "{*}":
            out.append("additionalProperties")
        else:
            out += ["properties", step]
    return tuple(out)


def schema_root(doc: Mapping[str, Any], version: str) -> dict[str, Any]:
    """The openAPIV3Schema of a version of a CRD document."""
    found = version_of(doc, version)
    assert found is not None, version
    return found["schema"]["openAPIV3Schema"]  # type: ignore[no-any-return]


def probe_objects(schema: Mapping[str, Any], path: PathKey = ()) -> Iterator[tuple[PathKey, Any]]:
    """At every object of the schema: each property alone and each pair of properties,
    each with each of its enum values (else a small value), the node's required ones
    filled in."""
    props = schema.get("properties") or {}
    if props:
        base = minimal(schema)
        names = sorted(props)
        values = {n: props[n].get("enum") or [minimal(props[n])] for n in names}
        for name in names:
            for value in values[name]:
                yield path, {**base, name: value}
        for a, b in itertools.combinations(names, 2):
            for va, vb in itertools.product(values[a], values[b]):
                yield path, {**base, a: va, b: vb}
    for name, sub in props.items():
        if isinstance(sub, dict):
            yield from probe_objects(sub, (*path, "properties", name))
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            yield from probe_objects(schema[key], (*path, key))
