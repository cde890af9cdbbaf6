"""normalize() and normalize_apply(): walk an object with the table, normalize every union."""

from __future__ import annotations

from markergen.runtime.errors import FieldError, UnionError
from markergen.runtime.semantics import (
    normalize_apply_kep1027,
    normalize_apply_kep2019,
    normalize_apply_smd,
    normalize_kep1027,
    normalize_kep2019,
    normalize_smd,
)
from markergen.runtime.table import Table, TypeInfo, Union
from markergen.runtime.tree import JSON, ROOT, Path, Visit, children, deep_copy


def normalize(table: Table, type_name: str, old: JSON, new: JSON) -> JSON:
    """Return `new` with its unions normalized against `old` (None on create).

    Neither input is changed. Raises UnionError when a union cannot be normalized (only the
    smd semantics fails here; the others leave conflicts to validate()).
    """
    info = table.type(type_name)
    out = deep_copy(new)
    errors: list[FieldError] = []
    if not info.has_children:
        # one object, no walk (the usual shape of a union's own type)
        if info.unions and isinstance(out, dict):
            _normalize_object(info, ROOT, old, out, errors)
            if errors:
                raise UnionError(errors)
        return out
    stack = [Visit(ROOT, info, old, out)]
    while stack:
        v = stack.pop()
        if not isinstance(v.new, dict):
            continue  # wrong shape: left as it is, validate() reports it
        if v.info.unions:
            _normalize_object(v.info, v.path, v.old, v.new, errors)
        _push_children(table, v, stack)
    if errors:
        raise UnionError(errors)
    return out


def _normalize_object(
    info: TypeInfo, path: Path, old: JSON, obj: dict[str, JSON], errors: list[FieldError]
) -> None:
    old_obj = old if isinstance(old, dict) else None
    for name, value in info.defaults:
        # the API server stores the default it filled in; `obj` is normalize's own copy
        if obj.get(name) is None:
            obj[name] = value
    if info.defaults and old_obj is not None:
        old_obj = info.defaulted(old_obj)
    for union in info.unions:
        _normalize_union(union, path, old_obj, obj, errors)


def _normalize_union(
    union: Union,
    path: Path,
    old: dict[str, JSON] | None,
    obj: dict[str, JSON],
    errors: list[FieldError],
) -> None:
    """The union's normalization rules (semantics.py)."""
    semantics = union.semantics
    if semantics == "k8s":
        return  # declarative validation only validates: it never clears a member
    if semantics == "kep1027":
        normalize_kep1027(union, old, obj)
    elif semantics == "kep2019":
        normalize_kep2019(union, old, obj)
    else:
        errors.extend(normalize_smd(union, old, obj, path))


def normalize_apply(table: Table, type_name: str, applied: JSON, merged: JSON) -> JSON:
    """Return `merged` (the live object with an apply configuration merged in) normalized
    by what the configuration `applied` says. Inputs are not changed."""
    info = table.type(type_name)
    out = deep_copy(merged)
    errors: list[FieldError] = []
    stack = [Visit(ROOT, info, applied, out)]
    while stack:
        v = stack.pop()
        if not isinstance(v.new, dict):
            continue
        if isinstance(v.old, dict):
            for union in v.info.unions:
                if union.semantics == "k8s":
                    continue
                if union.semantics == "kep1027":
                    normalize_apply_kep1027(union, v.old, v.new)
                elif union.semantics == "kep2019":
                    normalize_apply_kep2019(union, v.old, v.new)
                else:
                    errors.extend(normalize_apply_smd(union, v.old, v.new, v.path))
        _push_children(table, v, stack)
    if errors:
        raise UnionError(errors)
    return out


def _push_children(table: Table, v: Visit, stack: list[Visit]) -> None:
    assert isinstance(v.new, dict)
    if not v.info.has_children:
        return
    found = [c for c in children(table, v.info, v.path, v.old, v.new) if isinstance(c, Visit)]
    # reversed so that the stack pops children in field order: errors come out in order
    stack.extend(reversed(found))
