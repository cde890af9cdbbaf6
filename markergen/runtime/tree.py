"""Iterative helpers over JSON-like values: copying, paths and the table-driven walk.

Everything here uses an explicit stack, because API objects can be nested deeper than
Python's recursion limit (a recursive type 10,000 levels deep must not raise RecursionError).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from markergen.runtime.table import FieldInfo, Table, TypeInfo
from markergen.runtime.values import JSON as JSON

# Values that are never copied; any other type (a subclass included) takes the full path.
_SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))


def deep_copy(value: JSON) -> JSON:
    """Copy dicts and lists at any depth; other values are immutable JSON scalars."""
    if type(value) is dict and _SCALAR_TYPES.issuperset(map(type, value.values())):
        return value.copy()  # a flat object, the common case: one C-level copy
    if not isinstance(value, dict | list):
        return value
    root: JSON = {} if isinstance(value, dict) else []
    stack: list[tuple[JSON, JSON]] = [(value, root)]
    while stack:
        src, dst = stack.pop()
        if isinstance(src, dict):
            for k, v in src.items():
                if isinstance(v, dict | list):
                    child: JSON = {} if isinstance(v, dict) else []
                    dst[k] = child
                    stack.append((v, child))
                else:
                    dst[k] = v
        else:
            for v in src:
                if isinstance(v, dict | list):
                    child = {} if isinstance(v, dict) else []
                    dst.append(child)
                    stack.append((v, child))
                else:
                    dst.append(v)
    return root


@dataclass(frozen=True)
class Path:
    """A path as a chain of segments; linked so that descending costs O(1) at any depth."""

    parent: Path | None
    segment: str  # ".name", "[2]", "[name=foo]" or "[key]"

    def field(self, name: str) -> Path:
        return Path(self, "." + name)

    def index(self, i: int) -> Path:
        return Path(self, f"[{i}]")

    def key(self, text: str) -> Path:
        return Path(self, f"[{text}]")

    def render(self) -> str:
        if self.parent is None:
            return self.segment.removeprefix(".")  # the root: most union errors are there
        parts: list[str] = []
        node: Path | None = self
        while node is not None:
            parts.append(node.segment)
            node = node.parent
        return "".join(reversed(parts)).removeprefix(".")


ROOT = Path(None, "")


def is_set(obj: dict[str, JSON], name: str) -> bool:
    """A member is set when its key is present and not null; `{}` and `[]` count as set (smd)."""
    return obj.get(name) is not None


def _scalar_key(value: JSON) -> bool:
    return isinstance(value, str | int | float | bool) or value is None


def element_key(elem: JSON, keys: tuple[str, ...]) -> tuple[JSON, ...] | None:
    """The list-map key of a list element, or None when it has no usable key."""
    if not isinstance(elem, dict):
        return None
    out = []
    for k in keys:
        v = elem.get(k)
        if not _scalar_key(v) or (isinstance(v, float) and v != v):
            return None
        # bool is an int in Python; tag the kind so True and 1 are different keys
        out.append((type(v).__name__, v))
    return tuple(out)


def key_text(elem: dict[str, JSON], keys: tuple[str, ...]) -> str:
    return ",".join(f"{k}={_scalar_text(elem.get(k))}" for k in keys)


def _scalar_text(v: JSON) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@dataclass(frozen=True)
class Visit:
    """One object reached by the walk: where, which type, its old counterpart if any."""

    path: Path
    info: TypeInfo
    old: JSON  # the paired old value (anything, or None when there is none)
    new: JSON  # the value itself (anything: callers check it is a dict)


def children(
    table: Table, info: TypeInfo, path: Path, old: JSON, new: dict[str, JSON]
) -> Iterator[Visit | tuple[Path, str, JSON]]:
    """The typed children of an object, paired with their old counterparts.

    Yields a Visit for each value whose type the table describes, and
    (path, expected kind, value) for a container of the wrong shape (a list where a map
    belongs, ...), so validate can report it and normalize can skip it.
    """
    old_obj = old if isinstance(old, dict) else None
    for name, f in info.fields.items():
        value = new.get(name)
        if value is None or f.kind == "scalar":
            continue
        old_value = old_obj.get(name) if old_obj is not None else None
        fpath = path.field(name)
        if f.kind == "object":
            sub = table.lookup(f.type)
            if sub is not None:
                yield Visit(fpath, sub, old_value, value)
        elif f.kind == "list":
            if not isinstance(value, list):
                yield (fpath, "array", value)
                continue
            yield from _list_children(table, f, fpath, old_value, value)
        else:
            if not isinstance(value, dict):
                yield (fpath, "object", value)
                continue
            sub = table.lookup(f.type)
            if sub is None:
                continue
            old_map = old_value if isinstance(old_value, dict) else {}
            for k, v in value.items():
                if v is not None:
                    yield Visit(fpath.key(str(k)), sub, old_map.get(k), v)


def _list_children(
    table: Table, f: FieldInfo, path: Path, old: JSON, items: list[JSON]
) -> Iterator[Visit | tuple[Path, str, JSON]]:
    sub = table.lookup(f.type)
    if sub is None:
        return
    old_items = old if isinstance(old, list) else []
    keys = f.merge_keys
    by_key: dict[tuple[JSON, ...], JSON] = {}
    if keys:
        for o in old_items:
            k = element_key(o, keys)
            if k is not None:
                by_key.setdefault(k, o)
    for i, item in enumerate(items):
        if item is None:
            continue
        if keys:
            k = element_key(item, keys)
            old_item = by_key.get(k) if k is not None else None
            epath = path.key(key_text(item, keys)) if k is not None else path.index(i)
        else:
            old_item = old_items[i] if i < len(old_items) else None
            epath = path.index(i)
        yield Visit(epath, sub, old_item, item)
