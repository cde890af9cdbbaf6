"""validation-gen's union checks (`+k8s:unionMember`, `+k8s:zeroOrOneOfMember`).

What the API server runs for declarative validation, as validation-gen's own tests show it:

- a member is set when its value is not its Go type's zero value: null, `""`, `0`,
  `false`, `[]` and `{}` all leave it unset;
- the discriminator is optional, and a value that no member claims is not a union error
  (the discriminator's enum reports it);
- on update, a union whose discriminator and whose set of set members are unchanged from
  the old object reports nothing, even when invalid (ratcheting);
- every error is `Invalid`, with origin `union` (exactly one) or `zeroOrOneOf` (at most
  one); an undiscriminated union's error is at the union's parent path.
"""

from __future__ import annotations

from collections.abc import Mapping

from markergen.runtime.errors import FieldError
from markergen.runtime.table import FieldInfo, Union
from markergen.runtime.tree import JSON, Path


def is_zero(value: JSON, kind: str = "scalar") -> bool:
    """Whether a JSON value is what a Go zero value serializes to (or is absent).

    An object field (`kind` "object") is a pointer to a struct in Go: `{}` is a non-nil
    pointer to an empty struct, so it is set; an empty map (`kind` "map") is unset.
    """
    if value is None or value is False:
        return True
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return value == 0
    if isinstance(value, dict):
        return kind != "object" and not value
    if isinstance(value, (str, list)):
        return len(value) == 0
    return False


def set_members_k8s(
    obj: dict[str, JSON] | None, union: Union, kinds: Mapping[str, FieldInfo]
) -> tuple[str, ...]:
    if obj is None:
        return ()
    return tuple(
        f
        for f in union.fields
        if not is_zero(obj.get(f), kinds[f].kind if f in kinds else "scalar")
    )


def _discriminator(obj: dict[str, JSON] | None, union: Union) -> str:
    if obj is None or union.discriminator is None:
        return ""
    v = obj.get(union.discriminator)
    return v if isinstance(v, str) else ""


def _list(fields: tuple[str, ...]) -> str:
    return ", ".join(f"`{f}`" for f in fields)


def validate_k8s(
    union: Union,
    path: Path,
    old: dict[str, JSON] | None,
    obj: dict[str, JSON],
    kinds: Mapping[str, FieldInfo],
) -> list[FieldError]:
    """The errors of one union at one object; `kinds` are the object's fields."""
    now = set_members_k8s(obj, union, kinds)
    value = _discriminator(obj, union)
    unchanged = old is not None and set_members_k8s(old, union, kinds) == now
    if unchanged and _discriminator(old, union) == value:
        return []
    if union.discriminator is not None:
        return _discriminated(union, path, now, value)
    return _undiscriminated(union, path, now)


def _undiscriminated(union: Union, path: Path, now: tuple[str, ...]) -> list[FieldError]:
    names = _list(union.fields)
    if union.mode == "at-most-one":
        if len(now) > 1:
            return [
                FieldError(
                    path.render(),
                    "Invalid",
                    f"must specify at most one of: {names}",
                    origin="zeroOrOneOf",
                )
            ]
        return []
    if not now:
        return [FieldError(path.render(), "Invalid", f"must specify one of: {names}", "union")]
    if len(now) > 1:
        return [
            FieldError(path.render(), "Invalid", f"must specify exactly one of: {names}", "union")
        ]
    return []


def _discriminated(union: Union, path: Path, now: tuple[str, ...], value: str) -> list[FieldError]:
    d = union.discriminator
    errors: list[FieldError] = []
    for m in union.members:
        is_set = m.field in now
        if m.value == value and value and not is_set:
            msg = f'must be specified when `{d}` is "{value}"'
            errors.append(FieldError(path.field(m.field).render(), "Invalid", msg, "union"))
        elif m.value != value and is_set:
            msg = f'may only be specified when `{d}` is "{m.value}"'
            errors.append(FieldError(path.field(m.field).render(), "Invalid", msg, "union"))
    return errors
