"""The fragments: only what markergen adds to an OpenAPI document, as a JSON Merge Patch
(RFC 7386) keyed like the document (`definitions` in v2, `components.schemas` in v3).

A project whose OpenAPI comes from openapi-gen or controller-gen merges a fragment into
its own document in one step (docs/openapi.md) and gets markergen's `x-kubernetes-unions`
and `enum` keys without taking markergen's whole document.

Only the union and enum keys of a schema are kept, and the path to them: `properties`
by name, `items` and `additionalProperties`. markergen writes neither key inside a list
(`allOf`), which a merge patch could only replace whole.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from markergen.emit.openapi import UNIONS_KEY

KEYS = (UNIONS_KEY, "enum")
_NESTED = ("items", "additionalProperties")


def schema_fragment(schema: Any) -> dict[str, Any]:
    """The union and enum keys of one schema and of the schemas below it ({} if none)."""
    if not isinstance(schema, dict):
        return {}
    out: dict[str, Any] = {k: schema[k] for k in KEYS if k in schema}
    properties = schema.get("properties")
    if isinstance(properties, dict):
        found = {}
        for name, sub in properties.items():
            part = schema_fragment(sub)
            if part:
                found[name] = part
        if found:
            out["properties"] = found
    for key in _NESTED:
        part = schema_fragment(schema.get(key))
        if part:
            out[key] = part
    return out


def document_fragment(
    schemas: Iterable[tuple[str, Any]], version: Literal[2, 3]
) -> dict[str, Any]:
    """The merge patch of a whole document from its (definition name, schema) pairs."""
    found = {}
    for name, schema in schemas:
        part = schema_fragment(schema)
        if part:
            found[name] = part
    if version == 2:
        return {"definitions": found}
    return {"components": {"schemas": found}}
