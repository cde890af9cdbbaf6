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

from typing import Any

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
            # Most properties hold none of the keys and nothing below them: no call.
            if isinstance(sub, dict) and (
                UNIONS_KEY in sub or "enum" in sub or "properties" in sub
                or "items" in sub or "additionalProperties" in sub
            ):  # fmt: skip
                part = schema_fragment(sub)
                if part:
                    found[name] = part
        if found:
            out["properties"] = found
    for key in _NESTED:
        if key in schema:
            part = schema_fragment(schema[key])
            if part:
                out[key] = part
    return out


def fragment_pair(schema2: Any, schema3: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fragments of a definition's v2 and v3 schemas (`schema_fragment` of each),
    walking once what the two share (`SchemaBuilder.pairs` gives one object for a part
    that is the same in both). They differ only where a well-known type's v2 and v3
    schemas have different JSON types (an enum on a Quantity field is v2's alone)."""
    if schema2 is schema3:
        part = schema_fragment(schema2)
        return part, part
    if not (isinstance(schema2, dict) and isinstance(schema3, dict)):
        return schema_fragment(schema2), schema_fragment(schema3)
    properties2 = schema2.get("properties")
    properties3 = schema3.get("properties")
    if not (
        isinstance(properties2, dict)
        and isinstance(properties3, dict)
        and properties2.keys() == properties3.keys()
    ):
        return schema_fragment(schema2), schema_fragment(schema3)
    out2: dict[str, Any] = {k: schema2[k] for k in KEYS if k in schema2}
    out3: dict[str, Any] = {k: schema3[k] for k in KEYS if k in schema3}
    found2, found3 = {}, {}
    for name, sub2 in properties2.items():
        sub3 = properties3[name]
        if sub2 is sub3:
            part2 = part3 = schema_fragment(sub2)
        else:
            part2, part3 = fragment_pair(sub2, sub3)
        if part2:
            found2[name] = part2
        if part3:
            found3[name] = part3
    if found2:
        out2["properties"] = found2
    if found3:
        out3["properties"] = found3
    for key in _NESTED:
        part2, part3 = fragment_pair(schema2.get(key), schema3.get(key))
        if part2:
            out2[key] = part2
        if part3:
            out3[key] = part3
    return out2, out3
