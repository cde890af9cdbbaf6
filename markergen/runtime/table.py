"""The runtime table, checked and frozen.

The runtime reads nothing else: not the Go parser, not the model. A table comes from
`unions_table.json` or from the generated module's `TABLE` literal; both hold the same value.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Literal, cast

from markergen.runtime.errors import TableError
from markergen.runtime.values import JSON
from markergen.runtime.values import Scalar as Scalar

Kind = Literal["scalar", "object", "list", "map"]
Semantics = Literal["kep1027", "kep2019", "smd", "k8s"]
Mode = Literal["exactly-one", "at-most-one", "at-least-one"]

# The JSON type of a union's discriminator values: a discriminator of `type Mode int32`
# holds numbers, and the string "1" is no value of it.
ValueType = Literal["string", "boolean", "integer", "number"]
VALUE_TYPES: tuple[ValueType, ...] = ("string", "boolean", "integer", "number")


def as_value_type(value: object, value_type: str) -> Scalar | None:
    """`value` as a discriminator value of JSON type `value_type`, None when it is none:
    an integer may be written 2.0; a string is never a number, a boolean never a number."""
    if value_type == "string":
        return value if isinstance(value, str) else None
    if isinstance(value, bool):
        return value if value_type == "boolean" else None
    if value_type == "integer":
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return None
    if value_type == "number" and isinstance(value, int | float):
        return value
    return None


KINDS: tuple[Kind, ...] = ("scalar", "object", "list", "map")
SEMANTICS: tuple[Semantics, ...] = ("kep1027", "kep2019", "smd", "k8s")
MODES: tuple[Mode, ...] = ("exactly-one", "at-most-one", "at-least-one")
ZEROS: tuple[str, ...] = ("", "nil", "len", "zero")
TABLE_VERSION = 1


@dataclass(frozen=True)
class FieldInfo:
    name: str
    kind: Kind
    type: str | None = None
    list_map_keys: tuple[str, ...] = ()
    # Not written by markergen: accepted so hand-written tables can name a patch merge key
    # that is not also a list-map key. Absent in generated tables, where listMapKeys serve.
    patch_merge_key: str | None = None
    # A `+k8s:enum` field: the enum's name in the table's `enums`, whether the Go field
    # is a pointer (unset is then null, never checked), and whether an unset value is
    # left unchecked (`+k8s:optional` / `+k8s:required` stop the checks of an unset field).
    enum: str | None = None
    pointer: bool = False
    unset_not_checked: bool = False
    # A list of a `+k8s:enum` type declared `+k8s:listType=set`: on update, an item the
    # old list holds anywhere is not checked again (other lists: every item is).
    set_items: bool = False
    # A `+k8s:enum` field outside validation-gen (no requiredness tag, its package runs
    # no validation-gen): served as controller-gen's schema `enum`, which the API server
    # checks only on a value present; an absent or null field is not checked.
    absent_not_checked: bool = False

    @property
    def merge_keys(self) -> tuple[str, ...]:
        if self.list_map_keys:
            return self.list_map_keys
        return (self.patch_merge_key,) if self.patch_merge_key else ()


@dataclass(frozen=True)
class Member:
    field: str
    value: Scalar
    optional: bool = False
    # k8s: how validation-gen tells the member set, from its Go type: "nil" (a pointer:
    # present and not null), "len" (a list or map: not empty), "zero" (a builtin: not
    # its zero value); "" decides by the JSON value and the field's kind.
    zero: str = ""
    # k8s `+k8s:item(...)`: the member is the list item whose keys have these values
    # (`field` is then validation-gen's name for it, `tasks[{"name": "a"}]`)
    selector: tuple[tuple[str, object], ...] | None = None


@dataclass(frozen=True)
class EnumExclusion:
    value: str
    option: str
    when_enabled: bool  # excluded when `option` is enabled (else: when it is not)


@dataclass(frozen=True)
class EnumInfo:
    """validation-gen's `+k8s:enum`: the values (unconditionally excluded ones left out)
    and the option-dependent exclusions; `stage` marks its errors (alpha/beta)."""

    name: str
    values: tuple[str, ...]
    exclusions: tuple[EnumExclusion, ...] = ()
    stage: str = ""

    def excluded(self, value: str, options: frozenset[str]) -> bool:
        return any(
            x.value == value and x.when_enabled == (x.option in options) for x in self.exclusions
        )

    def supported(self, options: frozenset[str]) -> tuple[str, ...]:
        return tuple(sorted(v for v in self.values if not self.excluded(v, options)))


ModeRuleKind = Literal["required", "optional", "forbidden", "other"]
MODE_RULES: tuple[ModeRuleKind, ...] = ("required", "optional", "forbidden", "other")


@dataclass(frozen=True)
class ModeRule:
    """`+k8s:ifMode(value)=<tag>` on `field`; `other` is a tag the runtime does not model."""

    field: str
    value: str
    rule: ModeRuleKind
    stage: str = ""


@dataclass(frozen=True)
class Union:
    dialect: str
    semantics: Semantics
    discriminator: str | None
    discriminator_required: bool
    values: tuple[Scalar, ...]
    members: tuple[Member, ...]
    mode: Mode
    deduce_invalid_discriminator: bool
    # validation-gen's `+k8s:ifEnabled(G)=` / `+k8s:ifDisabled(G)=` around the union's
    # tags: the union applies only when option `gate` is enabled (disabled when
    # `gate_disabled`). Empty: always.
    gate: str = ""
    gate_disabled: bool = False
    stage: str = ""  # validation-gen's `+k8s:alpha=` / `+k8s:beta=`: marks the errors
    # A mode union (`+k8s:modeDiscriminator` / `+k8s:ifMode`), and its discriminator's
    # Go type ("string" or "bool": an unset discriminator is its zero value).
    modes: tuple[ModeRule, ...] = ()
    discriminator_type: str = "string"
    # k8s path wrappers: the union lives below the object, at these JSON names and "*"
    # (each list item or map value); empty: at the object itself
    at: tuple[str, ...] = ()
    # the node at `at` is a Go struct value (not a pointer): on update, an old object
    # without it holds the zero struct there, so the union has an old value to ratchet on
    at_value: bool = False
    value_type: ValueType = "string"
    # `+default` / `+kubebuilder:default` of the discriminator: the API server fills it in
    # (defaulting runs before validation) when the object leaves the discriminator out.
    discriminator_default: Scalar | None = None
    # Precompiled at load, so that the per-object work is plain tuple and dict look-ups.
    fields: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _by_value: dict[Scalar, Member] = field(init=False, repr=False, compare=False)
    _by_field: dict[str, Member] = field(init=False, repr=False, compare=False)
    # `modes` grouped by field, in the order of their first rule (k8s_modes.validate_modes)
    mode_rules: tuple[tuple[str, tuple[ModeRule, ...]], ...] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", tuple(m.field for m in self.members))
        by_field: dict[str, list[ModeRule]] = {}
        for rule in self.modes:
            by_field.setdefault(rule.field, []).append(rule)
        mode_rules = tuple((f, tuple(rules)) for f, rules in by_field.items())
        object.__setattr__(self, "mode_rules", mode_rules)
        by_value: dict[Scalar, Member] = {}
        for m in self.members:
            by_value.setdefault(m.value, m)  # the first member of a value, as before
        object.__setattr__(self, "_by_value", by_value)
        object.__setattr__(self, "_by_field", {m.field: m for m in self.members})

    def member_for_value(self, value: Scalar) -> Member | None:
        # Values reach here already of the union's type (semantics.discriminator_value),
        # so Python's `True == 1` never meets a number.
        return self._by_value.get(value)

    def member_for_field(self, name: str) -> Member | None:
        return self._by_field.get(name)

    def is_known_value(self, value: Scalar) -> bool:
        """Whether a discriminator value means something to this table.

        With an enum (`values`), the enum decides. Without one (kep2019, kep2022), the
        member values and the "none" value `""` are the known ones.
        """
        if self.values:
            return value in self.values
        return value == "" or self.member_for_value(value) is not None

    def applies(self, options: frozenset[str]) -> bool:
        """Whether the union is checked when the options (feature gates) in `options` are on."""
        if not self.gate:
            return True
        return (self.gate in options) != self.gate_disabled


@dataclass(frozen=True)
class TypeInfo:
    name: str
    fields: Mapping[str, FieldInfo]
    patch_strategies: Mapping[str, tuple[str, ...]]
    unions: tuple[Union, ...]
    # Whether any field can hold a typed object: when not, the walk never looks inside.
    has_children: bool = field(init=False, repr=False, compare=False)
    # (discriminator, default) of the unions whose discriminator has a default
    defaults: tuple[tuple[str, Scalar], ...] = field(init=False, repr=False, compare=False)
    # the `+k8s:enum` fields (FieldInfo.enum): an object of a type without any is never
    # looked at for enums
    enum_fields: tuple[FieldInfo, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        has = any(f.kind != "scalar" for f in self.fields.values())
        object.__setattr__(self, "has_children", has)
        enum_fields = tuple(f for f in self.fields.values() if f.enum is not None)
        object.__setattr__(self, "enum_fields", enum_fields)
        defaults = {
            u.discriminator: u.discriminator_default
            for u in self.unions
            if u.discriminator is not None and u.discriminator_default is not None
        }
        object.__setattr__(self, "defaults", tuple(defaults.items()))

    def defaulted(self, obj: dict[str, JSON]) -> dict[str, JSON]:
        """`obj` as the API server validates it: a discriminator left out (or null) holds
        its default. A new dict when one is filled in; `obj` itself otherwise."""
        for name, value in self.defaults:
            if obj.get(name) is None:
                obj = {**obj, name: value}
        return obj

    def strategies(self, field: str) -> tuple[str, ...]:
        return self.patch_strategies.get(field, ())


def _split_strategy(text: str) -> tuple[str, ...]:
    # Tables write `merge,retainKeys`; the retainKeys proposal writes `merge|retainKeys`. Accept both.
    return tuple(p.strip() for p in text.replace("|", ",").split(",") if p.strip())


class _Reader:
    """Shape checks with a `where` for every message."""

    def obj(self, value: object, where: str) -> dict[str, object]:
        if not isinstance(value, dict):
            raise TableError(f"must be an object, not {type(value).__name__}", where)
        for k in value:
            if not isinstance(k, str):
                raise TableError(f"keys must be strings, found {k!r}", where)
        return cast(dict[str, object], value)

    def objects(
        self, value: object, message: str, where: str
    ) -> Iterator[tuple[str, dict[str, object]]]:
        """The objects of a list, each with its `where`, checked one by one as they are
        read (errors come in document order); `message` when it is no list."""
        if not isinstance(value, list):
            raise TableError(message, where)
        for i, v in enumerate(value):
            w = f"{where}[{i}]"
            yield w, self.obj(v, w)

    def string(self, value: object, where: str) -> str:
        if not isinstance(value, str):
            raise TableError(f"must be a string, not {type(value).__name__}", where)
        return value

    def boolean(self, value: object, where: str) -> bool:
        if not isinstance(value, bool):
            raise TableError(f"must be true or false, not {value!r}", where)
        return value

    def strings(self, value: object, where: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise TableError(f"must be a list of strings, not {type(value).__name__}", where)
        return tuple(self.string(v, f"{where}[{i}]") for i, v in enumerate(value))

    def scalar(self, value: object, value_type: str, where: str) -> Scalar:
        """A discriminator value of the union's JSON type (as_value_type)."""
        typed = as_value_type(value, value_type)
        if typed is None:
            raise TableError(f"must be a JSON {value_type}, not {value!r}", where)
        return typed

    def scalars(self, value: object, value_type: str, where: str) -> tuple[Scalar, ...]:
        if not isinstance(value, list):
            raise TableError(f"must be a list, not {type(value).__name__}", where)
        return tuple(self.scalar(v, value_type, f"{where}[{i}]") for i, v in enumerate(value))

    def choice(self, value: object, allowed: tuple[str, ...], where: str) -> str:
        text = self.string(value, where)
        if text not in allowed:
            raise TableError(f"must be one of {', '.join(allowed)}, not {text!r}", where)
        return text


