"""validate(): union rules of every object reachable from a type, as Kubernetes field errors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from markergen.runtime.errors import FieldError, quote
from markergen.runtime.k8s import targets, validate_k8s
from markergen.runtime.k8s_enums import validate_enums
from markergen.runtime.k8s_modes import validate_modes
from markergen.runtime.semantics import discriminator_value, set_members
from markergen.runtime.table import FieldInfo, Scalar, Table, TypeInfo, Union, as_value_type
from markergen.runtime.tree import JSON, ROOT, Path, Visit, children


def validate(
    table: Table,
    type_name: str,
    obj: JSON,
    old: JSON = None,
    options: frozenset[str] = frozenset(),
) -> list[FieldError]:
    """Check `obj` (after normalization); `old` is the stored object on update, else None.

    `options` are the enabled option names (feature gates) that decide the unions written
    inside `+k8s:ifEnabled(G)=` / `+k8s:ifDisabled(G)=`; none enabled by default.

    Never raises for a bad object: every problem, including values of the wrong JSON type
    where the table expects an object or a list, is a FieldError.
    """
    info = table.type(type_name)
    errors: list[FieldError] = []
    if not info.has_children and isinstance(obj, dict):
        # one object, no walk (the usual shape of a union's own type)
        if info.unions or info.enum_fields:
            _check_object(table, info, ROOT, old, obj, options, errors)
        return errors
    # errors for containers of the wrong shape travel on the stack too, so that every
    # error comes out in document order
    stack: list[Visit | FieldError] = [Visit(ROOT, info, old, obj)]
    while stack:
        v = stack.pop()
        if isinstance(v, FieldError):
            errors.append(v)
            continue
        if not isinstance(v.new, dict):
            errors.append(
                FieldError(v.path.render(), "Invalid", f"{quote(v.new)}: must be an object")
            )
            continue
        if v.info.unions or v.info.enum_fields:
            _check_object(table, v.info, v.path, v.old, v.new, options, errors)
        if not v.info.has_children:
            continue
        found: list[Visit | FieldError] = []
        for c in children(table, v.info, v.path, v.old, v.new):
            if isinstance(c, Visit):
                found.append(c)
            else:
                path, kind, value = c
                found.append(
                    FieldError(path.render(), "Invalid", f"{quote(value)}: must be an {kind}")
                )
        stack.extend(reversed(found))
    return errors


def _check_object(
    table: Table,
    info: TypeInfo,
    path: Path,
    old: JSON,
    obj: dict[str, JSON],
    options: frozenset[str],
    errors: list[FieldError],
) -> None:
    """The union checks of one object: every check of an object belongs here, the
    walk above only finds the objects."""
    old_obj = old if isinstance(old, dict) else None
    if info.defaults:
        obj = info.defaulted(obj)
        old_obj = info.defaulted(old_obj) if old_obj is not None else None
    reported: list[str] = []  # discriminators whose enum a union check reports
    for union in info.unions:
        if union.gate and not union.applies(options):
            continue
        if union.semantics != "k8s" and union.discriminator and union.values:
            reported.append(union.discriminator)
        if union.at:
            # written through validation-gen's path wrappers: its semantics only
            k8s_errors = []
            for tpath, told, tnew, kinds in targets(table, info, union, path, old_obj, obj):
                k8s_errors.extend(validate_k8s(union, tpath, told, tnew, kinds))
            errors.extend(_staged(k8s_errors, union.stage))
        elif union.semantics == "k8s" and union.modes:
            # validation-gen's mode unions require no discriminator (its tags/mode tests)
            errors.extend(_k8s_discriminator(union, path, old_obj, obj, info.fields, False))
            errors.extend(validate_modes(union, path, old_obj, obj, info.fields))
        elif union.semantics == "k8s":
            errors.extend(_k8s_discriminator(union, path, old_obj, obj, info.fields))
            errors.extend(
                _staged(validate_k8s(union, path, old_obj, obj, info.fields), union.stage)
            )
        elif union.semantics == "kep1027":
            errors.extend(_kep1027(union, path, old_obj, obj))
        else:
            errors.extend(_at_most_one_with_discriminator(union, path, obj))
    if info.enum_fields:
        skip = frozenset(reported)
        errors.extend(
            validate_enums(info.enum_fields, table.enums, path, old_obj, obj, options, skip)
        )


_A = {"string": "a string", "boolean": "a boolean", "integer": "an integer",
      "number": "a number"}  # fmt: skip


def _staged(errors: list[FieldError], stage: str) -> list[FieldError]:
    """validation-gen's `MarkAlpha()` / `MarkBeta()` on a wrapped union's errors."""
    return [replace(e, stage=stage) for e in errors] if stage else errors


def _k8s_discriminator(
    union: Union,
    path: Path,
    old: dict[str, JSON] | None,
    obj: dict[str, JSON],
    fields: Mapping[str, FieldInfo],
    required: bool = True,
) -> list[FieldError]:
    """The discriminator's own errors in a `k8s` union: a value of another JSON type than
    the discriminator's (`Invalid`: the CRD's schema type; Go cannot decode it), and a
    required discriminator left unset, as the CRD rejects it: absent or null (its
    `required` list), or `""` when the union's values leave `""` out (its enum; for a
    `+k8s:required` value field validation-gen's `RequiredValue` says the same). An
    unchanged discriminator on update ratchets, as declarative validation does."""
    d = union.discriminator
    if d is None:
        return []
    value = obj.get(d)
    want = "boolean" if union.discriminator_type == "bool" else "string"
    if value is not None and as_value_type(value, want) is None:
        message = f"{quote(value)}: must be {_A[want]}"
        return [FieldError(path.field(d).render(), "Invalid", message)]
    if not (required and union.discriminator_required):
        return []
    f = fields.get(d)
    empty = value == "" and bool(union.values) and "" not in union.values
    if value is not None and not (empty and not (f is not None and f.pointer)):
        return []
    if old is not None and old.get(d) == value:
        return []
    return [FieldError(path.field(d).render(), "Required", "")]


def _names(fields: list[str]) -> str:
    return ", ".join(fields)


def _check_discriminator(
    union: Union, path: Path, obj: dict[str, JSON]
) -> tuple[Scalar | None, list[FieldError]]:
    """The discriminator's value (None when it is not of the union's type) and its own
    errors."""
    d = union.discriminator
    assert d is not None
    dpath = path.field(d)
    value = discriminator_value(obj, union)
    if value is None:
        return None, [
            FieldError(
                dpath.render(), "Invalid", f"{quote(obj.get(d))}: must be {_A[union.value_type]}"
            )
        ]
    present = obj.get(d) is not None
    if union.discriminator_required and (not present or (value == "" and "" not in union.values)):
        return value, [
            FieldError(dpath.render(), "Required", "the union discriminator must be set")
        ]
    if present and union.values and value not in union.values:
        supported = ", ".join(quote(x) for x in union.values)
        return value, [
            FieldError(
                dpath.render(), "NotSupported", f"{quote(value)}: supported values: {supported}"
            )
        ]
    return value, []


def _kep1027(
    union: Union, path: Path, old: dict[str, JSON] | None, obj: dict[str, JSON]
) -> list[FieldError]:
    """The current KEP "Validation", and exactly-one / at-most-one for undiscriminated unions."""
    if union.discriminator is None:
        return _undiscriminated(union, path, obj)
    d = union.discriminator
    value, errors = _check_discriminator(union, path, obj)
    if value is None:
        return errors
    now = set_members(obj, union)
    selected = union.member_for_value(value)
    if selected is not None and not selected.optional and selected.field not in now:
        errors.append(
            FieldError(
                path.field(selected.field).render(),
                "Required",
                f"must be set when {d} is {quote(value)}",
            )
        )
    unchanged = old is not None and discriminator_value(old, union) == value
    if unchanged and len(now) > 1:
        # the current KEP "Validation" 1: the client changed members without changing the discriminator
        msg = (
            f"{quote(value)}: several union members are set ({_names(now)}) but {d} was not "
            f"changed: change {d} when changing which union member is set"
        )
        errors.append(FieldError(path.field(d).render(), "Invalid", msg))
        return errors
    for m in union.members:
        if m.field in now and (selected is None or m.field != selected.field):
            errors.append(
                FieldError(
                    path.field(m.field).render(),
                    "Forbidden",
                    f"may only be set when {d} is {quote(m.value)}",
                )
            )
    return errors


def _undiscriminated(union: Union, path: Path, obj: dict[str, JSON]) -> list[FieldError]:
    now = set_members(obj, union)
    names = _names(list(union.fields))
    if not now and union.mode == "exactly-one":
        return [FieldError(path.render(), "Required", f"exactly one of {names} must be set")]
    if union.mode == "at-least-one":
        if now:
            return []
        return [FieldError(path.render(), "Required", f"at least one of {names} must be set")]
    return [
        FieldError(
            path.field(f).render(),
            "Forbidden",
            f"may not be set when {now[0]} is set: only one of {names} may be set",
        )
        for f in now[1:]
    ]


def _at_most_one_with_discriminator(
    union: Union, path: Path, obj: dict[str, JSON]
) -> list[FieldError]:
    """kep2019 and smd: the 2019 KEP "At most one versus exactly one" — at most one member, and a
    discriminator, when set, that agrees with the member that is set."""
    errors = _undiscriminated(union, path, obj)
    if union.discriminator is None:
        return errors
    value, derrors = _check_discriminator(union, path, obj)
    errors = derrors + errors
    now = set_members(obj, union)
    if value and len(now) == 1:
        member = union.member_for_field(now[0])
        # a member whose value is no enum value can never be named: not checked
        nameable = member is not None and (not union.values or member.value in union.values)
        if member is not None and nameable and member.value != value:
            errors.append(
                FieldError(
                    path.field(union.discriminator).render(),
                    "Invalid",
                    f"{quote(value)}: does not match the member that is set ({now[0]})",
                )
            )
    return errors
