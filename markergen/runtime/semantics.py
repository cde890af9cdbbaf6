"""Normalization of one union at one object, for each of the three semantics.

Each function changes `obj` (a private copy owned by the caller) in place and returns the
errors it found; smd is the only semantics whose normalization itself can fail.
"""

from __future__ import annotations

from markergen.runtime.errors import FieldError
from markergen.runtime.table import Scalar, Union, as_value_type
from markergen.runtime.tree import JSON, Path


def discriminator_value(obj: dict[str, JSON] | None, union: Union) -> Scalar | None:
    """The discriminator's value: "" when unset or null (unset and "" are equal), None when
    it holds something other than a value of the union's type (a string for string
    discriminators; for `valueType: integer` a number with no fraction, never the string
    "1"; for `boolean` true or false)."""
    if obj is None or union.discriminator is None:
        return ""
    v = obj.get(union.discriminator)
    if v is None:
        return ""
    if union.value_type == "string":  # the usual type: no call
        return v if isinstance(v, str) else None
    return as_value_type(v, union.value_type)


def set_members(obj: dict[str, JSON] | None, union: Union) -> list[str]:
    """JSON names of the members that are set (present and not null), in the table's
    member order."""
    if obj is None:
        return []
    get = obj.get
    return [f for f in union.fields if get(f) is not None]


def _clear_except(obj: dict[str, JSON], union: Union, keep: set[str]) -> None:
    # A null member is already unset; leaving it as it is keeps normalization idempotent
    # (deleting it only on a second pass would make the two passes differ).
    for m in union.members:
        if m.field not in keep and obj.get(m.field) is not None:
            del obj[m.field]


# the current KEP "Normalization": respect the discriminator, and only when it was modified.
def normalize_kep1027(union: Union, old: dict[str, JSON] | None, obj: dict[str, JSON]) -> None:
    if old is None or union.discriminator is None:
        return  # on create, and for undiscriminated unions, there is nothing to respect
    before = discriminator_value(old, union)
    after = discriminator_value(obj, union)
    if after is None or before == after:
        return
    if not union.is_known_value(after):
        return  # an unknown value clears nothing; validation reports it (the current KEP #34/#39)
    selected = union.member_for_value(after)
    _clear_except(obj, union, {selected.field} if selected else set())


# the 2019 KEP "Normalizing on updates", every branch.
def normalize_kep2019(union: Union, old: dict[str, JSON] | None, obj: dict[str, JSON]) -> None:
    d = union.discriminator
    before = discriminator_value(old, union)
    after = discriminator_value(obj, union)
    # Removing the discriminator is not a new value: a client that does not know the
    # discriminator drops it, and that must not clear the union (the 2019 KEP "dumb client").
    if d is not None and after is not None and after != "" and after != before:
        selected = union.member_for_value(after)
        _clear_except(obj, union, {selected.field} if selected else set())
        return
    now = set_members(obj, union)
    if len(now) == 1:
        _set_discriminator(obj, union, now[0])
        return
    was = set(set_members(old, union))
    added = [f for f in now if f not in was]
    if len(added) == 1:
        _set_discriminator(obj, union, added[0])
        _clear_except(obj, union, {added[0]})
    # several added: left for validation ("at most one")


def _set_discriminator(obj: dict[str, JSON], union: Union, field: str) -> None:
    member = union.member_for_field(field)
    if union.discriminator is not None and member is not None:
        obj[union.discriminator] = member.value


def _smd_value(obj: dict[str, JSON] | None, union: Union) -> str:
    # smd reads a non-string discriminator as unset
    v = discriminator_value(obj, union)
    return v if isinstance(v, str) else ""


def _smd_field_for(union: Union, value: str) -> str:
    # smd's toField: a value no member claims is taken as a field name itself
    m = union.member_for_value(value)
    return m.field if m else value


def _smd_value_for(union: Union, field: str) -> Scalar:
    m = union.member_for_field(field)
    return m.value if m else field


def _smd_set_discriminator(obj: dict[str, JSON], union: Union, field: str) -> None:
    if union.discriminator is not None:
        obj[union.discriminator] = _smd_value_for(union, field)


def _names(fields: list[str]) -> str:
    # smd prints a Go map here (random order); we sort so messages are deterministic
    return ", ".join(sorted(fields))


# structured-merge-diff 4.1.2 typed/union.go, (*union).Normalize
def normalize_smd(
    union: Union, old: dict[str, JSON] | None, obj: dict[str, JSON], path: Path
) -> list[FieldError]:
    now = set_members(obj, union)
    before, after = _smd_value(old, union), _smd_value(obj, union)
    if before != after and after != "":
        was = set_members(old, union)
        added = [f for f in now if f not in was]
        if len(added) == 1 and after != _smd_value_for(union, added[0]):
            msg = f"discriminator ({after}) and field changed ({added[0]}) don't match"
            return [FieldError(path.render(), "Invalid", msg)]
        if len(added) > 1:
            return [
                FieldError(path.render(), "Invalid", f"multiple new fields added: {_names(added)}")
            ]
        _clear_except(obj, union, {_smd_field_for(union, after)})
        return []
    if len(now) > 1:
        msg = f"multiple fields set without discriminator change: {_names(now)}"
        return [FieldError(path.render(), "Invalid", msg)]
    if union.deduce_invalid_discriminator and len(now) == 1:
        _smd_set_discriminator(obj, union, now[0])
    return []


# structured-merge-diff 4.1.2 typed/union.go, (*union).NormalizeApply
def normalize_apply_smd(
    union: Union, applied: dict[str, JSON], obj: dict[str, JSON], path: Path
) -> list[FieldError]:
    sent = set_members(applied, union)
    if len(sent) > 1:
        return [
            FieldError(
                path.render(), "Invalid", f"more than one field of union applied: {_names(sent)}"
            )
        ]
    if not sent:
        return []
    value = _smd_value(applied, union)
    if value != "" and value != _smd_value_for(union, sent[0]):
        msg = f"applied discriminator ({value}) doesn't match applied field ({sent[0]})"
        return [FieldError(path.render(), "Invalid", msg)]
    if union.deduce_invalid_discriminator:
        _smd_set_discriminator(obj, union, sent[0])
    _clear_except(obj, union, {sent[0]})
    return []


def normalize_apply_kep1027(union: Union, applied: dict[str, JSON], obj: dict[str, JSON]) -> None:
    """An apply configuration that states the discriminator states the applier's intent:
    clear the members it does not select. Members the applier sent itself are kept, so
    a contradictory configuration fails validation instead of losing what was sent."""
    if union.discriminator is None or union.discriminator not in applied:
        return
    value = discriminator_value(applied, union)
    if value is None or not union.is_known_value(value):
        return
    selected = union.member_for_value(value)
    keep = set(set_members(applied, union))
    if selected is not None:
        keep.add(selected.field)
    _clear_except(obj, union, keep)


def normalize_apply_kep2019(union: Union, applied: dict[str, JSON], obj: dict[str, JSON]) -> None:
    """The 2019 KEP on apply: the configuration is the change. One member sent → it wins and sets
    the discriminator; none sent but a discriminator value → clear all but the one it names;
    several sent → left for validation."""
    sent = set_members(applied, union)
    if len(sent) == 1:
        _set_discriminator(obj, union, sent[0])
        _clear_except(obj, union, {sent[0]})
        return
    if sent:
        return
    value = discriminator_value(applied, union)
    if union.discriminator is not None and value:
        selected = union.member_for_value(value)
        _clear_except(obj, union, {selected.field} if selected else set())
