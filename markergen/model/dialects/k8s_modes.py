"""k8s mode unions: validation-gen's `+k8s:modeDiscriminator` and `+k8s:ifMode`.

A field marked `+k8s:modeDiscriminator(modality: "m")` (a non-pointer string or bool)
selects a mode; each field marked `+k8s:ifMode("V")=<tag>` (or `ifMode(modality: "m",
mode: "V")=<tag>`) gets `<tag>` (`+k8s:required`, `+k8s:optional`, `+k8s:forbidden`,
any other validation) when the discriminator is "V", and is forbidden in every mode no
rule of it names. The earlier spellings `+k8s:discriminator(name: "m")` and
`+k8s:member(discriminator: "m", value: "V")=<tag>` are read the same, with MG110.
This module is part of the k8s dialect (markergen/model/dialects/k8s.py); docs/k8s.md
describes the tags.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from markergen.diagnostics import diag
from markergen.markers import (
    K8S_FORBIDDEN,
    K8S_IF_MODE,
    K8S_MODE_DISCRIMINATOR,
    K8S_OLD_DISCRIMINATOR,
    K8S_OLD_MEMBER,
    K8S_OPTIONAL,
    K8S_REQUIRED,
    Marker,
    MarkerError,
    edit_distance,
    parse_line,
)
from markergen.model import Field, Member, ModeRule, ModeRuleKind, Union
from markergen.model.dialects.base import Ctx, discriminator_of, zero_kind
from markergen.model.enums import underlying_builtin

MODE_MARKERS: tuple[str, ...] = (
    K8S_MODE_DISCRIMINATOR,
    K8S_IF_MODE,
    K8S_OLD_DISCRIMINATOR,
    K8S_OLD_MEMBER,
)

# validation-gen's validGroupNameRegex; "default" names the unnamed modality internally.
# Compiled on first use (re keeps it): only mode discriminators name a modality.
_MODALITY = r"^[a-zA-Z][a-zA-Z0-9_]*$"
_RULES: dict[str, ModeRuleKind] = {
    K8S_REQUIRED: "required",
    K8S_OPTIONAL: "optional",
    K8S_FORBIDDEN: "forbidden",
}
_BOOLS = {"true": "true", "false": "false", "True": "true", "False": "false", "1": "true",
          "0": "false", "t": "true", "f": "false", "T": "true", "F": "false",
          "TRUE": "true", "FALSE": "false"}  # fmt: skip


@dataclass(frozen=True)
class _Rule:
    field: Field
    marker: Marker
    modality: str
    value: str
    rule: ModeRuleKind
    stage: str


def _q(text: str) -> str:
    return json.dumps(text)


def _modality(m: Marker) -> str:
    key = "name" if m.name == K8S_OLD_DISCRIMINATOR else "modality"
    if m.name == K8S_OLD_MEMBER:
        key = "discriminator"
    return m.arg(key) or ""


def _mode_value(m: Marker) -> str | None:
    named = m.arg("value" if m.name == K8S_OLD_MEMBER else "mode")
    if named is not None:
        return named
    return m.positional[0] if m.positional else None


def _new_spelling(m: Marker) -> str:
    """The marker's line with the earlier tag spelled as today (MG110's edit)."""
    at = m.raw.find("+" + m.name)
    prefix = m.raw[:at] if at >= 0 else ""
    args: list[str] = []
    if m.name == K8S_OLD_DISCRIMINATOR:
        modality = m.arg("name")
        if modality is not None:
            args.append(f"modality: {_q(modality)}")
        text = "+" + K8S_MODE_DISCRIMINATOR + (f"({', '.join(args)})" if args else "")
        return prefix + text
    args += [_q(p) for p in m.positional]
    if (modality := m.arg("discriminator")) is not None:
        args.append(f"modality: {_q(modality)}")
    if (value := m.arg("value")) is not None:
        args.append(f"mode: {_q(value)}")
    payload = f"={m.value}" if m.value is not None else ""
    return prefix + "+" + K8S_IF_MODE + f"({', '.join(args)})" + payload


def _old_spelling(ctx: Ctx, m: Marker) -> None:
    new = _new_spelling(m)
    now = K8S_MODE_DISCRIMINATOR if m.name == K8S_OLD_DISCRIMINATOR else K8S_IF_MODE
    ctx.diagnostics.append(
        diag(
            "MG110",
            m.pos,
            f"`+{m.name}` is the earlier spelling of `+{now}` (validation-gen renamed it); "
            "markergen reads it as the new one",
            hint=f"replace `{m.raw}` with `{new}` on this line",
        )
    )


def _payload(ctx: Ctx, f: Field, m: Marker) -> tuple[ModeRuleKind, str] | None:
    """The rule the payload tag gives, and the stage of a stage prefix inside it."""
    if not m.value:
        ctx.diagnostics.append(
            diag(
                "MG112",
                m.pos,
                f"`+{m.name}` on {ctx.subject(f)} has no payload: validation-gen rejects it "
                "(missing required payload)",
                hint=f"replace `{m.raw}` with `{m.raw}=+k8s:optional` on this line",
            )
        )
        return None
    inner = parse_line(m.value, m.pos)
    if inner is None or isinstance(inner, MarkerError):
        return "other", ""
    return _RULES.get(inner.name, "other"), inner.stage


def _is_pointer(f: Field) -> bool:
    return f.type.kind == "pointer"


def _discriminator_kind(ctx: Ctx, f: Field) -> str | None:
    """"string" or "bool" for a field validation-gen takes as a mode discriminator."""
    kind = underlying_builtin(f.type, ctx.types)
    return kind if kind in ("string", "bool") else None


def _first_candidate(ctx: Ctx) -> Field | None:
    for f in ctx.struct.fields:
        if not _is_pointer(f) and _discriminator_kind(ctx, f) is not None and not any(
            m.name in MODE_MARKERS for m in f.markers
        ):
            return f
    return None


def form_modes(ctx: Ctx, fields: list[Field]) -> list[Union]:
    """The mode unions of one struct, one per modality, with what stops them (MG110-MG114,
    MG320-MG323)."""
    discs: dict[str, tuple[Field, Marker]] = {}
    rules: list[_Rule] = []
    for f in fields:
        for m in f.markers:
            if m.name not in MODE_MARKERS:
                continue
            if m.name in (K8S_OLD_DISCRIMINATOR, K8S_OLD_MEMBER):
                _old_spelling(ctx, m)
            modality = _modality(m)
            if not _valid_modality(ctx, f, m, modality):
                continue
            if m.name in (K8S_MODE_DISCRIMINATOR, K8S_OLD_DISCRIMINATOR):
                if _discriminator_ok(ctx, f, m) and _not_duplicate(ctx, f, m, modality, discs):
                    discs[modality] = (f, m)
                continue
            value = _mode_value(m)
            if value is None:
                ctx.diagnostics.append(
                    diag(
                        "MG112",
                        m.pos,
                        f"`+{m.name}` on {ctx.subject(f)} names no mode: validation-gen "
                        "rejects it (missing required mode)",
                        # The field's Go name is the usual mode value (`Fast` for `Fast`),
                        # as for union members; the author corrects it if the mode differs.
                        hint=f"replace `+{m.name}` with `+{m.name}(\"{f.go_name}\")` on this "
                        "line (the discriminator's value this rule is for)",
                    )
                )
                continue
            payload = _payload(ctx, f, m)
            if payload is None:
                continue
            if f.type.deref() is f.type and _is_struct(ctx, f):
                ctx.diagnostics.append(
                    diag(
                        "MG321",
                        f.pos,
                        f"field {ctx.subject(f)} has rules per mode but is a struct, not a "
                        "pointer: validation-gen rejects it (discriminated member fields of "
                        "struct type must be pointers)",
                        hint=f"write the field as `{f.go_name} *{f.type.text}`",
                    )
                )
                continue
            rules.append(_Rule(f, m, modality, value, payload[0], m.stage or payload[1]))
    out: list[Union] = []
    reported: set[str] = set()
    for r in rules:
        if r.modality not in discs and r.modality not in reported:
            reported.add(r.modality)
            _missing_discriminator(ctx, r)
    for modality, (disc_field, disc_marker) in discs.items():
        mine = [r for r in rules if r.modality == modality]
        if not mine:
            continue  # a discriminator alone checks nothing (validation-gen: no validations)
        union = _union(ctx, modality, disc_field, disc_marker, mine)
        if union is not None:
            out.append(union)
    return out


def _is_struct(ctx: Ctx, f: Field) -> bool:
    ref = f.type
    if ref.kind == "struct":
        return True
    return ref.kind == "named" and ref.type_key not in ctx.types and ref.type_key not in ctx.enums


def _valid_modality(ctx: Ctx, f: Field, m: Marker, modality: str) -> bool:
    if modality == "" or (modality != "default" and re.match(_MODALITY, modality)):
        return True
    why = (
        f"discriminator group name {_q(modality)} is reserved"
        if modality == "default"
        else f"discriminator group name must match {_MODALITY}, got {_q(modality)}"
    )
    fixed = re.sub(r"[^a-zA-Z0-9_]", "_", modality).lstrip("_0123456789") or "mode"
    if fixed == "default":
        fixed = "defaultMode"
    ctx.diagnostics.append(
        diag(
            "MG114",
            m.pos,
            f"`+{m.name}` on {ctx.subject(f)}: {why}",
            hint=f"replace `{_q(modality)}` with `{_q(fixed)}` on this line (and in every "
            "tag of this modality)",
        )
    )
    return False


def _discriminator_ok(ctx: Ctx, f: Field, m: Marker) -> bool:
    kind = _discriminator_kind(ctx, f)
    if _is_pointer(f):
        why = "can only be used on non-pointer types"
        hint = f"write the field as `{f.go_name} {f.type.text[1:]}`"
    elif kind is None:
        why = f"can only be used on string or bool types ({f.type.text})"
        hint = f"write the field as `{f.go_name} string` (or a string type with `+k8s:enum`)"
    else:
        return True
    ctx.diagnostics.append(
        diag(
            "MG113",
            m.pos,
            f"`+{m.name}` on {ctx.subject(f)}: validation-gen rejects it ({why})",
            hint=hint,
        )
    )
    return False


def _not_duplicate(
    ctx: Ctx, f: Field, m: Marker, modality: str, discs: dict[str, tuple[Field, Marker]]
) -> bool:
    if modality not in discs or discs[modality][0].go_name == f.go_name:
        return True
    first = discs[modality][0]
    new = f"{f.go_name}Mode"
    ctx.diagnostics.append(
        diag(
            "MG320",
            m.pos,
            f"{ctx.subject(f)} is a second mode discriminator of modality "
            f"{_q(modality or 'default')} ({first.go_name} is the first): validation-gen "
            f"rejects it (duplicate discriminator)",
            hint=f"replace `{m.raw}` with `+{K8S_MODE_DISCRIMINATOR}(modality: {_q(new)})` on "
            f"this line (and name that modality in the `+{K8S_IF_MODE}` tags that depend on "
            f"{f.go_name})",
        )
    )
    return False


def _missing_discriminator(ctx: Ctx, r: _Rule) -> None:
    candidate = _first_candidate(ctx)
    args = f"(modality: {_q(r.modality)})" if r.modality else ""
    what = f" for modality {_q(r.modality)}" if r.modality else ""
    if candidate is not None:
        hint = f"write `// +{K8S_MODE_DISCRIMINATOR}{args}` above {candidate.go_name}"
    else:
        hint = f"mark the field that selects the mode `+{K8S_MODE_DISCRIMINATOR}{args}`"
    ctx.diagnostics.append(
        diag(
            "MG111",
            r.marker.pos,
            f"`+{r.marker.name}` on {ctx.subject(r.field)} depends on a mode, but struct "
            f"{ctx.struct.name} has no `+{K8S_MODE_DISCRIMINATOR}`{what}: validation-gen "
            "rejects it (missing discriminator)",
            hint=hint,
        )
    )


def _union(
    ctx: Ctx, modality: str, disc_field: Field, disc_marker: Marker, rules: list[_Rule]
) -> Union | None:
    disc = discriminator_of(disc_field, ctx)
    is_bool = _discriminator_kind(ctx, disc_field) == "bool"
    kept: list[ModeRule] = []
    for r in sorted(rules, key=lambda r: (r.field.pos.line, r.field.pos.column, r.marker.pos.line)):
        value = r.value
        if is_bool:
            canonical = _BOOLS.get(value)
            if canonical is None:
                ctx.diagnostics.append(
                    diag(
                        "MG322",
                        r.marker.pos,
                        f"mode {_q(value)} of {ctx.subject(r.field)} is no bool, but "
                        f"discriminator {disc_field.go_name} is a bool: validation-gen rejects "
                        "it (invalid discriminator value)",
                        hint=f"replace `{_q(value)}` with `{_q(_as_bool(value))}` on this line",
                    )
                )
                continue
            value = canonical
        elif disc.values and value not in disc.values:
            ctx.diagnostics.append(
                diag(
                    "MG323",
                    r.marker.pos,
                    f"mode {_q(value)} of {ctx.subject(r.field)} is no value of "
                    f"{disc_field.go_name}'s enum ({', '.join(_q(v) for v in disc.values)}): "
                    "the rule never applies",
                    hint=f"replace `{_q(value)}` with "
                    f"`{_q(_closest(value, disc.values))}` on this line",
                )
            )
        kept.append(
            ModeRule(
                r.field.go_name, r.field.json_name, value, r.rule, r.stage, r.marker.pos
            )
        )
    if not kept:
        return None
    members: list[Member] = []
    seen: set[str] = set()
    for rule in kept:
        if rule.go_name in seen:
            continue
        seen.add(rule.go_name)
        f = next(x for x in ctx.struct.fields if x.go_name == rule.go_name)
        members.append(
            Member(
                f.go_name,
                f.json_name,
                rule.value,
                rule.rule != "required",
                f.pos,
                zero=zero_kind(f.type, ctx.types),
            )
        )
    claimed = {r.value for r in kept}
    first_rule = next(r for r in rules if r.field.go_name == kept[0].go_name)
    return Union(
        struct=ctx.struct.key,
        dialect="k8s",
        origin="discriminated",
        name=modality or disc.go_name,
        discriminator=disc,
        members=tuple(members),
        empty_values=tuple(sorted(set(disc.values) - claimed)),
        mode="exactly-one" if disc.required else "at-most-one",
        semantics="k8s",
        pos=disc_marker.pos,
        stage=disc_marker.stage,
        # validation-gen wraps a struct's mode checks in the wrapper of the `ifMode` tag
        # that produced them: the first one's gate stands for the union.
        gate=first_rule.marker.gate,
        gate_disabled=first_rule.marker.gate_disabled,
        modes=tuple(kept),
    )


def _as_bool(word: str) -> str:
    """The bool a word that is no Go bool most likely means."""
    no = {"no", "off", "disabled", "disable", "n", "none", "never"}
    return "false" if word.strip().lower() in no else "true"


def _closest(value: str, values: tuple[str, ...]) -> str:
    return min(values, key=lambda v: (edit_distance(value.lower(), v.lower()), v))
