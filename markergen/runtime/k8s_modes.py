"""validation-gen's mode unions (`+k8s:modeDiscriminator` with `+k8s:ifMode`).

What the API server runs (apimachinery's `validate.Discriminated`, one call per field
that has `ifMode` rules):

- the discriminator's value is its Go value: absent is `""` for a string, `false` for a
  bool; it need not be set, and no value of it is an error here (its enum reports that);
- on update, a field whose value and whose discriminator are unchanged is not checked
  (ratcheting);
- the rules of the field's mode apply: `+k8s:required` gives `Required` when the field is
  unset (its Go zero value), `+k8s:forbidden` gives `Forbidden` when set, `+k8s:optional`
  (and checks the runtime does not model) nothing;
- in a mode none of the field's rules names, the field is `Forbidden` when set;
- every error is at the field, with no origin, marked with the stage of the rule that
  produced it (the implicit `Forbidden` takes the stage the field's rules share, if any).
"""

from __future__ import annotations

from collections.abc import Mapping

from markergen.runtime.errors import FieldError
from markergen.runtime.k8s import member_set
from markergen.runtime.table import FieldInfo, ModeRule, Union
from markergen.runtime.tree import JSON, Path


def mode_value(obj: dict[str, JSON] | None, union: Union) -> str:
    """The discriminator's Go value as the rules spell it."""
    if obj is None or union.discriminator is None:
        return "false" if union.discriminator_type == "bool" else ""
    v = obj.get(union.discriminator)
    if union.discriminator_type == "bool":
        return "true" if v is True else "false"
    return v if isinstance(v, str) else ""


def _uniform_stage(rules: tuple[ModeRule, ...]) -> str:
    stages = {r.stage for r in rules}
    return stages.pop() if len(stages) == 1 else ""


def validate_modes(
    union: Union,
    path: Path,
    old: dict[str, JSON] | None,
    obj: dict[str, JSON],
    kinds: Mapping[str, FieldInfo],
) -> list[FieldError]:
    mode = mode_value(obj, union)
    old_mode = mode_value(old, union) if old is not None else None
    errors: list[FieldError] = []
    for name, rules in union.mode_rules:
        value = obj.get(name)
        if old is not None and old_mode == mode and old.get(name) == value:
            continue
        member = union.member_for_field(name)
        unset = not member_set(value, member.zero if member is not None else "", kinds, name)
        where = path.field(name).render()
        selected = [r for r in rules if r.value == mode]
        if not selected:
            if not unset:
                errors.append(FieldError(where, "Forbidden", "", "", _uniform_stage(rules)))
            continue
        for r in selected:
            if r.rule == "required" and unset:
                errors.append(FieldError(where, "Required", "", "", r.stage))
            elif r.rule == "forbidden" and not unset:
                errors.append(FieldError(where, "Forbidden", "", "", r.stage))
    return errors