def _read_field(r: _Reader, name: str, raw: object, where: str) -> FieldInfo:
    d = r.obj(raw, where)
    if "kind" not in d:
        raise TableError("missing 'kind'", where)
    kind = cast(Kind, r.choice(d["kind"], KINDS, f"{where}.kind"))
    type_name = d.get("type")
    if type_name is not None:
        type_name = r.string(type_name, f"{where}.type")
    keys = r.strings(d.get("listMapKeys", []), f"{where}.listMapKeys")
    pmk = d.get("patchMergeKey")
    if pmk is not None:
        pmk = r.string(pmk, f"{where}.patchMergeKey")
    enum = d.get("enum")
    if enum is not None:
        enum = r.string(enum, f"{where}.enum")
    return FieldInfo(
        name,
        kind,
        type_name,
        keys,
        pmk,
        enum,
        r.boolean(d.get("pointer", False), f"{where}.pointer"),
        r.boolean(d.get("unsetNotChecked", False), f"{where}.unsetNotChecked"),
        r.boolean(d.get("setItems", False), f"{where}.setItems"),
        r.boolean(d.get("absentNotChecked", False), f"{where}.absentNotChecked"),
    )


def _read_modes(r: _Reader, raw: object, where: str) -> tuple[ModeRule, ...]:
    return tuple(
        ModeRule(
            r.string(d.get("field"), f"{w}.field"),
            r.string(d.get("value"), f"{w}.value"),
            cast(ModeRuleKind, r.choice(d.get("rule", "other"), MODE_RULES, f"{w}.rule")),
            r.string(d.get("stage", ""), f"{w}.stage"),
        )
        for w, d in r.objects(raw, "must be a list of mode rules", where)
    )


