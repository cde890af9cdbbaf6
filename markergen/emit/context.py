"""What a user template sees (docs/templates.md, "The context"): the model's unions and
enums, the definition names and the runtime table, all as plain data (dicts, lists,
strings, numbers, booleans, None), so that a template never depends on markergen's
classes and the same context can be dumped as JSON to see what is there.
"""

from __future__ import annotations

from typing import Any

from markergen.emit.naming import key_definition_name
from markergen.emit.openapi import SchemaBuilder
from markergen.emit.options import EmitOptions
from markergen.model import Model, json_scalar

# The keys the runtime table writes only when they are not their default: every union
# of the context has them all, so that a template never meets an undefined key.
_UNION_DEFAULTS: dict[str, Any] = {
    "at": [],
    "atValue": False,
    "discriminatorDefault": None,
    "gate": "",
    "gateDisabled": False,
    "modes": [],
    "stage": "",
    "valueType": "string",
}
_MEMBER_DEFAULTS: dict[str, Any] = {"selector": None, "zero": ""}

# Bumped when a key of the context changes meaning or goes away (new keys do not bump it).
CONTEXT_VERSION = 1


def build_context(model: Model, options: EmitOptions, table: dict[str, Any]) -> dict[str, Any]:
    """The context of a user template (and of a built-in one a project replaces)."""
    naming = options.naming
    types: dict[str, Any] = table["types"]
    referenced = {
        f["type"] for entry in types.values() for f in entry["fields"].values() if "type" in f
    }
    go_names: dict[str, dict[str, str]] = {}
    for key in sorted(model.structs):
        struct = model.structs[key]
        go_names[key_definition_name(key, naming)] = {"go_name": struct.name, "package": struct.package}
    unions = []
    for name in sorted(types):
        for union in types[name]["unions"]:
            members = [{**_MEMBER_DEFAULTS, **m} for m in union["members"]]
            unions.append(
                {"type": name, **go_names.get(name, {}), **_UNION_DEFAULTS, **union, "members": members}
            )
    enums = []
    for key in sorted(model.enums):
        enum = model.enums[key]
        if enum.imported:
            continue
        values = []
        for v in enum.values:
            value = json_scalar(v.value, enum.type)
            values.append(
                {
                    "value": v.value if value is None else value,
                    "go_name": v.name,
                    "description": v.description,
                }
            )
        enums.append(
            {
                "name": key_definition_name(key, naming),
                "go_name": enum.name,
                "package": enum.package,
                "type": enum.type,
                "complete": not enum.incomplete,
                "values": values,
            }
        )
    builder = SchemaBuilder(model, options, 3)
    schemas = dict(builder.schemas(builder.names_in_order()))
    return {
        "context_version": CONTEXT_VERSION,
        "title": options.title,
        "api_version": options.version,
        "definitions": sorted(types),
        "roots": sorted(set(types) - referenced),
        "types": {
            name: {
                "name": name,
                **go_names.get(name, {}),
                **types[name],
                "unions": [u for u in unions if u["type"] == name],
            }
            for name in sorted(types)
        },
        "unions": unions,
        "enums": enums,
        "table": table,
        "schemas": schemas,
        # definitions the schemas `$ref` that are not in them (other packages' types)
        "external": sorted(builder.external - set(schemas)),
    }
