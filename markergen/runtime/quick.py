"""Each union's checks and normalization compiled at load into closures over plain values.

The reference rules are the functions of `semantics.py` and `validate.py`; they build
every error message. The closures here answer the common case with a few dict look-ups
and no allocation:

- `valid(old, obj)` is True only when the reference validation of the union reports
  nothing. False means "ask the reference": it may be conservative, never wrong the
  other way, so no error, path or message is built for an object that has none.
- `normalize(old, obj)` does the reference normalization and returns True, or returns
  False without having changed `obj`, and the reference code runs (the smd rules fail
  there and build their errors).

`old` is the old object or None. tests/test_runtime_quick.py holds both to the reference
on generated tables and objects. table.py compiles a union when it is created, so this
module names what it reads of a union (`CompiledUnion`) instead of importing table.py.

The member loops are written out in each closure on purpose: a shared helper costs a
call and a tuple per object, 6-15% of the closures' rate (measured when tried).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from markergen.runtime.values import Scalar


class _Member(Protocol):
    @property
    def field(self) -> str: ...
    @property
    def value(self) -> Scalar: ...
    @property
    def optional(self) -> bool: ...


class CompiledUnion(Protocol):
    """What the closures read of a `table.Union`."""

    @property
    def semantics(self) -> str: ...
    @property
    def discriminator(self) -> str | None: ...
    @property
    def discriminator_required(self) -> bool: ...
    @property
    def values(self) -> Sequence[Scalar]: ...
    @property
    def members(self) -> Sequence[_Member]: ...
    @property
    def mode(self) -> str: ...
    @property
    def deduce_invalid_discriminator(self) -> bool: ...
    @property
    def at(self) -> Sequence[str]: ...
    @property
    def value_type(self) -> str: ...
    @property
    def fields(self) -> Sequence[str]: ...


Obj = dict[str, Any]
Valid = Callable[[Obj | None, Obj], bool]
Normalize = Callable[[Obj | None, Obj], bool]


def _compiled(union: CompiledUnion) -> bool:
    # Discriminators of another JSON type (`valueType`) and unions below the object
    # (validation-gen's path wrappers, `at`) are rare: the reference code serves them.
    return union.value_type == "string" and not union.at


def compile_valid(union: CompiledUnion) -> Valid | None:
    """The union's quick validity check, or None where only the reference code checks."""
    if not _compiled(union):
        return None
    if union.semantics in ("smd", "kep2019"):
        return _at_most_one_valid(union)
    if union.semantics == "kep1027":
        return _kep1027_valid(union)
    return None


def compile_normalize(union: CompiledUnion) -> Normalize | None:
    """The union's quick normalization, or None where only the reference code runs."""
    if union.discriminator is None or not _compiled(union):
        return None  # no discriminator: the reference code is already a count
    if union.semantics == "smd":
        return _smd_normalize(union)
    if union.semantics == "kep2019":
        return _kep2019_normalize(union)
    if union.semantics == "kep1027":
        return _kep1027_normalize(union)
    return None


def _field_of(union: CompiledUnion) -> dict[Scalar, str]:
    """value → the field of the first member with it (as Union.member_for_value)."""
    field_of: dict[Scalar, str] = {}
    for m in union.members:
        field_of.setdefault(m.value, m.field)
    return field_of


def _count_valid(union: CompiledUnion) -> Valid:
    """validate._undiscriminated: how many members are set, against the mode."""
    fields = union.fields
    several_ok = union.mode == "at-least-one"
    none_ok = union.mode == "at-most-one"

    def valid(old: Obj | None, obj: Obj) -> bool:
        get = obj.get
        n = 0
        for f in fields:
            if get(f) is not None:
                n += 1
        if n > 1:
            return several_ok
        return n == 1 or none_ok

    return valid


def _at_most_one_valid(union: CompiledUnion) -> Valid:
    """validate._at_most_one_with_discriminator (kep2019 and smd)."""
    if union.discriminator is None:
        return _count_valid(union)
    d = union.discriminator
    fields = union.fields
    several_ok = union.mode == "at-least-one"
    none_ok = union.mode == "at-most-one"
    required = union.discriminator_required
    values = frozenset(union.values)
    # the discriminator value a member set alone demands; None: a value no enum value
    # allows can never be named, and is not checked
    demands: dict[str, Scalar | None] = {
        m.field: m.value if not values or m.value in values else None for m in union.members
    }

    def valid(old: Obj | None, obj: Obj) -> bool:
        get = obj.get
        n = 0
        last = ""
        for f in fields:
            if get(f) is not None:
                n += 1
                last = f
        if n > 1:
            if not several_ok:
                return False
        elif n == 0 and not none_ok:
            return False
        v = get(d)
        if v is None:
            return not required
        if not isinstance(v, str):
            return False
        if values:
            if v not in values:
                return False
        elif required and v == "":
            return False
        if n == 1 and v:
            want = demands[last]
            return want is None or want == v
        return True

    return valid