def _read_enum(r: _Reader, name: str, raw: object) -> EnumInfo:
    where = f"enums[{name!r}]"
    d = r.obj(raw, where)
    exclusions = tuple(
        EnumExclusion(
            r.string(x.get("value"), f"{w}.value"),
            r.string(x.get("option"), f"{w}.option"),
            r.boolean(x.get("whenEnabled"), f"{w}.whenEnabled"),
        )
        for w, x in r.objects(d.get("exclusions", []), "must be a list", f"{where}.exclusions")
    )
    return EnumInfo(
        name,
        r.strings(d.get("values", []), f"{where}.values"),
        exclusions,
        r.string(d.get("stage", ""), f"{where}.stage"),
    )


def _read_union(r: _Reader, raw: object, where: str, forced: Semantics | None) -> Union:
    d = r.obj(raw, where)
    dialect = r.string(d.get("dialect", "kep1027"), f"{where}.dialect")
    semantics = cast(
        Semantics, r.choice(d.get("semantics", "kep1027"), SEMANTICS, f"{where}.semantics")
    )
    disc_raw = d.get("discriminator")
    disc = None if disc_raw is None else r.string(disc_raw, f"{where}.discriminator")
    if disc == "":
        disc = None
    value_type = cast(
        ValueType, r.choice(d.get("valueType", "string"), VALUE_TYPES, f"{where}.valueType")
    )
    members: list[Member] = []
    seen: set[str] = set()
    for mw, m in r.objects(d.get("members"), "must be a list of members", f"{where}.members"):
        if "field" not in m or "value" not in m:
            raise TableError("a member needs 'field' and 'value'", mw)
        name = r.string(m["field"], f"{mw}.field")
        if name in seen or name == disc:
            raise TableError(f"field {name!r} appears twice in the union", mw)
        seen.add(name)
        zero = r.choice(m.get("zero", ""), ZEROS, f"{mw}.zero")
        sel_raw = m.get("selector")
        selector = None
        if sel_raw is not None:
            sel = r.obj(sel_raw, f"{mw}.selector")
            for k, v in sel.items():
                if not isinstance(v, str | int | bool) or isinstance(v, float):
                    raise TableError(
                        "must be a string, an integer or a boolean", f"{mw}.selector.{k}"
                    )
            selector = tuple(sel.items())
        members.append(
            Member(
                name,
                _member_value(r, m["value"], value_type, f"{mw}.value"),
                r.boolean(m.get("optional", False), f"{mw}.optional"),
                zero,
                selector,
            )
        )
    return Union(
        dialect=dialect,
        semantics=forced or semantics,
        discriminator=disc,
        discriminator_required=r.boolean(
            d.get("discriminatorRequired", False), f"{where}.discriminatorRequired"
        ),
        values=r.scalars(d.get("values", []), value_type, f"{where}.values"),
        members=tuple(members),
        mode=cast(Mode, r.choice(d.get("mode", "at-most-one"), MODES, f"{where}.mode")),
        deduce_invalid_discriminator=r.boolean(
            d.get("deduceInvalidDiscriminator", False), f"{where}.deduceInvalidDiscriminator"
        ),
        gate=r.string(d.get("gate", ""), f"{where}.gate"),
        gate_disabled=r.boolean(d.get("gateDisabled", False), f"{where}.gateDisabled"),
        stage=r.string(d.get("stage", ""), f"{where}.stage"),
        modes=_read_modes(r, d.get("modes", []), f"{where}.modes"),
        discriminator_type=r.choice(
            d.get("discriminatorType", "string"), ("string", "bool"), f"{where}.discriminatorType"
        ),
        at=r.strings(d.get("at", []), f"{where}.at"),
        at_value=r.boolean(d.get("atValue", False), f"{where}.atValue"),
        value_type=value_type,
        discriminator_default=(
            None
            if d.get("discriminatorDefault") is None
            else r.scalar(d["discriminatorDefault"], value_type, f"{where}.discriminatorDefault")
        ),
    )


