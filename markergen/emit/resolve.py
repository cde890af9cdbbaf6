"""Type resolution shared by the renderers: what a field's Go type is, for a schema.

Named non-struct types are expanded to their underlying type, as openapi-gen does for
gengo "alias" kinds (`type Mode string` becomes a string property). The first enum type
met on the way (directly or through pointers) is kept, so its values can be attached.
"""

from __future__ import annotations

from markergen.model import Enum, Model, TypeRef

META_V1 = "k8s.io/apimachinery/pkg/apis/meta/v1"
BYTE_NAMES = frozenset({"byte", "uint8"})
# Inlined embedded structs are merged at most this many levels deep. Every level of a
# chain is walked again for each struct above it, so an unbounded chain (machine-made
# code 10,000 levels deep) would cost quadratic time and recursion depth; real APIs
# inline two or three levels.
MAX_INLINE_DEPTH = 64


def unwrap(model: Model, ref: TypeRef) -> tuple[TypeRef, Enum | None]:
    """Strip pointers and expand named non-struct types; returns the enum met first."""
    if ref.kind == "builtin":
        return ref, None  # most properties: nothing to strip or expand
    enum: Enum | None = None
    seen: set[str] = set()
    while True:
        if ref.kind == "pointer" and ref.elem is not None:
            ref = ref.elem
            continue
        if ref.kind in ("named", "external") and ref.type_key not in model.structs:
            key = ref.type_key
            # An external type is looked through only when it is an imported enum type
            # (`corev1.Protocol`): its values and underlying type come from its package.
            named = model.types.get(key) if ref.kind == "named" else model.imported.get(key)
            if named is None and ref.kind == "external":
                return ref, enum
            if enum is None and key in model.enums:
                enum = model.enums[key]
            if named is not None and key not in seen:
                seen.add(key)
                ref = named.underlying
                continue
        return ref, enum


def is_byte_slice(model: Model, ref: TypeRef) -> bool:
    if ref.kind != "slice" or ref.elem is None:
        return False
    elem, _ = unwrap(model, ref.elem)
    return elem.kind == "builtin" and elem.name in BYTE_NAMES and ref.elem.kind != "pointer"


def inline_struct_key(model: Model, ref: TypeRef) -> str | None:
    """The struct an inlined embedded field brings in (through pointers), if known."""
    target, _ = unwrap(model, ref)
    if target.kind == "named" and target.type_key in model.structs:
        return target.type_key
    return None
