"""The CEL type of an OpenAPI schema node with its size bounds, as the API server sees it.

A port of k8s.io/apiserver pkg/cel/common/schemas.go `SchemaDeclType` (used by
apiextensions-apiserver pkg/apiserver/schema/cel/model) and the constants it relies on
(pkg/cel/limits.go, pkg/apis/cel/config.go):

- `MaxElements` of a list or map is `maxItems`/`maxProperties`, else the number of
  elements of the smallest serialized size that fit in a 3 MiB request:
  `(3 MiB - 2) / (minSize + 1)` for lists, `(3 MiB - 2) / (minSize + 6)` for maps;
- of a string: `maxLength * 4` (maxLength counts code points, sizes are bytes), else the
  longest `enum` value, else `3 MiB - 2`; `format: byte` takes `maxLength` as is;
  `duration`, `date`, `date-time` strings 32, 12, 32;
- `MinSerializedSize`: 2 for `{}`/`[]`/`""`, 1 for a number, 4 for a boolean, 3/12/21 for
  duration/date/date-time; an object adds `len(name) + min + 4` for every required
  property without a default;
- the root of a resource (and of an `x-kubernetes-embedded-resource`) also has `kind`,
  `apiVersion` and `metadata.name`/`metadata.generateName` (253 and 252 characters at most).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from markergen.celcost.escape import escape_property

MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024  # k8s.io/apiserver pkg/apis/cel/config.go
MIN_STRING_SIZE = 2
MIN_BOOL_SIZE = 4
MIN_NUMBER_SIZE = 1
MIN_DURATION_SIZE_JSON = 3
JSON_DATE_SIZE = 12
MIN_DATETIME_SIZE_JSON = 21
MAX_DURATION_SIZE_JSON = 32
MAX_DATETIME_SIZE_JSON = 32
NAME_MAX_LENGTH = 253  # DNS1123SubdomainMaxLength, metadata.name in CEL


@dataclass(eq=False, slots=True)
class Decl:
    """apiserver cel.DeclType: `kind` is the CEL type (object, list, map, string, bytes,
    int, double, bool, duration, timestamp, dyn)."""

    kind: str
    max_elements: int = 0
    min_size: int = 1
    fields: dict[str, Decl] = field(default_factory=dict)
    elem: Decl | None = None
    key: Decl | None = None


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _zero_if_negative(v: int) -> int:
    return max(v, 0)


def escape(name: str) -> str | None:
    """apiserver cel.Escape: the CEL field name of property `name`, None if unreachable."""
    return escape_property(name)


def _with_type_and_object_meta(s: Mapping[str, Any]) -> dict[str, Any]:
    props = s.get("properties") if isinstance(s.get("properties"), dict) else {}
    assert isinstance(props, dict)
    meta = props.get("metadata") if isinstance(props.get("metadata"), dict) else {}
    assert isinstance(meta, dict)
    mprops = meta.get("properties") if isinstance(meta.get("properties"), dict) else {}
    assert isinstance(mprops, dict)

    def typ(p: Any) -> Any:
        return p.get("type") if isinstance(p, dict) else None

    if (
        props
        and typ(props.get("kind")) == "string"
        and typ(props.get("apiVersion")) == "string"
        and typ(meta) == "object"
        and mprops
        and typ(mprops.get("name")) == "string"
        and typ(mprops.get("generateName")) == "string"
    ):
        return dict(s)

    def capped(existing: Any, cap: int) -> dict[str, Any]:
        ml = _int(existing.get("maxLength")) if isinstance(existing, dict) else None
        return {"type": "string", "maxLength": ml if ml is not None and ml < cap else cap}

    out = dict(s)
    new_props = dict(props)
    new_props["kind"] = {"type": "string"}
    new_props["apiVersion"] = {"type": "string"}
    new_props["metadata"] = {
        "type": "object",
        "properties": {
            "name": capped(mprops.get("name"), NAME_MAX_LENGTH),
            "generateName": capped(mprops.get("generateName"), NAME_MAX_LENGTH - 1),
        },
    }
    out["properties"] = new_props
    return out


def _string_max(s: Mapping[str, Any]) -> int:
    """estimateMaxStringLengthPerRequest."""
    if s.get("x-kubernetes-int-or-string") is True:
        return MAX_REQUEST_SIZE_BYTES - 2
    return {
        "duration": MAX_DURATION_SIZE_JSON,
        "date": JSON_DATE_SIZE,
        "date-time": MAX_DATETIME_SIZE_JSON,
    }.get(str(s.get("format", "")), MAX_REQUEST_SIZE_BYTES - 2)


def _max_elements(s: dict[str, Any], bound: str, entry_size: int) -> int:
    """The most entries a list or map may hold: its `maxItems` / `maxProperties`, else as
    many entries of `entry_size` bytes as fit in a request between the brackets."""
    declared = _int(s.get(bound))
    if declared is not None:
        return _zero_if_negative(declared)
    return (MAX_REQUEST_SIZE_BYTES - 2) // entry_size


def schema_decl(s: Any, resource_root: bool = False) -> Decl | None:
    """SchemaDeclType(s, isResourceRoot): None where CEL cannot see the node."""
    if not isinstance(s, dict):
        return None
    if s.get("x-kubernetes-int-or-string") is True:
        ml = _int(s.get("maxLength"))
        return Decl(
            "dyn",
            max_elements=_zero_if_negative(ml) * 4 if ml is not None else _string_max(s),
            min_size=1,
        )
    if resource_root:
        s = _with_type_and_object_meta(s)
    t = s.get("type")
    if t == "array":
        items = s.get("items")
        if not isinstance(items, dict):
            return None
        item = schema_decl(items, items.get("x-kubernetes-embedded-resource") is True)
        if item is None:
            return None
        # an element's minimum size plus its separator, as the API server counts it
        n = _max_elements(s, "maxItems", item.min_size + 1)
        return Decl("list", max_elements=n, min_size=2, elem=item)
    if t == "object":
        ap = s.get("additionalProperties")
        if ap is not None and ap is not False:
            if not isinstance(ap, dict):
                return None
            val = schema_decl(ap, ap.get("x-kubernetes-embedded-resource") is True)
            if val is None:
                return None
            # a value's minimum size plus the key and separators, as the API server counts it
            n = _max_elements(s, "maxProperties", val.min_size + 6)
            return Decl("map", max_elements=n, min_size=2, elem=val, key=string_decl(None))
        required = {r for r in (s.get("required") or []) if isinstance(r, str)}
        fields: dict[str, Decl] = {}
        min_size = 2
        props = s.get("properties")
        for name, prop in props.items() if isinstance(props, dict) else ():
            if not isinstance(prop, dict):
                continue
            ft = schema_decl(prop, prop.get("x-kubernetes-embedded-resource") is True)
            if ft is None:
                continue
            esc = escape(name)
            if esc is not None:
                fields[esc] = ft
            if name in required and "default" not in prop:
                min_size += len(name) + ft.min_size + 4
        return Decl("object", max_elements=0, min_size=min_size, fields=fields)
    if t == "string":
        fmt = s.get("format")
        ml = _int(s.get("maxLength"))
        if fmt == "byte":
            return Decl(
                "bytes",
                max_elements=_zero_if_negative(ml) if ml is not None else _string_max(s),
                min_size=MIN_STRING_SIZE,
            )
        if fmt == "duration":
            return Decl("duration", _string_max(s), MIN_DURATION_SIZE_JSON)
        if fmt == "date":
            return Decl("timestamp", _string_max(s), JSON_DATE_SIZE)
        if fmt == "date-time":
            return Decl("timestamp", _string_max(s), MIN_DATETIME_SIZE_JSON)
        return string_decl(s)
    if t == "boolean":
        return Decl("bool", 0, MIN_BOOL_SIZE)
    if t == "number":
        return Decl("double", 0, MIN_NUMBER_SIZE)
    if t == "integer":
        return Decl("int", 0, MIN_NUMBER_SIZE)
    return None


def string_decl(s: Mapping[str, Any] | None) -> Decl:
    if s is None:
        return Decl("string", 0, MIN_STRING_SIZE)  # apiservercel.StringType: no bound
    ml = _int(s.get("maxLength"))
    enum = s.get("enum")
    if ml is not None:
        n = _zero_if_negative(ml) * 4
    elif isinstance(enum, list) and enum:
        # estimateMaxStringEnumLength: Go's len() counts bytes
        n = max((len(v.encode("utf-8")) for v in enum if isinstance(v, str)), default=0)
    else:
        n = _string_max(s)
    return Decl("string", n, MIN_STRING_SIZE)


def max_cardinality(min_size: int) -> int:
    """apiextensions compilation.go `maxCardinality`: how many nodes of this smallest
    serialized size fit in one request (a comma between them)."""
    return MAX_REQUEST_SIZE_BYTES // (min_size + 1)