def _member_value(r: _Reader, value: object, value_type: str, where: str) -> Scalar:
    # A member value that is not of the discriminator's type (markergen reports it,
    # MG303) is kept as written: no discriminator value can select it.
    if value_type != "string" and isinstance(value, str):
        return value
    return r.scalar(value, value_type, where)


def _read_type(r: _Reader, name: str, raw: object, forced: Semantics | None) -> TypeInfo:
    where = f"types[{name!r}]"
    d = r.obj(raw, where)
    fields_raw = r.obj(d.get("fields", {}), f"{where}.fields")
    fields = {
        fname: _read_field(r, fname, fraw, f"{where}.fields[{fname!r}]")
        for fname, fraw in fields_raw.items()
    }
    ps_raw = r.obj(d.get("patchStrategies", {}), f"{where}.patchStrategies")
    strategies = {
        k: _split_strategy(r.string(v, f"{where}.patchStrategies[{k!r}]"))
        for k, v in ps_raw.items()
    }
    unions_raw = d.get("unions", [])
    if not isinstance(unions_raw, list):
        raise TableError("must be a list", f"{where}.unions")
    unions = tuple(
        _read_union(r, u, f"{where}.unions[{i}]", forced) for i, u in enumerate(unions_raw)
    )
    return TypeInfo(name, fields, strategies, unions)