def _kep1027_valid(union: CompiledUnion) -> Valid:
    """validate._kep1027: the discriminator, and the one member it selects."""
    if union.discriminator is None:
        return _count_valid(union)
    d = union.discriminator
    fields = union.fields
    required = union.discriminator_required
    values = frozenset(union.values)
    selects: dict[Scalar, str] = {}  # value → the field of the first member with it
    needs: dict[Scalar, str] = {}  # value → that field, when the member is not optional
    for m in union.members:
        if m.value not in selects:
            selects[m.value] = m.field
            if not m.optional:
                needs[m.value] = m.field

    def valid(old: Obj | None, obj: Obj) -> bool:
        get = obj.get
        v = get(d)
        if v is None:
            if required:
                return False
            v = ""
        elif not isinstance(v, str):
            return False
        elif values:
            if v not in values:
                return False
        elif required and v == "":
            return False
        n = 0
        last = ""
        for f in fields:
            if get(f) is not None:
                n += 1
                last = f
        if n == 0:
            return v not in needs
        # one member set: it must be the selected one; several: the reference decides
        return n == 1 and selects.get(v) == last

    return valid


def _smd_normalize(union: CompiledUnion) -> Normalize:
    """semantics.normalize_smd; False (nothing changed) where it fails or a discriminator
    is not a string."""
    d = union.discriminator
    assert d is not None
    fields = union.fields
    deduce = union.deduce_invalid_discriminator
    value_of = {m.field: m.value for m in union.members}
    field_of = _field_of(union)

    def normalize(old: Obj | None, obj: Obj) -> bool:
        get = obj.get
        after = get(d)
        if after is None:
            after = ""
        elif not isinstance(after, str):
            return False
        before: Any = "" if old is None else old.get(d)
        if before is None:
            before = ""
        elif not isinstance(before, str):
            return False
        if after and before != after:
            added = 0
            last = ""
            if old is None:
                for f in fields:
                    if get(f) is not None:
                        added += 1
                        last = f
            else:
                oget = old.get
                for f in fields:
                    if get(f) is not None and oget(f) is None:
                        added += 1
                        last = f
            if added > 1 or (added == 1 and after != value_of[last]):
                return False
            keep = field_of.get(after, after)
            for f in fields:
                if f != keep and get(f) is not None:
                    del obj[f]
            return True
        n = 0
        last = ""
        for f in fields:
            if get(f) is not None:
                n += 1
                last = f
        if n > 1:
            return False
        if deduce and n == 1:
            obj[d] = value_of[last]
        return True

    return normalize


def _kep2019_normalize(union: CompiledUnion) -> Normalize:
    """semantics.normalize_kep2019, every branch (it never fails)."""
    d = union.discriminator
    assert d is not None
    fields = union.fields
    value_of = {m.field: m.value for m in union.members}
    field_of = _field_of(union)

    def normalize(old: Obj | None, obj: Obj) -> bool:
        get = obj.get
        after = get(d)
        if isinstance(after, str) and after:
            before: Any = "" if old is None else old.get(d)
            if before is None:
                before = ""
            elif not isinstance(before, str):
                before = None
            if after != before:
                keep = field_of.get(after)
                for f in fields:
                    if f != keep and get(f) is not None:
                        del obj[f]
                return True
        n = 0
        last = ""
        for f in fields:
            if get(f) is not None:
                n += 1
                last = f
        if n == 1:
            obj[d] = value_of[last]
            return True
        if n == 0:
            return True
        if old is None:
            return True  # several members, all of them new: left for validation
        added = 0
        oget = old.get
        for f in fields:
            if get(f) is not None and oget(f) is None:
                added += 1
                last = f
        if added == 1:
            obj[d] = value_of[last]
            for f in fields:
                if f != last and get(f) is not None:
                    del obj[f]
        return True

    return normalize


def _kep1027_normalize(union: CompiledUnion) -> Normalize:
    """semantics.normalize_kep1027: a changed, known discriminator clears the other members."""
    d = union.discriminator
    assert d is not None
    fields = union.fields
    enum = frozenset(union.values)
    field_of = _field_of(union)

    def normalize(old: Obj | None, obj: Obj) -> bool:
        if old is None:
            return True
        after = obj.get(d)
        if after is None:
            after = ""
        elif not isinstance(after, str):
            return True
        before: Any = old.get(d)
        if before is None:
            before = ""
        elif not isinstance(before, str):
            before = None
        if before == after:
            return True
        if enum:
            if after not in enum:
                return True
        elif after and after not in field_of:
            return True
        keep = field_of.get(after)
        get = obj.get
        for f in fields:
            if f != keep and get(f) is not None:
                del obj[f]
        return True

    return normalize
