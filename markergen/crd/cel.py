"""CEL `x-kubernetes-validations` rules that make an API server enforce one union.

Property names follow Kubernetes' CEL escaping for CRDs (apiextensions "Escaping"):
a name that is a CEL reserved word becomes `__<word>__`; otherwise `__` → `__underscores__`,
`.` → `__dot__`, `-` → `__dash__`, `/` → `__slash__`; a name with any other character
outside `[a-zA-Z0-9_.-/]`, or starting with a digit, cannot be reached from CEL at all.

The rules mirror `markergen.runtime.validate` on create (no old object), one rule per
field so the API server's error names the field (`fieldPath`) with a `reason`.
Allowed discriminator values are enforced by the schema's `enum`, not by CEL.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from markergen.accept.union import json_value, text_of
from markergen.celcost.escape import escape_property
from markergen.model import Union

REQUIRED = "FieldValueRequired"
FORBIDDEN = "FieldValueForbidden"
INVALID = "FieldValueInvalid"


def cel_string(value: str) -> str:
    """A CEL string literal holding exactly `value`.

    Double quotes, so that the rule reads well inside YAML's single-quoted scalars.
    """
    out = []
    for ch in value:
        if ch in ("\\", '"'):
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def cel_literal(value: str, value_type: str = "string") -> str:
    """The CEL literal of a discriminator value of the given JSON type: `1`, `true`,
    `1.5`, or a string literal (never `'1'` for the number 1)."""
    typed = json_value(value, value_type)
    if isinstance(typed, str):
        return cel_string(typed)
    if isinstance(typed, bool):
        return "true" if typed else "false"
    if isinstance(typed, float):
        return repr(typed) if typed == typed and abs(typed) != float("inf") else "0.0"
    return str(typed)


def _json_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class Rule:
    """One `x-kubernetes-validations` entry; `as_dict` gives controller-gen's key order."""

    rule: str
    message: str
    reason: str
    field_path: str = ""  # `.member` relative to the node, "" for the node itself
    # The one rule that says what this rule and its partner say together (the compact
    # form, cheaper for the API server's cost estimate; see `compact`), or None.
    merged: Rule | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, str]:
        d: dict[str, str] = {}
        if self.field_path:
            d["fieldPath"] = self.field_path
        d["message"] = self.message
        d["reason"] = self.reason
        d["rule"] = self.rule
        return d


@dataclass(frozen=True)
class Skipped:
    """A union field that gets no rule, and why (the caller turns it into a warning)."""

    field: str
    reason: str


def _field_path(json_name: str) -> str:
    # fieldPath is a JSON path; names that are not identifiers use the bracket form
    if re.match(r"^[a-zA-Z_][a-zA-Z0-9_]*$", json_name):
        return "." + json_name
    return "['" + json_name.replace("\\", "\\\\").replace("'", "\\'") + "']"


def union_label(union: Union, struct_name: str) -> str:
    """How messages name a union: `Struct.discriminator`, or `Struct` plus its union name
    (a union under a field, `Union.at`, is named with its path: `Struct.spec.*.mode`)."""
    struct_name = ".".join([struct_name, *union.at])
    if union.discriminator is not None:
        return f"{struct_name}.{union.discriminator.json_name}"
    if union.name:
        return f"{struct_name}.{union.name}"
    return struct_name


def _count(members: Iterable[str]) -> str:
    return " + ".join(f"(has(self.{m}) ? 1 : 0)" for m in members)