@dataclass(frozen=True)
class Table:
    """A checked runtime table: type name → TypeInfo."""

    types: Mapping[str, TypeInfo]
    # validation-gen's `+k8s:enum` types that fields name (FieldInfo.enum)
    enums: Mapping[str, EnumInfo] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: object, semantics: str | None = None) -> Table:
        """Check and read a table value; raise TableError naming the wrong part."""
        r = _Reader()
        forced: Semantics | None = None
        if semantics is not None:
            forced = cast(Semantics, r.choice(semantics, SEMANTICS, "semantics"))
        top = r.obj(data, "table")
        if "version" not in top:
            raise TableError("missing 'version'", "table")
        version = top["version"]
        if version != TABLE_VERSION or isinstance(version, bool):
            raise TableError(
                f"unsupported version {version!r} (this runtime reads version {TABLE_VERSION})",
                "table.version",
            )
        if "types" not in top:
            raise TableError("missing 'types'", "table")
        types_raw = r.obj(top["types"], "types")
        types = {name: _read_type(r, name, raw, forced) for name, raw in types_raw.items()}
        enums_raw = r.obj(top.get("enums", {}), "enums")
        enums = {name: _read_enum(r, name, raw) for name, raw in enums_raw.items()}
        for info in types.values():
            for f in info.fields.values():
                if f.enum is not None and f.enum not in enums:
                    raise TableError(
                        f"names enum {f.enum!r}, which is not in 'enums'",
                        f"types[{info.name!r}].fields[{f.name!r}].enum",
                    )
        return cls(types, enums)

    @classmethod
    def load(cls, path: str | Path, semantics: str | None = None) -> Table:
        """Read `unions_table.json`."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise TableError(
                "no runtime table here: `markergen generate` writes it (unions_table.json "
                "in the output directory; `--table FILE` names another)",
                str(p),
            ) from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise TableError(f"cannot read table: {exc}", str(p)) from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TableError(f"not JSON: {exc.msg}", f"{p}:{exc.lineno}:{exc.colno}") from exc
        try:
            return cls.from_dict(data, semantics)
        except TableError as exc:
            raise TableError(str(exc), str(p)) from exc

    @classmethod
    def from_module(cls, module: ModuleType, semantics: str | None = None) -> Table:
        """Read the `TABLE` literal of a generated `unions_table.py`."""
        if not hasattr(module, "TABLE"):
            raise TableError("module has no TABLE", module.__name__)
        return cls.from_dict(module.TABLE, semantics)

    def type(self, name: str) -> TypeInfo:
        """The type of a definition name, or of a short name as the command line's
        `--type` takes it (`resolve`)."""
        info = self.types.get(name)
        if info is None:
            info = self.types[self.resolve(name)]
        return info

    def resolve(self, name: str) -> str:
        """The definition name `name` stands for (`resolve_name`)."""
        return resolve_name(self.types, name)

    def lookup(self, name: str | None) -> TypeInfo | None:
        """The type, or None for scalars and external types the table does not describe."""
        return None if name is None else self.types.get(name)


def resolve_name(names: Collection[str], name: str) -> str:
    """The definition name `name` stands for: itself, or the one definition name that
    ends in `.name` (`Delivery`, `v1.Delivery`, as `markergen validate --type` takes
    them). Raises TableError naming the candidates when none or several match."""
    if name in names:
        return name
    matches = sorted(n for n in names if n.endswith("." + name))
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise TableError(
            f"type {name!r} is ambiguous: it may be {_listed(matches)}; give more of "
            "the definition name",
            "types",
        )
    raise TableError(f"unknown type {name!r}; {_candidates(name, names)}", "types")


def _listed(names: list[str]) -> str:
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def _candidates(name: str, types: Collection[str]) -> str:
    """What to say after "unknown type": the close short names, else every type when
    there are few, else how many there are."""
    import difflib

    short: dict[str, list[str]] = {}
    for full in types:
        short.setdefault(full.rsplit(".", 1)[-1], []).append(full)
    close = difflib.get_close_matches(name.rsplit(".", 1)[-1], list(short), n=5, cutoff=0.6)
    if close:
        return "did you mean " + _listed(sorted(n for c in close for n in short[c])) + "?"
    if not types:
        return "the table has no types"
    if len(types) <= 8:
        return "the table has " + _listed(sorted(types))
    return f"none of the table's {len(types)} types ends in {'.' + name!r}"
