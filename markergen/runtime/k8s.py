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

from collections.abc import Iterator, Mapping

from markergen.runtime.errors import FieldError
from markergen.runtime.table import FieldInfo, Table, TypeInfo, Union
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


def member_set(value: JSON, zero: str, kinds: Mapping[str, FieldInfo], name: str) -> bool:
    """Whether validation-gen counts field `name` of an object (its fields: `kinds`) as
    set when it holds `value`; `zero` is the member's Member.zero ("" for a non-member)."""
    f = kinds.get(name)
    return _member_set(value, zero, f.kind if f is not None else "scalar")


def _member_set(value: JSON, zero: str, kind: str) -> bool:
    if zero == "nil":
        return value is not None
    if zero == "len":
        return isinstance(value, (list, dict)) and len(value) > 0
    if zero == "zero":
        return not is_zero(value, "scalar")
    return not is_zero(value, kind)


def _key_default(v: object) -> object:
    # an item's key field left out of the JSON holds its Go zero value
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return 0
    return ""


def _selects(item: JSON, selector: tuple[tuple[str, object], ...]) -> bool:
    if not isinstance(item, dict):
        return False
    for k, v in selector:
        got = item.get(k)
        if got is None:
            got = _key_default(v)
        if type(got) is not type(v) or got != v:
            return False
    return True


def set_members_k8s(obj: JSON, union: Union, kinds: Mapping[str, FieldInfo]) -> tuple[str, ...]:
    """The members validation-gen counts as set: fields of `obj`, or for `+k8s:item`
    members, the items of the list `obj` that match their selector."""
    if isinstance(obj, list):
        return tuple(
            m.field
            for m in union.members
            if m.selector is not None and any(_selects(item, m.selector) for item in obj)
        )
    if not isinstance(obj, dict):
        return ()
    return tuple(
        m.field
        for m in union.members
        if m.selector is None and member_set(obj.get(m.field), m.zero, kinds, m.field)
    )


def targets(
    table: Table, info: TypeInfo, union: Union, path: Path, old: JSON, new: JSON
) -> Iterator[tuple[Path, JSON, JSON, Mapping[str, FieldInfo]]]:
    """Where a union written through path wrappers (`union.at`) is checked, below one
    object: each place's path, old value (None when there is none to compare with), new
    value, and the fields of the struct found there."""
    stack: list[tuple[int, Path, JSON, JSON, TypeInfo | None, FieldInfo | None, bool]] = [
        (0, path, old, new, info, None, old is not None)
    ]
    out: list[tuple[Path, JSON, JSON, Mapping[str, FieldInfo]]] = []
    while stack:
        i, p, o, n, t, fi, had_old = stack.pop()
        if i == len(union.at):
            if o is not None and o == n:
                continue  # validation-gen does not validate unchanged data again
            if o is None and union.at_value and had_old:
                o = {}  # the old object's zero struct
            out.append((p, o, n, t.fields if t is not None else {}))
            continue
        step = union.at[i]
        if step == "*":
            elem = table.lookup(fi.type) if fi is not None else None
            if isinstance(n, list):
                keys = fi.list_map_keys if fi is not None else ()
                for j, item in reversed(list(enumerate(n))):
                    prev = _correlated(o, item, keys)
                    stack.append((i + 1, p.index(j), prev, item, elem, None, prev is not None))
            elif isinstance(n, dict):
                olds = o if isinstance(o, dict) else {}
                for k in reversed(list(n)):
                    stack.append((i + 1, p.key(k), olds.get(k), n[k], elem, None, k in olds))
            continue
        if not isinstance(n, dict):
            continue
        child = t.fields.get(step) if t is not None else None
        nxt = table.lookup(child.type) if child is not None and child.kind == "object" else None
        value = n.get(step)
        if value is not None and not isinstance(value, (dict, list)):
            continue  # the walk reports a value of the wrong kind
        prev = o.get(step) if isinstance(o, dict) else None
        stack.append((i + 1, p.field(step), prev, value, nxt, child, isinstance(o, dict)))
    yield from out


def _correlated(old: JSON, item: JSON, keys: tuple[str, ...]) -> JSON:
    """The old list's item with the same list-map keys (validation-gen's ratcheting of
    `listType=map` lists); None for other lists, whose items it does not correlate."""
    if not keys or not isinstance(old, list) or not isinstance(item, dict):
        return None
    for prev in old:
        if isinstance(prev, dict) and all(prev.get(k) == item.get(k) for k in keys):
            return prev
    return None


def _discriminator(obj: JSON, union: Union) -> str:
    if not isinstance(obj, dict) or union.discriminator is None:
        return ""
    v = obj.get(union.discriminator)
    return v if isinstance(v, str) else ""


def _list(fields: tuple[str, ...]) -> str:
    return ", ".join(f"`{f}`" for f in fields)


def validate_k8s(
    union: Union,
    path: Path,
    old: JSON,
    obj: JSON,
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