def union_rules(
    union: Union,
    struct_name: str,
    properties: Iterable[str],
    required: Iterable[str],
    types: Mapping[str, str] | None = None,
) -> tuple[list[Rule], list[Skipped]]:
    """The rules for `union` at a schema node with these property names and `required` list.

    Only properties present at the node are named: the API server rejects a rule that
    references an undeclared field. Members missing from the schema (or not reachable
    from CEL) are reported in the second list and ignored by the rules; a union whose
    discriminator is missing gets no rules at all.
    """
    present = set(properties)
    label = union_label(union, struct_name)
    skipped: list[Skipped] = []
    members: list[tuple[str, str, str, bool]] = []  # (json, escaped, value, optional)
    for m in union.members:
        if m.json_name not in present:
            skipped.append(Skipped(m.json_name, "is not a property of the CRD schema"))
            continue
        esc = escape_property(m.json_name)
        if esc is None:
            skipped.append(Skipped(m.json_name, "cannot be referenced from CEL"))
            continue
        members.append((m.json_name, esc, m.value, m.optional))

    disc = union.discriminator
    if disc is not None:
        if disc.json_name not in present:
            return [], [
                *skipped,
                Skipped(disc.json_name, "(the discriminator) is not a property of the CRD schema"),
            ]
        d = escape_property(disc.json_name)
        if d is None:
            return [], [*skipped, Skipped(disc.json_name, "cannot be referenced from CEL")]
    if union.semantics == "k8s":
        return _k8s_rules(
            union, label, members, d if disc is not None else None, types or {}, skipped
        )
    rules: list[Rule] = []
    if disc is not None and d is not None:
        if disc.required:
            rule = _required_discriminator(
                d, disc.json_name in set(required), bool(disc.values), disc.value_type
            )
            if rule:
                rules.append(
                    Rule(
                        rule,
                        f"{disc.json_name} is required (union {label})",
                        REQUIRED,
                        _field_path(disc.json_name),
                    )
                )
        if union.semantics == "kep1027":
            rules.extend(_discriminated(d, disc.json_name, members, label, disc.value_type))
            return rules, skipped
    rules.extend(_counted(union, members, label))
    if disc is not None and d is not None and members:
        rules.append(_matches(d, disc.json_name, members, label, disc.values, disc.value_type))
    return rules, skipped


def _required_discriminator(
    d: str, in_required_list: bool, has_enum: bool, value_type: str = "string"
) -> str:
    """A required discriminator must be present, and not "" unless "" is an enum value.

    The schema's `required` list checks presence and its `enum` rejects "" when "" is
    not a value; CEL covers only what those two do not. A number or a boolean is never
    "" (comparing it with "" would not even compile): presence is all there is.
    """
    if value_type != "string":
        return "" if in_required_list else f"has(self.{d})"
    if not in_required_list and not has_enum:
        return f'has(self.{d}) && self.{d} != ""'
    if not in_required_list:
        return f"has(self.{d})"
    if not has_enum:
        return f'has(self.{d}) ? self.{d} != "" : true'
    return ""


def _selects(d: str, value: str, value_type: str = "string") -> str:
    if value == "":
        if value_type != "string":
            return f"!has(self.{d})"  # only an unset number or boolean reads as ""
        # an unset discriminator reads as "" (the current KEP: unset and "" are equal)
        return f'(!has(self.{d}) || self.{d} == "")'
    return f"(has(self.{d}) && self.{d} == {cel_literal(value, value_type)})"


def _shown(value: str, value_type: str) -> str:
    """A value as messages quote it: JSON of its type (`"A"`, `1`, `true`)."""
    return _json_string(value) if value_type == "string" else text_of(json_value(value, value_type))


def _discriminated(
    d: str,
    disc_json: str,
    members: list[tuple[str, str, str, bool]],
    label: str,
    value_type: str = "string",
) -> list[Rule]:
    """The current KEP "Validation": the selected member is set unless optional; the others are not."""
    rules: list[Rule] = []
    for json_name, esc, value, optional in members:
        sel = _selects(d, value, value_type)
        shown = _shown(value, value_type)
        merged = None
        if not optional:
            merged = Rule(
                f"{sel} ? has(self.{esc}) : !has(self.{esc})",
                f"{json_name} must be set when {disc_json} is {shown}, and only then "
                f"(union {label})",
                INVALID,
                _field_path(json_name),
            )
            rules.append(
                Rule(
                    f"has(self.{esc}) || !{sel}",
                    f"{json_name} must be set when {disc_json} is {shown} (union {label})",
                    REQUIRED,
                    _field_path(json_name),
                    merged,
                )
            )
        rules.append(
            Rule(
                f"{sel} || !has(self.{esc})",
                f"{json_name} may only be set when {disc_json} is {shown} (union {label})",
                FORBIDDEN,
                _field_path(json_name),
                merged,
            )
        )
    return rules


