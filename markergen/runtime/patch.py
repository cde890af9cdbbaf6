"""apply_patch(): the part of strategic merge patch that the retainKeys proposal (`$retainKeys`) needs.

Supported: objects merge recursively, `null` deletes a key, lists whose field has the
`merge` patch strategy and a merge key merge element by element, other lists are replaced,
and `$retainKeys` on fields whose patch strategy includes `retainKeys`.
"""

from __future__ import annotations

from dataclasses import dataclass

from markergen.runtime.errors import FieldError, UnionError, quote
from markergen.runtime.table import FieldInfo, Table, TypeInfo
from markergen.runtime.tree import JSON, ROOT, Path, deep_copy, element_key, key_text

RETAIN_KEYS = "$retainKeys"


@dataclass(frozen=True)
class _Job:
    """Merge `patch` into `target` (a private copy that ends up in the result)."""

    path: Path
    info: TypeInfo | None
    target: dict[str, JSON]
    patch: dict[str, JSON]
    retain_allowed: bool


def apply_patch(table: Table, type_name: str, live: JSON, patch: JSON) -> JSON:
    """Return `live` with the strategic-merge `patch` applied; inputs are not changed.

    Raises UnionError with Invalid errors for a patch the retainKeys proposal rejects (a field missing from
    `$retainKeys`, a `$retainKeys` that is not a list of strings or where the field's patch
    strategy does not allow it).
    """
    info = table.type(type_name)
    if not isinstance(patch, dict):
        raise UnionError([FieldError("", "Invalid", f"{quote(patch)}: a patch must be an object")])
    out: dict[str, JSON] = deep_copy(live) if isinstance(live, dict) else {}
    errors: list[FieldError] = []
    stack = [_Job(ROOT, info, out, patch, False)]
    while stack:
        job = stack.pop()
        errors.extend(_merge_object(table, job, stack))
    if errors:
        raise UnionError(errors)
    return out


def _retained(job: _Job) -> tuple[set[str] | None, list[FieldError]]:
    """The `$retainKeys` list of a patch object (None when there is none) and its errors."""
    if RETAIN_KEYS not in job.patch:
        return None, []
    where = job.path.field(RETAIN_KEYS).render()
    raw = job.patch[RETAIN_KEYS]
    if not job.retain_allowed:
        msg = f"{quote(RETAIN_KEYS)}: only allowed where the patch strategy includes retainKeys"
        return None, [FieldError(where, "Invalid", msg)]
    if not isinstance(raw, list) or not all(isinstance(k, str) for k in raw):
        return None, [FieldError(where, "Invalid", f"{quote(raw)}: must be a list of strings")]
    keys = set(raw)
    missing = sorted(k for k in job.patch if not k.startswith("$") and k not in keys)
    errors = [
        FieldError(
            job.path.field(k).render(),
            "Invalid",
            f"{quote(k)}: is in the patch but not in $retainKeys",
        )
        for k in missing
    ]
    return keys, errors


def _merge_object(table: Table, job: _Job, stack: list[_Job]) -> list[FieldError]:
    keys, errors = _retained(job)
    if errors:
        return errors
    if keys is not None:
        # the retainKeys proposal: fields missing from $retainKeys are cleared, the listed ones merged
        for k in [k for k in job.target if k not in keys]:
            del job.target[k]
    for k, pv in job.patch.items():
        if k.startswith("$"):
            continue
        if pv is None:
            job.target.pop(k, None)
            continue
        f = job.info.fields.get(k) if job.info is not None else None
        strategies = job.info.strategies(k) if job.info is not None else ()
        lv = job.target.get(k)
        if isinstance(pv, dict) and (f is None or f.kind in ("object", "map")):
            child = lv if isinstance(lv, dict) else {}
            job.target[k] = child
            sub = table.lookup(f.type) if f is not None and f.kind == "object" else None
            if f is not None and f.kind == "map":
                errors.extend(_merge_map(table, f, job.path.field(k), child, pv, stack))
            else:
                stack.append(_Job(job.path.field(k), sub, child, pv, "retainKeys" in strategies))
        elif (
            isinstance(pv, list)
            and f is not None
            and f.kind == "list"
            and "merge" in strategies
            and f.merge_keys
        ):
            errors.extend(_merge_list(table, f, strategies, job, k, pv, stack))
        else:
            job.target[k] = _strip_directives(pv)
    return errors


def _merge_map(
    table: Table,
    f: FieldInfo,
    path: Path,
    target: dict[str, JSON],
    patch: dict[str, JSON],
    stack: list[_Job],
) -> list[FieldError]:
    sub = table.lookup(f.type)
    for k, pv in patch.items():
        if pv is None:
            target.pop(k, None)
        elif isinstance(pv, dict) and sub is not None:
            lv = target.get(k)
            child = lv if isinstance(lv, dict) else {}
            target[k] = child
            stack.append(_Job(path.key(k), sub, child, pv, False))
        else:
            target[k] = _strip_directives(pv)
    return []


def _merge_list(
    table: Table,
    f: FieldInfo,
    strategies: tuple[str, ...],
    job: _Job,
    name: str,
    patch: list[JSON],
    stack: list[_Job],
) -> list[FieldError]:
    keys = f.merge_keys
    live = job.target.get(name)
    items: list[JSON] = live if isinstance(live, list) else []
    job.target[name] = items
    index = {element_key(e, keys): e for e in items if element_key(e, keys) is not None}
    sub = table.lookup(f.type)
    errors: list[FieldError] = []
    for i, pe in enumerate(patch):
        k = element_key(pe, keys)
        if k is None or not isinstance(pe, dict):
            errors.append(
                FieldError(
                    job.path.field(name).index(i).render(),
                    "Invalid",
                    f"{quote(pe)}: list element needs the merge key {', '.join(keys)}",
                )
            )
            continue
        target = index.get(k)
        if not isinstance(target, dict):
            target = {}
            items.append(target)
            index[k] = target
        path = job.path.field(name).key(key_text(pe, keys))
        stack.append(_Job(path, sub, target, pe, "retainKeys" in strategies))
    return errors


def _strip_directives(value: JSON) -> JSON:
    """A replaced value is stored as sent, minus `$` directives, which are never data."""
    out = deep_copy(value)
    stack = [out]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            for k in [k for k in v if isinstance(k, str) and k.startswith("$")]:
                del v[k]
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out
