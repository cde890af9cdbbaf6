"""validation-gen's `+k8s:enum` on the fields of a type, with `+k8s:enumExclude`.

- A value that is no value of the enum, or that an exclusion takes out under the enabled
  options, is `NotSupported`; the message lists the values supported under those options
  (sorted), as apimachinery's `validate.Enum`.
- An unset pointer field is not checked; an unset non-pointer field is its Go zero value
  `""` and is checked, unless `+k8s:optional` / `+k8s:required` on it stop the checks of
  an unset field.
- On update, a field whose value is unchanged from the stored object is not checked
  (ratcheting): a stored value that is excluded now stays accepted.
"""

from __future__ import annotations

from collections.abc import Mapping

from markergen.runtime.errors import FieldError, quote
from markergen.runtime.table import EnumInfo, FieldInfo
from markergen.runtime.tree import JSON, Path


def _go_value(value: JSON, f: FieldInfo) -> JSON:
    return "" if value is None and not f.pointer else value


def validate_enums(
    fields: Mapping[str, FieldInfo],
    enums: Mapping[str, EnumInfo],
    path: Path,
    old: dict[str, JSON] | None,
    obj: dict[str, JSON],
    options: frozenset[str],
    skip: frozenset[str] = frozenset(),
) -> list[FieldError]:
    """`skip`: fields whose enum another check of this object already reports."""
    errors: list[FieldError] = []
    for name, f in fields.items():
        if f.enum is None or name in skip:
            continue
        value = _go_value(obj.get(name), f)
        if value is None or (value == "" and not f.pointer and f.unset_not_checked):
            continue
        if not isinstance(value, str):
            continue  # not a string at all: a schema error, not the enum's
        if old is not None and _go_value(old.get(name), f) == value:
            continue
        enum = enums[f.enum]
        if value in enum.values and not enum.excluded(value, options):
            continue
        supported = enum.supported(options)
        message = quote(value)
        if supported:
            message += ": supported values: " + ", ".join(quote(v) for v in supported)
        errors.append(
            FieldError(path.field(name).render(), "NotSupported", message, "", enum.stage)
        )
    return errors