def compact(rules: Iterable[Rule]) -> list[Rule]:
    """`rules` with each pair that has a merged form (a member required when selected and
    forbidden otherwise) replaced by that one rule, where both of the pair are there.

    The pair evaluates the discriminator test twice; the merged `sel ? set : !set` once,
    like the rule one writes by hand, so the API server's cost estimate is about half
    (docs/cel-cost.md). The pair's reasons (Required, Forbidden) are more precise, so
    markergen writes the pair unless only the merged form fits the cost limits."""
    rules = list(rules)
    counts: dict[int, int] = {}
    for r in rules:
        if r.merged is not None:
            counts[id(r.merged)] = counts.get(id(r.merged), 0) + 1
    out: list[Rule] = []
    done: set[int] = set()
    for r in rules:
        m = r.merged
        if m is None or counts[id(m)] < 2:
            out.append(r)
        elif id(m) not in done:
            done.add(id(m))
            out.append(m)
    return out


def _counted(union: Union, members: list[tuple[str, str, str, bool]], label: str) -> list[Rule]:
    """The 2019 KEP "At most one versus exactly one" (and undiscriminated k8s unions)."""
    names = ", ".join(j for j, _, _, _ in members)
    count = _count(e for _, e, _, _ in members)
    rules: list[Rule] = []
    if union.mode == "exactly-one" and members:
        rules.append(
            Rule(f"{count} >= 1", f"exactly one of {names} must be set (union {label})", REQUIRED)
        )
    if len(members) > 1:
        rules.append(
            Rule(f"{count} <= 1", f"at most one of {names} may be set (union {label})", FORBIDDEN)
        )
    return rules


def _matches(
    d: str,
    disc_json: str,
    members: list[tuple[str, str, str, bool]],
    label: str,
    values: tuple[str, ...] = (),
    value_type: str = "string",
) -> Rule:
    """The 2019 KEP: a discriminator that is set must name the one member that is set.

    A member whose value (its Go name) is no value of the discriminator's enum can never
    be named (openshift/api's `LoadBalancer` against `LoadBalancerService`): the rule
    does not constrain the discriminator for it, or it would reject every object that
    sets it."""
    count = _count(e for _, e, _, _ in members)
    agree = " || ".join(
        f"(has(self.{e}) && self.{d} == {cel_literal(v, value_type)})"
        if not values or v in values
        else f"has(self.{e})"
        for _, e, v, _ in members
    )
    # A number or a boolean is never "": there is no "unset" spelling to allow.
    unset = f'self.{d} == "" || ' if value_type == "string" else ""
    return Rule(
        f"has(self.{d}) ? ({unset}{count} != 1 || {agree}) : true",
        f"{disc_json} must name the member that is set (union {label})",
        INVALID,
        _field_path(disc_json),
    )


# validation-gen's "set" (a member's Go value is not its zero value), in CEL, by the JSON
# schema type of a builtin member: the API server's JSON has the zero value or nothing.
_NONZERO = {
    "string": '{m} != ""',
    "integer": "{m} != 0",
    "number": "{m} != 0.0",
    "boolean": "{m}",
}


def k8s_is_set(esc: str, zero: str, schema_type: str) -> str | None:
    """The CEL test of validation-gen's member extractor, or None when the member's kind
    or schema type leaves it unknown (no rule can then be written safely)."""
    m = f"self.{esc}"
    if zero == "nil":
        return f"has({m})"
    if zero == "len" and schema_type in ("array", "object"):
        return f"(has({m}) && size({m}) > 0)"
    if zero == "zero" and schema_type in _NONZERO:
        return f"(has({m}) && {_NONZERO[schema_type].format(m=m)})"
    return None


