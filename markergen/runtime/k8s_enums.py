"""validation-gen's `+k8s:enum` on the fields of a type, with `+k8s:enumExclude`.

- A value that is no value of the enum, or that an exclusion takes out under the enabled
  options, is `NotSupported`; the message lists the values supported under those options
  (sorted), as apimachinery's `validate.Enum`.
- An unset pointer field is not checked; an unset non-pointer field is its Go zero value
  `""` and is checked, unless `+k8s:optional` / `+k8s:required` on it stop the checks of
  an unset field.
- A field without `+k8s:optional` / `+k8s:required` / `+k8s:forbidden` in a package that
  runs no validation-gen (no `+k8s:validation-gen=` in its doc comment) is one
  validation-gen does not serve (its lint requires a requiredness tag on a field with
  validation): controller-gen writes the enum into the CRD schema, and the API server
  checks only a value present. An absent or null field is not checked; `""` is.
- On update, a field whose value is unchanged from the stored object is not checked
  (ratcheting): a stored value that is excluded now stays accepted.
- A list or map of the enum type: each item (`f[i]`) or value (`f[key]`) is checked, as
  validation-gen's `EachSliceVal` / `EachMapVal` call the type's validation. On update a
  map value equal to the old one under the same key is not checked again, nor a list
  item the old list holds anywhere when the list is `+k8s:listType=set`; the items of
  other lists are always checked.
"""

from __future__ import annotations

from collections.abc import Mapping

from markergen.runtime.errors import FieldError, quote
from markergen.runtime.table import EnumInfo, FieldInfo
from markergen.runtime.tree import JSON, Path


def _go_value(value: JSON, f: FieldInfo) -> JSON:
    return "" if value is None and not (f.pointer or f.absent_not_checked) else value


def validate_enums(
    fields: tuple[FieldInfo, ...],
    enums: Mapping[str, EnumInfo],
    path: Path,
    old: dict[str, JSON] | None,
    obj: dict[str, JSON],
    options: frozenset[str],
    skip: frozenset[str] = frozenset(),
) -> list[FieldError]:
    """`fields`: the type's enum fields (TypeInfo.enum_fields); `skip`: fields whose enum
    another check of this object already reports."""
    errors: list[FieldError] = []
    for f in fields:
        name = f.name
        if f.enum is None or name in skip:  # `is None`: never, it narrows the type
            continue
        if f.kind in ("list", "map"):
            errors.extend(_items(f, enums[f.enum], name, path, old, obj, options))
            continue
        value = _go_value(obj.get(name), f)
        if value is None or (value == "" and not f.pointer and f.unset_not_checked):
            continue
        if not isinstance(value, str):
            continue  # not a string at all: a schema error, not the enum's
        if old is not None and _go_value(old.get(name), f) == value:
            continue
        error = _check(enums[f.enum], value, path.field(name), options)
        if error is not None:
            errors.append(error)
    return errors


def _check(enum: EnumInfo, value: str, at: Path, options: frozenset[str]) -> FieldError | None:
    if value in enum.values and not enum.excluded(value, options):
        return None
    supported = enum.supported(options)
    message = quote(value)
    if supported:
        message += ": supported values: " + ", ".join(quote(v) for v in supported)
    return FieldError(at.render(), "NotSupported", message, "", enum.stage)


def _items(
    f: FieldInfo,
    enum: EnumInfo,
    name: str,
    path: Path,
    old: dict[str, JSON] | None,
    obj: dict[str, JSON],
    options: frozenset[str],
) -> list[FieldError]:
    new_items = obj.get(name)
    old_items = old.get(name) if old is not None else None
    at = path.field(name)
    found: list[FieldError | None] = []
    if f.kind == "list" and isinstance(new_items, list):
        before = old_items if f.set_items and isinstance(old_items, list) else []
        for i, item in enumerate(new_items):
            if isinstance(item, str) and item not in before:
                found.append(_check(enum, item, at.index(i), options))
    elif f.kind == "map" and isinstance(new_items, dict):
        before_map = old_items if isinstance(old_items, dict) else {}
        for key, item in new_items.items():
            if isinstance(item, str) and before_map.get(key) != item:
                found.append(_check(enum, item, at.key(key), options))
    return [e for e in found if e is not None]