def _backticked(names: Iterable[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def _k8s_rules(
    union: Union,
    label: str,
    members: list[tuple[str, str, str, bool]],
    d: str | None,
    types: Mapping[str, str],
    skipped: list[Skipped],
) -> tuple[list[Rule], list[Skipped]]:
    """validation-gen's checks on create (docs/k8s.md): a member is set when it is not its
    Go zero value; the discriminator, when there is one, names the one member that may
    and must be set. Its messages are validation-gen's; every error is `Invalid`."""
    zeros = {m.json_name: m.zero for m in union.members}
    tests: list[tuple[str, str, str]] = []  # (json, is-set test, value)
    for json_name, esc, value, _ in members:
        test = k8s_is_set(esc, zeros.get(json_name, ""), types.get(json_name, ""))
        if test is None:
            why = "cannot be told unset in CEL (validation-gen compares its Go zero value)"
            return [], [*skipped, Skipped(json_name, why)]
        tests.append((json_name, test, value))
    rules: list[Rule] = []
    disc = union.discriminator
    if union.modes and disc is not None and d is not None:
        return _mode_rules(union, label, d, tests), skipped
    if disc is not None and d is not None:
        for json_name, test, value in tests:
            sel = _selects(d, value)
            shown = _json_string(value)
            merged = Rule(
                f"{sel} ? {test} : !{test}",
                f"must be specified when `{disc.json_name}` is {shown}, and only then "
                f"(union {label})",
                INVALID,
                _field_path(json_name),
            )
            rules.append(
                Rule(
                    f"{test} || !{sel}",
                    f"must be specified when `{disc.json_name}` is {shown} (union {label})",
                    INVALID,
                    _field_path(json_name),
                    merged,
                )
            )
            rules.append(
                Rule(
                    f"{sel} || !{test}",
                    f"may only be specified when `{disc.json_name}` is {shown} (union {label})",
                    INVALID,
                    _field_path(json_name),
                    merged,
                )
            )
        return rules, skipped
    return _counted_k8s(union, label, [t for _, t, _ in tests]), skipped


def _mode_rules(union: Union, label: str, d: str, tests: list[tuple[str, str, str]]) -> list[Rule]:
    """validation-gen's mode union (`+k8s:modeDiscriminator` / `+k8s:ifMode`): a field is
    required in the modes whose rule says `+k8s:required`, forbidden in the modes no rule
    of it names (and where `+k8s:forbidden` says so), free otherwise."""
    assert union.discriminator is not None
    name = union.discriminator.json_name
    rules: list[Rule] = []
    for json_name, test, _ in tests:
        own = [r for r in union.modes if r.json_name == json_name]
        allowed = sorted({r.value for r in own if r.rule != "forbidden"})
        where = " || ".join(_selects(d, v) for v in allowed)
        shown = ", ".join(_json_string(v) for v in allowed)
        rules.append(
            Rule(
                f"!{test} || {where}" if allowed else f"!{test}",
                f"may only be specified when `{name}` is {shown} (union {label})"
                if allowed
                else f"may not be specified (union {label})",
                FORBIDDEN,
                _field_path(json_name),
            )
        )
        for value in sorted({r.value for r in own if r.rule == "required"}):
            rules.append(
                Rule(
                    f"{test} || !{_selects(d, value)}",
                    f"must be specified when `{name}` is {_json_string(value)} (union {label})",
                    REQUIRED,
                    _field_path(json_name),
                )
            )
    return rules


def _counted_k8s(union: Union, label: str, tests: list[str]) -> list[Rule]:
    """validation-gen's undiscriminated checks, at the node: errors without fieldPath."""
    names = _backticked(m.json_name for m in union.members)
    count = " + ".join(f"({t} ? 1 : 0)" for t in tests)
    rules: list[Rule] = []
    if union.mode == "exactly-one" and tests:
        rules.append(
            Rule(f"{count} >= 1", f"must specify one of: {names} (union {label})", INVALID)
        )
        if len(tests) > 1:
            rules.append(
                Rule(
                    f"{count} <= 1",
                    f"must specify exactly one of: {names} (union {label})",
                    INVALID,
                )
            )
    elif len(tests) > 1:
        rules.append(
            Rule(f"{count} <= 1", f"must specify at most one of: {names} (union {label})", INVALID)
        )
    return rules


def _cel_literal(json_text: str) -> str:
    value = json.loads(json_text)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return cel_string(value)
    return str(value)


def _zero_literal(json_text: str) -> str:
    value = json.loads(json_text)
    if isinstance(value, bool):
        return "false"
    if isinstance(value, str):
        return '""'
    return "0"


def item_is_set(selector: tuple[tuple[str, str], ...]) -> str | None:
    """validation-gen's item extractor in CEL: the list holds an item whose keys have these
    values (a key left out holds its zero value); None when a key cannot be reached."""
    terms = []
    for key, value in selector:
        esc = escape_property(key)
        if esc is None:
            return None
        terms.append(f"(has(i.{esc}) ? i.{esc} : {_zero_literal(value)}) == {_cel_literal(value)}")
    return f"self.exists(i, {' && '.join(terms)})"


def item_rules(union: Union, label: str) -> tuple[list[Rule], list[Skipped]]:
    """A union of list items (`+k8s:item`), at the list's node."""
    tests = []
    for m in union.members:
        test = item_is_set(m.selector)
        if test is None:
            return [], [Skipped(m.json_name, "has a key that cannot be referenced from CEL")]
        tests.append(test)
    return _counted_k8s(union, label, tests), []
